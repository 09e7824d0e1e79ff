"""The rest of tinygrad's test/test_ops.py (at a2a4ff30) translated into
tiny, as test_ops.py does for the part up to
test_slice_fancy_indexing_list_indices: from
test_slice_fancy_indexing_tuple_indices to the end of class TestOps, then
class TestOpsUint8. Each helper_test_op call is a case with the same
shapes, arguments and value ranges (np.random.seed(0), uniform in
[low, high), float32), its tolerances, and the gradients of its loss
(out+1).square().mean() with respect to every float input (none for
forward_only). helper_test_exception and assertRaises are error cases.

Departures, each said where it is made:
- scaled_dot_product_attention's cases are (32, 8, 16, 64): with their
  results, upstreams and gradients about 2 million numbers a case, tens of
  MB as JSON, so the cases keep tinygrad's arguments with the batch and
  head axes and the head size shrunk (2, 2, 16, 8). This torch (1.13) has
  no F.scaled_dot_product_attention: the expected values are torch 2's
  formula written out in torch (softmax(q k^T / sqrt(d) + mask) v).
- this torch has no bilinear interpolation of uint8, which
  TestOpsUint8.test_interpolate_bilinear compares with torch 2's; its
  expected values are tinygrad's own (run at a2a4ff30 from
  /work/tinygrad), which tinygrad's CI checks equal torch 2's.
- tinygrad's Tensor.f(x, ...) calls are x.f(...) in tiny.
- the cases named edge_* go beyond tinygrad's tests: the same ops on 0-d,
  empty, broadcast and non-contiguous inputs, and their argument errors.

Writes interp/testdata/torch/test_ops_rest.json.gz."""

import gzip
import math
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

from common import OUT_DIR, Suite, arr
from helper_op import fancy as fancy_case, fancy_inputs, shorten, inputs as _inputs, loss_upstream as _loss_upstream, name as _name

s = Suite("test_ops_rest")
NAMES = "abcdefgh"


def op(test, shps, src, fn, fo=False, vals=None, low=-2, high=2, atol=1e-6, rtol=1e-3, gatol=1e-4, grtol=1e-3,
       extra=None):
    """One helper_test_op call: src is the tinygrad lambda in tiny over the
    inputs a, b, c, ... (and the tensors of extra, by name: index tensors,
    which need no gradient); fn the torch lambda over the same, in order."""
    ts = _inputs(shps, vals, low, high)
    ins = dict(zip(NAMES, ts))
    extra = extra or {}
    grad = () if fo else tuple(k for k, v in ins.items() if v.is_floating_point())
    keys = list(ins)
    s.add(_name(test), src, {**ins, **extra}, lambda **kw: fn(*[kw[k] for k in keys], **{k: kw[k] for k in extra}),
          grad=grad, atol=atol, rtol=rtol, gatol=gatol, grtol=grtol, upstream=_loss_upstream)


def err(test, src, contains, shps=None, vals=None, low=-2, high=2, extra=None):
    """A helper_test_exception / assertRaises case."""
    ts = _inputs(shps, vals, low, high) if (shps is not None or vals is not None) else []
    s.error(_name(test), src, {**dict(zip(NAMES, ts)), **(extra or {})}, contains)


# fancy indexing: tinygrad's _get_index_randoms, drawn as test_ops.py draws them
IDX, X6 = fancy_inputs()


def fancy(test, idx):
    """x[idx] with the index tensors i, j, k, o, p."""
    fancy_case(s, test, idx, IDX, X6)


for idx in ("(((0,),),)", "(0,), j, k, o, :", "(1, 0), j, k, o, :", "i, j, k, (1, 2, 3), ...",
            "i, ((2,), (1,), (0,)), k, (2, 1, 0)", "1, (2, 1, 0), none, k, (2, 1, 0), p"):
    fancy("slice_fancy_indexing_tuple_indices", idx)
for idx in ("[i]", "[i, 1]", "[i, [1, 1]]", "[i, (1, 1)]", "[i, j, k, o, p]"):
    fancy("slice_fancy_indexing_list_with_tensors", idx)

