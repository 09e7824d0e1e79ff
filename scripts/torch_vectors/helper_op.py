"""What test_ops.py and test_ops_rest.py share: the inputs, the loss and the
case names of tinygrad's helper_test_op, so that both suites build cases the
same way."""

import numpy as np
import torch

_count = {}


def inputs(shps, vals, low, high):
    """The tensors helper_test_op makes: vals as given, or uniform floats of
    the shapes shps from NumPy's seed 0 (int64 values become int32)."""
    if shps is None:
        ts = [torch.tensor(v) for v in vals]
    else:
        np.random.seed(0)
        ts = [torch.tensor(np.random.uniform(low=low, high=high, size=sz).astype(np.float32)) for sz in shps]
    return [t.int() if t.dtype == torch.int64 else t for t in ts]


def loss_upstream(outs):
    """d/dout of (out+1).square().mean(): helper_test_op's loss."""
    return [2 * (o + 1) / max(o.numel(), 1) for o in outs]


def name(test):
    """test's next case name: test_1, test_2, ..."""
    _count[test] = _count.get(test, 0) + 1
    return f"{test}_{_count[test]}"
