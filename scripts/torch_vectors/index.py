"""Indexing by integer tensors, lists and tuples (torch's advanced indexing
as tinygrad does it), setitem, gather, scatter, masked_fill and one_hot.

tinygrad reads 0 at an index still out of range after one wrap of negative
values (torch raises); the cases for that compute the expected values with
a clamp and a mask."""

import torch

from common import Suite

s = Suite("index")
r = torch.randn


def ints(*v):
    return torch.tensor(v, dtype=torch.int32)


def take0(x, i):
    """x[idx] along axis 0 as tinygrad: negative wrap once, 0 out of range."""
    n = x.shape[0]
    i = torch.where(i < 0, i + n, i).long()
    ok = (i >= 0) & (i < n)
    got = x[i.clamp(0, max(n - 1, 0))]
    return torch.where(ok.reshape(ok.shape + (1,) * (x.ndim - 1)), got, torch.zeros((), dtype=x.dtype))


# Tensor indices on one axis.
s.add("rows", "x[i]", {"x": r(5, 3), "i": ints(4, 0, 2, 2)}, lambda x, i: x[i.long()], grad=("x",))
s.add("rows_2d_index", "x[i]", {"x": r(5, 3), "i": ints(1, 0, 4, 2, 2, 3).reshape(2, 3)},
      lambda x, i: x[i.long()], grad=("x",))
s.add("cols", "x[:, i]", {"x": r(3, 6), "i": ints(5, 1, 1)}, lambda x, i: x[:, i.long()], grad=("x",))
s.add("ellipsis_last", "x[..., i]", {"x": r(2, 3, 4), "i": ints(3, 0)}, lambda x, i: x[..., i.long()], grad=("x",))
s.add("negative", "x[i]", {"x": r(4, 2), "i": ints(-1, -4, 0, -2)}, lambda x, i: x[i.long()], grad=("x",))
s.add("out_of_range_reads_0", "x[i]", {"x": r(4, 2), "i": ints(4, -5, 1, 100, -1)}, take0, grad=("x",))
s.add("list_index", "x[[2, 0, -1]]", {"x": r(3, 4)}, lambda x: x[[2, 0, -1]], grad=("x",))
s.add("nested_list_index", "x[tensor([[0, 1], [2, 2]])]", {"x": r(3, 2)}, lambda x: x[torch.tensor([[0, 1], [2, 2]])],
      grad=("x",))
s.add("tuple_in_index", "x[:, (1, 0)]", {"x": r(2, 3)}, lambda x: x[:, [1, 0]], grad=("x",))
s.add("tuple_is_basic", "x[(1, 0)]", {"x": r(2, 3)}, lambda x: x[(1, 0)], grad=("x",))
s.add("zero_d_index", "x[i]", {"x": r(4, 3), "i": torch.tensor(2, dtype=torch.int32)},
      lambda x, i: x[i.long()], grad=("x",))
s.add("empty_index", "x[i]", {"x": r(4, 3), "i": torch.zeros(0, dtype=torch.int32)},
      lambda x, i: x[i.long()], grad=("x",))
s.add("empty_source", "x[:, i]", {"x": r(0, 3), "i": ints(2, 0)}, lambda x, i: x[:, i.long()], grad=("x",))
s.add("int_source", "x[i]", {"x": torch.arange(12, dtype=torch.int32).reshape(4, 3), "i": ints(3, 1)},
      lambda x, i: x[i.long()])
s.add("bool_source", "x[i]", {"x": torch.tensor([True, False, True]), "i": ints(2, 1, 1)},
      lambda x, i: x[i.long()])
s.add("index_0d_source_row", "x[i]", {"x": r(3), "i": ints(2, 0, 1, 1)}, lambda x, i: x[i.long()], grad=("x",))
# Non-contiguous sources.
s.add("transposed", "x.T[i]", {"x": r(3, 5), "i": ints(4, 0, 2)}, lambda x, i: x.T[i.long()], grad=("x",))
s.add("stepped", "x[::2][i]", {"x": r(7, 2), "i": ints(3, 0, -1)}, lambda x, i: x[::2][i.long()], grad=("x",))
s.add("flipped_cols", "x[:, ::-1][:, i]", {"x": r(3, 4), "i": ints(0, 3)},
      lambda x, i: x.flip(1)[:, i.long()], grad=("x",))