# test_slice_fancy_indexing_errors
err("slice_fancy_indexing_errors", "ones(10, 11, 12)[tensor(1.1)]", "index dtype float32 is not supported")
err("slice_fancy_indexing_errors", "ones(10, 11, 12)[tensor([true, true])]", "index dtype bool is not supported")
err("slice_fancy_indexing_errors", "ones(10, 11, 12)[randint(3, 1, 1, 1), randint(1, 4, 1, 1), randint(2, 4, 4, 1)]",
    "cannot broadcast")
err("slice_fancy_indexing_errors", "ones(10, 11, 12)[randint(3, 1, 1, 1), randint(1, 4, 1, 1, 1)]", "cannot broadcast")


def draw_index():
    # test_gather's b: torch.randint(3, size=[3, 4, 5]) (int32 for tiny)
    return torch.randint(3, size=[3, 4, 5]).int()


torch.manual_seed(1)
# test_gather
ix = draw_index()
for shp, dim in (((4, 5, 6), 0), ((4, 5, 6), 1), ((4, 5, 6), 2), ((3, 4, 5), 0), ((4, 5, 6), -1), ((4, 5, 6), -2),
                 ((4, 5, 6), -3)):
    op("gather", [shp], f"a.gather(dim={dim}, index=ix)", lambda x, ix, dim=dim: x.gather(dim=dim, index=ix.long()),
       extra={"ix": ix})
err("gather", "a.gather(dim=0, index=tensor([1], dtype=int32))", "index rank 1 does not match tensor rank 3",
    shps=[(4, 5, 6)])
err("gather", "a.gather(dim=0, index=ix)", "is larger than tensor shape (2, 1, 1)", shps=[(2, 1, 1)], extra={"ix": ix})
op("gather", None, "a.gather(dim=0, index=tensor([2, 1, 0, 1, 2]))",
   lambda x: x.gather(dim=0, index=torch.tensor([2, 1, 0, 1, 2])), vals=[[1., 2., 3.]])

# test_scatter
ix = draw_index()
for dim in (0, 1, 2, -1, -2, -3):
    op("scatter", [(4, 5, 6), (4, 5, 6)], f"a.scatter(dim={dim}, index=ix, src=b)",
       lambda x, src, ix, dim=dim: x.scatter(dim=dim, index=ix.long(), src=src), fo=True, extra={"ix": ix})
op("scatter", [(3, 4, 5), (3, 4, 5)], "a.scatter(dim=1, index=ix, src=b)",
   lambda x, src, ix: x.scatter(dim=1, index=ix.long(), src=src), fo=True, extra={"ix": ix})
op("scatter", [(10, 3, 10), (10, 10, 10)], "a.scatter(dim=1, index=ix, src=b)",
   lambda x, src, ix: x.scatter(dim=1, index=ix.long(), src=src), fo=True, extra={"ix": ix})
err("scatter", "a.scatter(dim=1, index=ix, src=b)", "must be no larger than src shape (10, 10, 10)",
    shps=[(2, 3, 10), (10, 10, 10)], extra={"ix": ix})
err("scatter", "a.scatter(dim=1, index=ix, src=b)", "must be no larger than src shape (10, 3, 10)",
    shps=[(10, 3, 10), (10, 3, 10)], extra={"ix": ix})
op("scatter", [(4, 5, 6)], "a.scatter(dim=1, index=ix, src=3)",
   lambda x, ix: x.scatter(dim=1, index=ix.long(), value=3), fo=True, extra={"ix": ix})
op("scatter", [(4, 5, 6)], "a.scatter(dim=1, index=ix, src=inf)",
   lambda x, ix: x.scatter(dim=1, index=ix.long(), value=float("inf")), fo=True, extra={"ix": ix})
# overlapping indices with 0s
op("scatter", None, "a.scatter(0, tensor([0, 0]), b)", lambda x, src: x.scatter(0, torch.tensor([0, 0]), src), fo=True,
   vals=[[1., 2., 3., 4.], [1., 0.]])

