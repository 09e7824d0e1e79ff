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


def fancy_inputs():
    """tinygrad's _get_index_randoms as test_ops.py draws them (torch's seed
    0, int32 index tensors i, j, k, o, p) and the tensor x they index."""
    torch.manual_seed(0)
    idx = {"i": torch.randint(low=-1, high=1, size=(2, 1, 1, 1, 1, 1)),
           "j": torch.randint(high=1, size=(1, 3, 1, 1, 1, 1)),
           "k": torch.randint(low=-5, high=5, size=(1, 1, 4, 1, 1, 1)),
           "o": torch.randint(high=4, size=(2, 1, 1, 5, 1, 1)),
           "p": torch.randint(high=1, size=(1, 1, 1, 1, 6, 1))}
    return {n: t.int() for n, t in idx.items()}, inputs([(2, 5, 6, 5, 3, 4)], None, -2, 2)[0]


def fancy(s, test, idx, tensors, x):
    """The case x[idx] in suite s, with the index tensors of fancy_inputs
    (torch indexes with int64)."""
    tidx = idx.replace("none", "None")
    s.add(name(test), f"x[{idx}]", {"x": x, **tensors},
          lambda x, i, j, k, o, p: eval(f"x[{tidx}]", {}, {"x": x, "i": i.long(), "j": j.long(), "k": k.long(),
                                                          "o": o.long(), "p": p.long()}),
          grad=("x",), upstream=loss_upstream)


def shorten(s):
    """Writes the float32 values of suite s's cases as their shortest
    float32 text (a float64 that rounds to the same float32): half the bytes
    of the float64 repr."""
    def short(a):
        if a is not None and a["dtype"] == "float32":
            a["data"] = [float(str(np.float32(v))) if isinstance(v, float) else v for v in a["data"]]
    for c in s.cases:
        arrays = list(c["inputs"].values()) + c.get("out", []) + c.get("upstream", [])
        arrays += list(c.get("grads", {}).values())
        for a in arrays:
            short(a)