s.add("padded", "x.pad(((1, 1), (0, 0)))[i]", {"x": r(2, 3), "i": ints(0, 1, 3, 2)},
      lambda x, i: torch.nn.functional.pad(x, (0, 0, 1, 1))[i.long()], grad=("x",))
s.add("expanded", "x.expand(4, 3)[i]", {"x": r(1, 3), "i": ints(3, 0)}, lambda x, i: x.expand(4, 3)[i.long()],
      grad=("x",))
s.add("computed_source", "(x * 2 + 1).exp()[i]", {"x": r(4, 2), "i": ints(1, 3)},
      lambda x, i: (x * 2 + 1).exp()[i.long()], grad=("x",))
s.add("computed_index", "x[(i + 1) % 4]", {"x": r(4, 2), "i": ints(0, 3, 2)},
      lambda x, i: x[((i + 1) % 4).long()], grad=("x",))
# Several tensor indices: broadcast together; adjacent ones stay in place,
# separated ones go first.
s.add("two_adjacent", "x[:, i, j]", {"x": r(2, 3, 4), "i": ints(0, 2, 1), "j": ints(3, 0, 1)},
      lambda x, i, j: x[:, i.long(), j.long()], grad=("x",))
s.add("two_leading", "x[i, j]", {"x": r(3, 4, 2), "i": ints(0, 2), "j": ints(3, -1)},
      lambda x, i, j: x[i.long(), j.long()], grad=("x",))
s.add("two_separated", "x[i, :, j]", {"x": r(3, 4, 5), "i": ints(0, 2), "j": ints(4, 1)},
      lambda x, i, j: x[i.long(), :, j.long()], grad=("x",))
s.add("separated_not_first", "x[:, i, :, j]", {"x": r(2, 3, 4, 5), "i": ints(0, 2), "j": ints(4, 1)},
      lambda x, i, j: x[:, i.long(), :, j.long()], grad=("x",))
s.add("broadcast_indices", "x[i, j]", {"x": r(4, 5), "i": ints(0, 3, 1).reshape(3, 1), "j": ints(4, 0)},
      lambda x, i, j: x[i.long(), j.long()], grad=("x",))
s.add("three_indices", "x[i, j, k]", {"x": r(2, 3, 4), "i": ints(1, 0), "j": ints(2, 2), "k": ints(0, 3)},
      lambda x, i, j, k: x[i.long(), j.long(), k.long()], grad=("x",))
s.add("int_then_list", "x[0, :, [0, 1]]", {"x": r(2, 3, 4)}, lambda x: x[0, :, [0, 1]], grad=("x",))
s.add("list_then_int", "x[:, [0, 2], 1]", {"x": r(2, 3, 4)}, lambda x: x[:, [0, 2], 1], grad=("x",))
s.add("none_and_index", "x[none, i, none]", {"x": r(3, 2), "i": ints(2, 0)},
      lambda x, i: x[None, i.long(), None], grad=("x",))
s.add("slice_and_index", "x[1:, i]", {"x": r(4, 5), "i": ints(4, 0)}, lambda x, i: x[1:, i.long()], grad=("x",))
s.add("duplicate_rows_grad", "x[i]", {"x": r(3, 2), "i": ints(1, 1, 1, 0)}, lambda x, i: x[i.long()], grad=("x",))
s.add("two_out_of_range", "x[i, j]", {"x": r(3, 4), "i": ints(0, 5, 2), "j": ints(1, 1, 9)},
      lambda x, i, j: torch.stack([x[0, 1], torch.zeros(()), torch.zeros(())]), grad=("x",))
s.add("uint8_indices", "x[i, j]", {"x": r(20, 30), "i": torch.tensor([19, 1], dtype=torch.uint8).int(),
                                    "j": torch.tensor([29, 0], dtype=torch.uint8).int()},
      lambda x, i, j: x[i.long(), j.long()], grad=("x",))