# test_scatter_add
ix = draw_index()
for dim in (0, 1, 2, -1, -2, -3):
    op("scatter_add", [(4, 5, 6), (4, 5, 6)], f'a.scatter(dim={dim}, index=ix, src=b, reduce="add")',
       lambda x, src, ix, dim=dim: x.scatter(dim=dim, index=ix.long(), src=src,
                                             reduce="add"), fo=True, extra={"ix": ix})
ix = draw_index()
op("scatter_add", [(4, 5, 6)], 'a.scatter(dim=1, index=ix, src=inf, reduce="add")',
   lambda x, ix: x.scatter(dim=1, index=ix.long(), value=float("inf"), reduce="add"), fo=True, extra={"ix": ix})
op("scatter_add", [(4, 5, 6)], 'a.scatter(1, ix, nan, reduce="add")',
   lambda x, ix: x.scatter(1, ix.long(), float("nan"), reduce="add"), fo=True, extra={"ix": ix})

# test_scatter_mul
ix = draw_index()
for dim in (0, 1, 2, -1, -2, -3):
    op("scatter_mul", [(4, 5, 6), (4, 5, 6)], f'a.scatter(dim={dim}, index=ix, src=b, reduce="multiply")',
       lambda x, src, ix, dim=dim: x.scatter(dim=dim, index=ix.long(), src=src, reduce="multiply"), fo=True,
       extra={"ix": ix})
op("scatter_mul", [(4, 5, 6)], 'a.scatter(dim=1, index=ix, src=inf, reduce="multiply")',
   lambda x, ix: x.scatter(dim=1, index=ix.long(), value=float("inf"), reduce="multiply"), fo=True, extra={"ix": ix})
op("scatter_mul", [(4, 5, 6)], 'a.scatter(1, ix, nan, reduce="multiply")',
   lambda x, ix: x.scatter(1, ix.long(), float("nan"), reduce="multiply"), fo=True, extra={"ix": ix})
op("scatter_mul", [(4, 5, 6)], 'zeros(4, 5, 6).float().scatter(dim=1, index=ix, src=a, reduce="multiply")',
   lambda src, ix: torch.zeros([4, 5, 6]).float().scatter(dim=1, index=ix.long(), src=src, reduce="multiply"), fo=True,
   extra={"ix": ix})

# test_scaled_product_attention (+ _mismatch_ls, _causal): tinygrad's
# (32, 8, 16, 64) shrunk to (2, 2, 16, 8), see the top
Q = (2, 2, 16, 8)
MASK = (2, 2, 16, 16)


def sdpa(q, k, v, mask=None, causal=False):
    # torch 1.13 has no F.scaled_dot_product_attention: torch 2's formula
    # (a float mask is added to the scores; causal masks with -inf above
    # the diagonal).
    sc = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if causal:
        sc = sc.masked_fill(torch.ones(sc.shape[-2:], dtype=torch.bool).tril().logical_not(), -math.inf)
    if mask is not None:
        sc = sc + mask
    return torch.softmax(sc, -1) @ v


# tinygrad's Tensor.scaled_dot_product_attention(x, ...) is x.scaled_dot_product_attention(...)
op("scaled_product_attention", [Q, Q, Q], "a.scaled_dot_product_attention(b, c)", lambda x, y, z: sdpa(x, y, z))
op("scaled_product_attention", [Q, Q, Q, MASK], "a.scaled_dot_product_attention(b, c, attn_mask=d)",
   lambda x, y, z, m: sdpa(x, y, z, m))
op("scaled_product_attention_mismatch_ls", [(2, 2, 4, 8), Q, Q], "a.scaled_dot_product_attention(b, c)",
   lambda x, y, z: sdpa(x, y, z))
op("scaled_product_attention_causal", [Q, Q, Q], "a.scaled_dot_product_attention(b, c, is_causal=true)",
   lambda x, y, z: sdpa(x, y, z, causal=True))

# test_binary_crossentropy (+ _reductions)
B = [(32, 10), (32, 10)]
op("binary_crossentropy", B, "a.sigmoid().binary_crossentropy(b.clip(0, 1))",
   lambda x, y: F.binary_cross_entropy(x.sigmoid(), torch.clip(y, 0, 1)))
op("binary_crossentropy", B, "a.binary_crossentropy_logits(b.clip(0, 1))",
   lambda x, y: F.binary_cross_entropy_with_logits(x, torch.clip(y, 0, 1)))
op("binary_crossentropy", B, "a.sigmoid().binary_crossentropy(b.clip(0, 1))",
   lambda x, y: F.binary_cross_entropy_with_logits(x, torch.clip(y, 0, 1)))
op("binary_crossentropy", B, "a.binary_crossentropy_logits(b.clip(0, 1))",
   lambda x, y: F.binary_cross_entropy(x.sigmoid(), torch.clip(y, 0, 1)))
for r in ("mean", "sum", "none"):
    op("binary_crossentropy_reductions", B, f'a.sigmoid().binary_crossentropy(b.clip(0, 1), reduction="{r}")',
       lambda x, y, r=r: F.binary_cross_entropy(x.sigmoid(), torch.clip(y, 0, 1), reduction=r))
    op("binary_crossentropy_reductions", B, f'a.binary_crossentropy_logits(b.clip(0, 1), reduction="{r}")',
       lambda x, y, r=r: F.binary_cross_entropy_with_logits(x, torch.clip(y, 0, 1), reduction=r))

# test_cross_entropy (+ _reductions, _smoothing)
op("cross_entropy", B, "a.cross_entropy(b)", lambda x, y: F.cross_entropy(x, y))
op("cross_entropy", B, "a.cross_entropy(b.argmax(axis=1))", lambda x, y: F.cross_entropy(x, torch.argmax(y, dim=1)),
   fo=True)
for r in ("mean", "sum", "none"):
    op("cross_entropy_reductions", B, f'a.cross_entropy(b, reduction="{r}")',
       lambda x, y, r=r: F.cross_entropy(x, y, reduction=r))
err("cross_entropy_reductions", 'a.cross_entropy(b, reduction="typo")', "reduction='typo' must be one of", shps=B)
for ls in (0., 0.3, 0.7, 1.):
    op("cross_entropy_smoothing", B, f"a.cross_entropy(b, label_smoothing={ls})",
       lambda x, y, ls=ls: F.cross_entropy(x, y, label_smoothing=ls))


# test_nll_loss (all variants)
def nll(x, y, **kw):
    return F.nll_loss(F.log_softmax(x, dim=1), torch.clip(y, 0).type(torch.long), **kw)


op("nll_loss", [(32, 10), (32)], "a.log_softmax(axis=1).nll_loss(b.clip(0).cast(int32))", nll, fo=True)
op("nll_loss_3d", [(32, 10, 3, 3, 3), (32, 3, 3, 3)], "a.log_softmax(axis=1).nll_loss(b.clip(0).cast(int32))", nll,
   fo=True)
for r in ("mean", "sum", "none"):
    op("nll_loss_reductions", [(32, 10), (32)],
       f'a.log_softmax(axis=1).nll_loss(b.clip(0).cast(int32), reduction="{r}")',
       lambda x, y, r=r: nll(x, y, reduction=r), fo=True)
err("nll_loss_reductions", 'a.nll_loss(b.clip(0).cast(int32), reduction="typo")', "reduction='typo' must be one of",
    shps=[(32, 10), (32)])
for r in ("mean", "sum", "none"):
    op("nll_loss_weight", [(32, 10), (32), (10)],
       f'a.log_softmax(axis=1).nll_loss(b.clip(0).cast(int32), weight=c, reduction="{r}")',
       lambda x, y, z, r=r: nll(x, y, weight=z, reduction=r), fo=True)