s.add("uint8_index_cast", "x[i.cast(uint8), j.cast(uint8)]", {"x": r(20, 30), "i": ints(19, 1), "j": ints(29, 0)},
      lambda x, i, j: x[i.long(), j.long()], grad=("x",))
s.add("int64_index", "x[i.cast(int64)]", {"x": r(5, 2), "i": ints(4, -5, 2)}, lambda x, i: x[i.long()], grad=("x",))
# Errors.
s.error("float_index", "x[i]", {"x": r(3), "i": torch.tensor([0.0, 1.0])}, "index dtype float32 is not supported")
s.error("bool_index", "x[i]", {"x": r(3), "i": torch.tensor([True, False, True])}, "index dtype bool is not supported")
s.error("too_many", "x[i, 0, 0]", {"x": r(3, 2), "i": ints(0)}, "too many indices")
s.error("unbroadcastable", "x[i, j]", {"x": r(3, 3), "i": ints(0, 1), "j": ints(0, 1, 2)}, "cannot broadcast indices")

# setitem (tinygrad's __setitem__): run inside a fn so the case is one expression.
def setitem(body):
    return "(fn (y) { " + body + "; return y })(x.contiguous())"


def torch_set(f):
    def g(x, **kw):
        y = x.clone()
        f(y, **kw)
        return y
    return g


s.add("set_row", setitem("y[1] = 5"), {"x": r(3, 4)}, torch_set(lambda y: y.__setitem__(1, 5)))
s.add("set_slice_tensor", setitem("y[:, 1:3] = v"), {"x": r(3, 4), "v": r(2)},
      torch_set(lambda y, v: y.__setitem__((slice(None), slice(1, 3)), v)))
s.add("set_step", setitem("y[::-2] = 0"), {"x": r(5, 2)}, torch_set(lambda y: y.__setitem__(slice(0, None, 2), 0)))
s.add("set_index_tensor", setitem("y[i] = v"), {"x": r(4, 3), "i": ints(3, 0), "v": r(2, 3)},
      torch_set(lambda y, i, v: y.__setitem__(i.long(), v)))
s.add("set_two_indices", setitem("y[i, j] = 7"), {"x": r(3, 3), "i": ints(0, 2), "j": ints(1, -1)},
      torch_set(lambda y, i, j: y.__setitem__((i.long(), j.long()), 7)))
s.add("set_int_dtype", setitem("y[0, 1] = 2.7"), {"x": torch.arange(6, dtype=torch.int32).reshape(2, 3)},
      torch_set(lambda y: y.__setitem__((0, 1), 2)))
s.add("set_add", setitem("y[i] += 1"), {"x": r(3, 2), "i": ints(2, 0)},
      torch_set(lambda y, i: y.__setitem__(i.long(), y[i.long()] + 1)))
s.error("set_not_contiguous", "(fn (y) { y[0] = 1; return y })(x.T)", {"x": r(2, 3)}, "needs to be contiguous")
s.error("set_requires_grad", "(fn (y) { y[0] = 1; return y })(x.contiguous().requires_grad_())", {"x": r(2, 3)},
        "setitem with requires_grad is not supported")
s.error("set_bad_shape", setitem("y[0] = v"), {"x": r(2, 3), "v": r(2)}, "cannot broadcast")

# gather
s.add("gather_dim1", "x.gather(1, i)", {"x": r(3, 4), "i": torch.tensor([[0, 0], [3, 1], [2, 2]], dtype=torch.int32)},
      lambda x, i: x.gather(1, i.long()), grad=("x",))
s.add("gather_dim0", "x.gather(0, i)", {"x": r(3, 4), "i": torch.tensor([[2, 0, 1, 1], [0, 0, 2, 1]], dtype=torch.int32)},
      lambda x, i: x.gather(0, i.long()), grad=("x",))
s.add("gather_negative_dim_smaller", "x.gather(-1, i)", {"x": r(3, 4, 5), "i": torch.randint(0, 5, (2, 3, 2), dtype=torch.int32)},
      lambda x, i: x.gather(-1, i.long()), grad=("x",))