for r in ("mean", "sum", "none"):
    op("nll_loss_3d_weight", [(32, 10, 3, 3, 3), (32, 3, 3, 3), (10)],
       f'a.log_softmax(axis=1).nll_loss(b.clip(0).cast(int32), weight=c, reduction="{r}")',
       lambda x, y, z, r=r: nll(x, y, weight=z, reduction=r), fo=True)
op("nll_loss_ignore_index", None, "a.log_softmax().nll_loss(b.clip(0), ignore_index=1)",
   lambda x, y: nll(x, y, ignore_index=1), fo=True,
   vals=[[[2.0, 0.5, -1.0], [1.5, 2.5, -0.5], [0.0, -2.0, 1.0]], [0, 1, 2]])

# test_one_hot
for data in ([1, 2, 4], [[[1, 2, 3], [0, 3, 5]], [[1, 2, 3], [0, 3, 5]]]):
    n = 6 if len(data) == 3 else 8
    op("one_hot", [], f"tensor({data}).one_hot({n})",
       lambda data=data, n=n: F.one_hot(torch.tensor(data), n).type(torch.int32), fo=True)
    op("one_hot", [], f"tensor({data}).one_hot()", lambda data=data: F.one_hot(torch.tensor(data)).type(torch.int32),
       fo=True)

# test_masked_fill
op("masked_fill", [(32, 10)], "a.masked_fill((a > 0.1).detach(), -inf)",
   lambda x: x.masked_fill((x > 0.1).detach(), -math.inf))
op("masked_fill", [(32, 10)], "a.masked_fill((a < 0.1).detach(), -inf)",
   lambda x: x.masked_fill((x < 0.1).detach(), -math.inf))

# test_cast
op("cast", [(3, 3)], "a.float()", lambda x: x.float())
op("cast", None, "a.float()", lambda x: x.float(), vals=[[0, 1, 2, 3]], fo=True)
op("cast", None, "a.float()", lambda x: x.float(), vals=[[True, False]], fo=True)
op("cast", [(3, 3)], "a.int()", lambda x: x.int(), fo=True)
op("cast", [(3, 3)], "a.bool()", lambda x: x.bool(), fo=True)

# test_bitcast
op("bitcast", [(3, 3)], "a.bitcast(int32)", lambda x: x.view(torch.int32), fo=True)

# class TestOpsUint8
U = [(2, 3, 64, 64)]
op("uint8_cast", U, 'a.cast("uint8")', lambda x: x.type(torch.uint8), fo=True)
op("uint8_cast_relu", U, 'a.relu().cast("uint8")', lambda x: x.relu().type(torch.uint8), fo=True)


def tinygrad_bilinear_uint8():
    # tinygrad's Tensor.interpolate((10*x).relu().cast('uint8'), size=(10, 10), mode="linear"), run at a2a4ff30 on
    # the input helper_test_op draws (see the top)
    code = ("import sys, numpy as np\n"
            "from tinygrad import Tensor\n"
            "x = Tensor(np.load(sys.argv[1]))\n"
            "np.save(sys.argv[2], Tensor.interpolate((10*x).relu().cast('uint8'), size=(10, 10), mode='linear').numpy())\n")
    tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), "tiny_bilinear_uint8")
    np.save(tmp + "_in.npy", _inputs(U, None, -2, 2)[0].numpy())
    subprocess.run([sys.executable, "-c", code, tmp + "_in.npy", tmp + "_out.npy"], check=True,
                   env={**os.environ, "PYTHONPATH": os.environ.get("TINYGRAD", "/work/tinygrad")})
    return torch.tensor(np.load(tmp + "_out.npy"))


BIL = tinygrad_bilinear_uint8()
# tinygrad's Tensor.interpolate(x, ...) is x.interpolate(...)
op("uint8_interpolate_bilinear", U, '(10 * a).relu().cast("uint8").interpolate(size=(10, 10), mode="linear")',
   lambda x: BIL, fo=True)
for mode in ("nearest", "nearest-exact"):
    op("uint8_interpolate_" + mode.replace("-", "_"), U,
       f'(10 * a).relu().cast("uint8").interpolate(size=(10, 10), mode="{mode}")',
       lambda x, mode=mode: F.interpolate((10 * x).relu().type(torch.uint8), size=(10, 10), mode=mode), fo=True)
op("uint8_min", None, 'a.cast(uint8).min()', lambda x: x.type(torch.uint8).min(), fo=True,
   vals=[[[0, 1, 2], [3, 4, 5]]])
op("uint8_min", None, 'a.cast(uint8).min()', lambda x: x.type(torch.uint8).min(), fo=True,
   vals=[[0, 128, 255, 64, 32, 16]])


# --- beyond tinygrad's tests: the same ops on 0-d, empty, broadcast and
# non-contiguous (permuted, sliced) inputs, and their argument errors ---
torch.manual_seed(2)
ix = draw_index()
op("edge_gather_permuted", [(5, 6, 4)], "a.permute(2, 0, 1).gather(dim=1, index=ix)",
   lambda x, ix: x.permute(2, 0, 1).gather(dim=1, index=ix.long()), extra={"ix": ix})
op("edge_gather_sliced_index", [(4, 5, 6)], "a.gather(dim=2, index=ix[:, ::2, 1:])",
   lambda x, ix: x.gather(dim=2, index=ix[:, ::2, 1:].long()), extra={"ix": ix})
op("edge_gather_empty", [(4, 5, 6)], "a.gather(0, ix)", lambda x, ix: x.gather(0, ix.long()),
   extra={"ix": torch.zeros(0, 4, 5, dtype=torch.int32)})
op("edge_gather_int", [], "arange(24).reshape(2, 3, 4).gather(2, tensor([[[3, 0], [1, 1], [2, 0]]]))",
   lambda: torch.arange(24, dtype=torch.int32).reshape(2, 3, 4).gather(2,
                        torch.tensor([[[3, 0], [1, 1], [2, 0]]])), fo=True)
op("edge_gather_0d", [()], "a.gather(0, tensor(0))", lambda x: x.gather(0, torch.tensor(0)))
err("edge_gather_float_index", "a.gather(0, tensor([[0.5]]))", "gather: index dtype float32 is not supported",
    shps=[(3, 3)])
op("edge_scatter_permuted", [(6, 4, 5), (5, 6, 4)], "a.permute(1, 2, 0).scatter(1, ix, b.permute(2, 0, 1))",
   lambda x, src, ix: x.permute(1, 2, 0).scatter(1, ix.long(), src.permute(2, 0, 1)), fo=True, extra={"ix": ix})
op("edge_scatter_add_dup", [],
   'zeros(5).scatter(0, tensor([0, 0, 1, 4, 0]), tensor([1.0, 2.0, 3.0, 4.0, 5.0]), reduce="add")',
   lambda: torch.zeros(5).scatter(0, torch.tensor([0, 0, 1, 4, 0]), torch.tensor([1., 2., 3., 4., 5.]), reduce="add"),
   fo=True)
op("edge_scatter_mul_dup", [], 'ones(3).scatter(0, tensor([2, 2, 0]), tensor([3.0, -2.0, 0.5]), reduce="multiply")',
   lambda: torch.ones(3).scatter(0, torch.tensor([2, 2, 0]), torch.tensor([3., -2., .5]), reduce="multiply"), fo=True)
op("edge_scatter_int", [], "arange(6).scatter(0, tensor([5, 0]), tensor([100, 200]))",
   lambda: torch.arange(6, dtype=torch.int32).scatter(0, torch.tensor([5, 0]),
                        torch.tensor([100, 200], dtype=torch.int32)),
   fo=True)
op("edge_scatter_empty_index", [(3, 4)], "a.scatter(1, ix, 7.0)", lambda x, ix: x.scatter(1, ix.long(), 7.0), fo=True,
   extra={"ix": torch.zeros(3, 0, dtype=torch.int32)})
err("edge_scatter_bad_reduce", 'a.scatter(0, tensor([0]), 1.0, reduce="max")',
    "reduce must be none, 'add' or 'multiply'",
    shps=[(3,)])