s.add("gather_noncontig", "x.T.gather(dim=0, index=i)", {"x": r(4, 3), "i": torch.tensor([[2, 0, 1, 1]], dtype=torch.int32)},
      lambda x, i: x.T.gather(0, i.long()), grad=("x",))
s.add("gather_0d", "x.gather(0, i)", {"x": torch.tensor(2.5), "i": torch.tensor(0, dtype=torch.int32)},
      lambda x, i: x.gather(0, i.long()), grad=("x",))
s.add("gather_empty", "x.gather(1, i)", {"x": r(2, 3), "i": torch.zeros(2, 0, dtype=torch.int32)},
      lambda x, i: x.gather(1, i.long()), grad=("x",))
s.error("gather_rank", "x.gather(0, i)", {"x": r(2, 3), "i": ints(0, 1)}, "rank")
s.error("gather_float_index", "x.gather(0, i)", {"x": r(2, 3), "i": torch.zeros(1, 3)}, "index dtype")

# scatter
s.add("scatter_set", "x.scatter(0, i, src)", {"x": r(3, 5), "i": torch.tensor([[0, 1, 2, 0]], dtype=torch.int32), "src": r(1, 4)},
      lambda x, i, src: x.scatter(0, i.long(), src), grad=("x", "src"))
s.add("scatter_set_dim1", "x.scatter(1, i, src)", {"x": r(3, 5), "i": torch.tensor([[0, 1, 2], [0, 1, 4]], dtype=torch.int32),
                                                  "src": r(2, 3)},
      lambda x, i, src: x.scatter(1, i.long(), src), grad=("x", "src"))
s.add("scatter_src_larger", "x.scatter(1, i, src)", {"x": r(3, 5), "i": torch.tensor([[0, 1, 2], [0, 1, 4]], dtype=torch.int32),
                                                    "src": r(2, 5)},
      lambda x, i, src: x.scatter(1, i.long(), src), grad=("x",))
s.add("scatter_add", "x.scatter(1, i, src, reduce='add')", {"x": r(2, 4), "i": torch.tensor([[2, 2], [3, 0]], dtype=torch.int32),
                                                         "src": r(2, 2)},
      lambda x, i, src: x.scatter_add(1, i.long(), src), grad=("x", "src"))
s.add("scatter_multiply", "x.scatter(1, i, src, reduce='multiply')", {"x": r(2, 4), "i": torch.tensor([[2, 2], [3, 0]], dtype=torch.int32),
                                                                   "src": r(2, 2)},
      lambda x, i, src: x.scatter_reduce(1, i.long(), src, "prod"), grad=("x", "src"))
s.add("scatter_scalar", "x.scatter(1, i, 1.5)", {"x": r(2, 4), "i": torch.tensor([[2], [3]], dtype=torch.int32)},
      lambda x, i: x.scatter(1, i.long(), 1.5), grad=("x",))
s.add("scatter_int", "x.scatter(0, i, src, reduce='add')", {"x": torch.arange(6, dtype=torch.int32).reshape(3, 2),
                                                           "i": torch.tensor([[1, 1], [1, 2]], dtype=torch.int32),
                                                           "src": torch.tensor([[10, 20], [30, 40]], dtype=torch.int32)},
      lambda x, i, src: x.scatter_add(0, i.long(), src))
s.error("scatter_bad_reduce", "x.scatter(0, i, x, reduce='max')", {"x": r(2), "i": ints(0)}, "reduce must be")
s.error("scatter_rank", "x.scatter(0, i, src)", {"x": r(2, 2), "i": ints(0), "src": r(2)}, "must all equal")

# masked_fill, one_hot
s.add("masked_fill", "x.masked_fill(m, -1.0)", {"x": r(2, 3), "m": torch.tensor([True, False, True])},
      lambda x, m: x.masked_fill(m, -1.0), grad=("x",))