op("edge_one_hot_0d", [], "tensor(3).one_hot(5)", lambda: F.one_hot(torch.tensor(3), 5).int(), fo=True)
op("edge_one_hot_empty", [], "tensor([], dtype=int32).one_hot(4)",
   lambda: F.one_hot(torch.zeros(0, dtype=torch.int64), 4).int(), fo=True)
op("edge_one_hot_permuted", [], "tensor([[0, 1, 2], [3, 4, 0]]).T.one_hot()",
   lambda: F.one_hot(torch.tensor([[0, 1, 2], [3, 4, 0]]).T).int(), fo=True)
err("edge_one_hot_float", "tensor([1.0]).one_hot(3)", "one_hot: expected an integer tensor")
op("edge_masked_fill_broadcast", [(32, 10), (10,), ()], "a.masked_fill(b > 0, c)",
   lambda x, m, v: x.masked_fill(m > 0, v))
op("edge_masked_fill_permuted", [(10, 32)], "a.T.masked_fill(a.T < 0, 0.5)", lambda x: x.T.masked_fill(x.T < 0, 0.5))
op("edge_masked_fill_0d", [()], "a.masked_fill(tensor(true), 2.5)", lambda x: x.masked_fill(torch.tensor(True), 2.5))
op("edge_masked_fill_empty", [(0, 3)], "a.masked_fill(a > 0, 1.0)", lambda x: x.masked_fill(x > 0, 1.0))
op("edge_nll_loss_all_ignored", [(3, 4)], "a.log_softmax(axis=1).nll_loss(tensor([1, 1, 1]), ignore_index=1)",
   lambda x: F.nll_loss(F.log_softmax(x, dim=1), torch.tensor([1, 1, 1]), ignore_index=1), fo=True)
op("edge_nll_loss_permuted", [(10, 32), (32,)],
   "a.T.log_softmax(axis=1).nll_loss(b.clip(0).cast(int32), reduction=\"sum\")",
   lambda x, y: F.nll_loss(F.log_softmax(x.T, dim=1), torch.clip(y, 0).long(), reduction="sum"))
op("edge_nll_loss_weight_ignore", [(32, 10), (32,), (10,)],
   "a.log_softmax(axis=1).nll_loss(b.clip(0).cast(int32), weight=c, ignore_index=0)",
   lambda x, y, z: F.nll_loss(F.log_softmax(x, dim=1), torch.clip(y, 0).long(), weight=z, ignore_index=0), fo=True)
op("edge_cross_entropy_index_smoothing", [(32, 10), (32,)],
   "a.cross_entropy((b * 2 + 5).cast(int32), label_smoothing=0.2)",
   lambda x, y: F.cross_entropy(x, (y * 2 + 5).int().long(), label_smoothing=0.2))
op("edge_cross_entropy_permuted", [(10, 32), (10, 32)], "a.T.cross_entropy(b.T.softmax(axis=1))",
   lambda x, y: F.cross_entropy(x.T, y.T.softmax(dim=1)))
err("edge_cross_entropy_smoothing_range", "a.cross_entropy(b, label_smoothing=1.5)",
    "label_smoothing must be in [0.0, 1.0]", shps=B)
op("edge_binary_crossentropy_0d", [(), ()], "a.sigmoid().binary_crossentropy(b.clip(0, 1))",
   lambda x, y: F.binary_cross_entropy(x.sigmoid(), torch.clip(y, 0, 1)))
op("edge_binary_crossentropy_logits_permuted", [(10, 32), (32, 10)],
   'a.T.binary_crossentropy_logits(b.clip(0, 1), reduction="sum")',
   lambda x, y: F.binary_cross_entropy_with_logits(x.T, torch.clip(y, 0, 1), reduction="sum"))
op("edge_binary_crossentropy_logits_broadcast", [(32, 10), (10,)], "a.binary_crossentropy_logits(b.clip(0, 1))",
   lambda x, y: F.binary_cross_entropy_with_logits(x, torch.clip(y, 0, 1).expand(32, 10)))