s.add("masked_fill_tensor_value", "x.masked_fill(m, v)", {"x": r(2, 3), "m": torch.tensor([[True], [False]]), "v": torch.tensor(3.0)},
      lambda x, m, v: x.masked_fill(m, v), grad=("x",))
s.add("masked_fill_int", "x.masked_fill(m, 9)", {"x": torch.arange(4, dtype=torch.int32), "m": torch.tensor([False, True, True, False])},
      lambda x, m: x.masked_fill(m, 9))
s.add("one_hot", "i.one_hot(5)", {"i": ints(0, 1, 3, 3, 4)},
      lambda i: torch.nn.functional.one_hot(i.long(), 5).int())
s.add("one_hot_infer", "i.one_hot()", {"i": ints(2, 0).reshape(2, 1)},
      lambda i: torch.nn.functional.one_hot(i.long()).int())
s.add("one_hot_0d", "i.one_hot(num_classes=3)", {"i": torch.tensor(1, dtype=torch.int32)},
      lambda i: torch.nn.functional.one_hot(i.long(), 3).int())
s.error("one_hot_float", "x.one_hot(3)", {"x": r(2)}, "integer")

# Random mixtures of ints, slices, none, ... and index tensors (in range, so
# torch's values are tinygrad's), forward and gradient.
import random

rng = random.Random(10)


def rand_case(k):
    ndim = rng.randint(1, 4)
    shape = [rng.randint(1, 4) for _ in range(ndim)]
    x = torch.randn(*shape)
    items, srcs, inputs, pyitems = [], [], {"x": x}, []
    dim = 0
    ell = False
    ntensor = 0
    while dim < ndim:
        c = rng.random()
        if c < 0.1 and not ell and dim > 0:
            items.append("...")
            pyitems.append(Ellipsis)
            ell = True
            break
        if c < 0.2:
            items.append("none")
            pyitems.append(None)
            continue
        size = shape[dim]
        if c < 0.35:
            i = rng.randint(-size, size - 1)
            items.append(str(i))
            pyitems.append(i)
        elif c < 0.55:
            start = rng.choice([None, rng.randint(-size, size)])
            stop = rng.choice([None, rng.randint(-size, size)])
            step = rng.choice([None, 1, 2, 3])
            fmt = lambda v: "" if v is None else str(v)
            items.append(f"{fmt(start)}:{fmt(stop)}" + ("" if step is None else f":{step}"))
            pyitems.append(slice(start, stop, step))
        else:
            name = f"i{ntensor}"
            ntensor += 1
            ishape = rng.choice([(2,), (3,), (2, 1), (1, 3), ()])
            t = torch.randint(-size, size, ishape, dtype=torch.int32)
            inputs[name] = t
            items.append(name)
            pyitems.append(name)
        dim += 1
    if ntensor == 0:
        return None
    src = "x[" + ", ".join(items) + "]"
    names = [n for n in inputs if n != "x"]

    def fn(x, **idx):
        key = tuple(idx[p].long() if isinstance(p, str) else p for p in pyitems)
        return x[key]
    try:
        out = fn(**inputs)
    except (IndexError, RuntimeError):
        return None
    return src, inputs, fn


made = 0
while made < 100:
    c = rand_case(made)
    if c is None:
        continue
    src, inputs, fn = c
    s.add(f"random_{made}", src, inputs, fn, grad=("x",))
    made += 1

# The same mixtures as setitem targets, with a value of the selection's shape.
made = 0
while made < 40:
    c = rand_case(made)
    if c is None:
        continue
    src, inputs, fn = c
    sel = fn(**inputs)
    v = torch.randn(sel.shape)
    inputs = dict(inputs, v=v)
    key_src = src[len("x["):-1]

    def torch_set_key(x, v, src=src, **idx):
        y = x.clone()
        env = {k: (t.long() if t.dtype == torch.int32 else t) for k, t in idx.items()}
        env["y"] = y
        env["v"] = v
        exec("y[" + src[2:-1].replace("none", "None") + "] = v", {}, env)
        return y
    s.add(f"random_set_{made}", setitem(f"y[{key_src}] = v"), inputs, torch_set_key)
    made += 1
s.write()