op("edge_sdpa_bool_mask", [Q, Q, Q], "a.scaled_dot_product_attention(b, c, attn_mask=ones(16, 16).tril().cast(bool))",
   lambda x, y, z: sdpa(x, y, z, torch.zeros(16, 16).masked_fill(torch.ones(16, 16).tril() == 0, -math.inf)))
op("edge_sdpa_3d", [(2, 4, 8), (2, 6, 8), (2, 6, 5)], "a.scaled_dot_product_attention(b, c)",
   lambda x, y, z: sdpa(x, y, z))
op("edge_sdpa_permuted", [(2, 16, 2, 8), Q, Q], "a.transpose(1, 2).scaled_dot_product_attention(b, c, is_causal=true)",
   lambda x, y, z: sdpa(x.transpose(1, 2), y, z, causal=True))
op("edge_bitcast_uint32", [(3, 3)], "a.bitcast(uint32)", lambda x: x.view(torch.int32).long() & 0xFFFFFFFF,
   fo=True)
s.cases[-1]["out"][0] = {**s.cases[-1]["out"][0], "dtype": "uint32"}
op("edge_bitcast_int_to_float", None, "a.bitcast(float32)", lambda x: x.view(torch.float32), fo=True,
   vals=[[1065353216, -1082130432, 2139095040, 0, -2147483648]])
op("edge_bitcast_permuted", [(3, 4)], "a.T.bitcast(int32)", lambda x: x.T.contiguous().view(torch.int32), fo=True)
op("edge_bitcast_int16", [(3, 4)], "a.bitcast(int16)", lambda x: x.view(torch.int16), fo=True)
op("edge_bitcast_uint8", [(2, 3)], "a.bitcast(uint8)", lambda x: x.view(torch.uint8), fo=True)
op("edge_bitcast_empty", [(0, 4)], "a.bitcast(int32)", lambda x: x.view(torch.int32), fo=True)
err("edge_bitcast_requires_grad", "a.requires_grad_().bitcast(int32)", "cannot backpropagate through a bitcast",
    shps=[(3,)])
op("edge_cast_uint8_wrap", None, 'a.cast("uint8")', lambda x: x.type(torch.uint8), fo=True,
   vals=[[300.5, -129.0, 255.9, -0.5, 256.0, 0.0]])
op("edge_cast_bool_specials", None, "a.bool()", lambda x: x.bool(), fo=True,
   vals=[[float("nan"), -0.0, 0.0, float("inf"), 1e-40]])
op("edge_cast_permuted", [(3, 4)], "a.T.int()", lambda x: x.T.int(), fo=True)
op("edge_cast_0d", [()], "a.float().int()", lambda x: x.float().int(), fo=True)
op("edge_uint8_max_argmin", None, "(a.cast(uint8).max(), a.cast(uint8).argmin(), a.cast(uint8).min(axis=0))",
   lambda x: (x.type(torch.uint8).max(), x.type(torch.uint8).argmin().int(),
              x.type(torch.uint8).min(dim=0)[0]), fo=True,
   vals=[[[200, 1, 255], [3, 0, 5]]])
for mode in ("nearest", "nearest-exact"):
    op("edge_uint8_interpolate_3d_" + mode.replace("-", "_"), [(2, 3, 5, 7)],
       f'(10 * a).relu().cast("uint8").interpolate(size=(4, 9), mode="{mode}")',
       lambda x, mode=mode: F.interpolate((10 * x).relu().type(torch.uint8), size=(4, 9), mode=mode), fo=True)


shorten(s)
s.write()
path = os.path.join(OUT_DIR, "test_ops_rest.json")
with open(path, "rb") as f, gzip.GzipFile(path + ".gz", "wb", compresslevel=9, mtime=0) as g:
    g.write(f.read())
os.remove(path)
print(f"{path}.gz: {os.path.getsize(path + '.gz')} bytes")
