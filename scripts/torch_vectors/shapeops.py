"""Shape ops: pad (modes, flat and grouped padding, negative amounts),
reshape with none, clip/clamp with one bound, repeat, repeat_interleave,
split, chunk, roll, tril, triu, meshgrid, unflatten, lerp."""

import torch
import torch.nn.functional as F

from common import Suite

s = Suite("shapeops")
r = torch.randn
i32 = torch.int32


def add(name, src, inputs, fn, grad=("x",)):
    s.add(name, src, inputs, fn, grad=grad)


# pad
add("pad_flat", "x.pad((1, 2))", {"x": r(3, 4)}, lambda x: F.pad(x, (1, 2)))
add("pad_flat_two_axes", "x.pad((1, 2, 0, 3))", {"x": r(2, 3, 4)}, lambda x: F.pad(x, (1, 2, 0, 3)))
add("pad_flat_list", "x.pad([1, 2, 2, 1])", {"x": r(3, 4)}, lambda x: F.pad(x, (1, 2, 2, 1)))
add("pad_negative", "x.pad((1, -2, -1, 1))", {"x": r(3, 4)}, lambda x: F.pad(x, (1, -2, -1, 1)))
add("pad_negative_all", "x.pad((-1, -1))", {"x": r(2, 5)}, lambda x: F.pad(x, (-1, -1)))
add("pad_value", "x.pad((1, 1), value=-2.5)", {"x": r(2, 3)}, lambda x: F.pad(x, (1, 1), value=-2.5))
add("pad_value_negative", "x.pad((1, -1, 2, 0), value=7)", {"x": r(3, 3)},
    lambda x: F.pad(x, (1, -1, 2, 0), value=7.0))
add("pad_grouped", "x.pad(((1, 0), (2, 3)))", {"x": r(2, 3)}, lambda x: F.pad(x, (2, 3, 1, 0)))
add("pad_grouped_none", "x.pad((none, (1, -1), (0, 2)))", {"x": r(2, 3, 4)}, lambda x: F.pad(x, (0, 2, 1, -1)))
for mode in ("reflect", "replicate", "circular"):
    add(f"pad_{mode}", f'x.pad((2, 1, 1, 2), mode="{mode}")', {"x": r(1, 2, 3, 4)},
        lambda x, m=mode: F.pad(x, (2, 1, 1, 2), mode=m))
    add(f"pad_{mode}_1d", f'x.pad((2, 3), mode="{mode}")', {"x": r(1, 2, 5)},
        lambda x, m=mode: F.pad(x, (2, 3), mode=m))
    add(f"pad_{mode}_permuted", f'x.T.pad((1, 1), mode="{mode}")', {"x": r(4, 3)},
        lambda x, m=mode: F.pad(x.T.unsqueeze(0), (1, 1), mode=m).squeeze(0))
add("pad_reflect_negative", 'x.pad((2, -1), mode="reflect")', {"x": r(1, 2, 5)},
    lambda x: F.pad(x, (2, 0), mode="reflect")[..., :-1])
add("pad_replicate_negative", 'x.pad((-1, 2), mode="replicate")', {"x": r(1, 2, 5)},
    lambda x: F.pad(x, (0, 2), mode="replicate")[..., 1:])
add("pad_circular_full", 'x.pad((3, 3), mode="circular")', {"x": r(1, 2, 3)},
    lambda x: F.pad(x, (3, 3), mode="circular"))
add("pad_empty_axis", "x.pad((1, 1))", {"x": r(0, 2)}, lambda x: F.pad(x, (1, 1)))
s.add("pad_int", "x.pad((1, 1), value=3)", {"x": torch.arange(6, dtype=i32).reshape(2, 3)},
      lambda x: F.pad(x, (1, 1), value=3))
s.error("pad_odd_flat", "x.pad((1, 2, 3))", {"x": r(2, 3)}, "even")
s.error("pad_bad_mode", 'x.pad((1, 1), mode="wrap")', {"x": r(2, 3)}, "mode")
s.error("pad_reflect_too_big", 'x.pad((3, 0), mode="reflect")', {"x": r(1, 3)}, "less than the input size")
s.error("pad_circular_wraps_twice", 'x.pad((4, 0), mode="circular")', {"x": r(1, 3)}, "more than once")
s.error("pad_circular_negative", 'x.pad((-1, 0), mode="circular")', {"x": r(1, 3)}, "negative")
s.error("pad_grouped_wrong_rank", "x.pad(((1, 1),))", {"x": r(2, 3)}, "improper")
s.error("pad_too_many_flat", "x.pad((1, 1, 1, 1, 1, 1))", {"x": r(2, 3)}, "pad")

# reshape with none
add("reshape_none", "x.reshape(none, 2, -1)", {"x": r(3, 4)}, lambda x: x.reshape(3, 2, 2))
add("reshape_none_tuple", "x.reshape((2, none, 6))", {"x": r(2, 2, 6)}, lambda x: x.reshape(2, 2, 6))
add("reshape_shape_kw", "x.reshape(shape=(4, 3))", {"x": r(3, 4)}, lambda x: x.reshape(4, 3))

# clip / clamp
add("clip_both", "x.clip(-0.5, 0.5)", {"x": r(4, 5)}, lambda x: x.clip(-0.5, 0.5))
add("clip_min_only", "x.clip(min_=0.1)", {"x": r(4, 5)}, lambda x: x.clip(min=0.1))
add("clip_max_only", "x.clip(max_=0.2)", {"x": r(4, 5)}, lambda x: x.clip(max=0.2))
add("clamp_max_only", "x.clamp(none, 0.3)", {"x": r(3, 3)}, lambda x: x.clamp(max=0.3))
add("clamp_tensor_bound", "x.clamp(lo)", {"x": r(3, 3), "lo": r(3)}, lambda x, lo: torch.maximum(x, lo),
    grad=("x", "lo"))
add("clamp_0d", "x.clamp(max_=0.0)", {"x": torch.tensor(0.7)}, lambda x: x.clamp(max=0.0))
s.add("clamp_int", "x.clamp(2, 4)", {"x": torch.arange(7, dtype=i32)}, lambda x: x.clamp(2, 4))
s.error("clamp_no_bounds", "x.clamp()", {"x": r(3)}, "at least one")

# repeat, repeat_interleave
add("repeat", "x.repeat(2, 3)", {"x": r(2, 3)}, lambda x: x.repeat(2, 3))
add("repeat_more_axes", "x.repeat((2, 1, 2))", {"x": r(2, 3)}, lambda x: x.repeat(2, 1, 2))
add("repeat_0d", "x.repeat(3)", {"x": torch.tensor(1.5)}, lambda x: x.repeat(3))
add("repeat_zero", "x.repeat(0, 2)", {"x": r(2, 3)}, lambda x: x.repeat(0, 2))
add("repeat_permuted", "x.T.repeat(2, 1)", {"x": r(2, 3)}, lambda x: x.T.repeat(2, 1))
s.error("repeat_too_few", "x.repeat(2)", {"x": r(2, 3)}, "repeat")
add("repeat_interleave_flat", "x.repeat_interleave(2)", {"x": r(2, 3)}, lambda x: x.repeat_interleave(2))
add("repeat_interleave_dim", "x.repeat_interleave(3, dim=1)", {"x": r(2, 3)},
    lambda x: x.repeat_interleave(3, dim=1))
add("repeat_interleave_neg_dim", "x.repeat_interleave(2, -2)", {"x": r(2, 3, 2)},
    lambda x: x.repeat_interleave(2, dim=-2))

# split, chunk
add("split_int", "x.split(2)", {"x": r(5, 3)}, lambda x: x.split(2))
add("split_sizes", "x.split((1, 3, 1), dim=1)", {"x": r(2, 5)}, lambda x: x.split([1, 3, 1], dim=1))
add("split_bigger", "x.split(10)", {"x": r(4)}, lambda x: x.split(10))
add("split_empty", "x.split(2)", {"x": r(0, 3)}, lambda x: x.split(2), grad=())
add("split_neg_dim", "x.split(2, dim=-1)", {"x": r(3, 4)}, lambda x: x.split(2, dim=-1))
s.error("split_bad_sizes", "x.split((1, 1))", {"x": r(3)}, "sum exactly")
add("chunk", "x.chunk(3)", {"x": r(7, 2)}, lambda x: x.chunk(3))
add("chunk_fewer", "x.chunk(6)", {"x": r(11)}, lambda x: x.chunk(6))
add("chunk_dim", "x.chunk(2, dim=1)", {"x": r(2, 4)}, lambda x: x.chunk(2, dim=1))
add("chunk_exact", "x.chunk(6)", {"x": r(12)}, lambda x: x.chunk(6))
s.error("chunk_zero", "x.chunk(0)", {"x": r(3)}, "greater than 0")

# roll
add("roll", "x.roll(1, 0)", {"x": r(4)}, lambda x: x.roll(1, 0))
add("roll_negative", "x.roll(-1, 1)", {"x": r(2, 5)}, lambda x: x.roll(-1, 1))
add("roll_big", "x.roll(7, 1)", {"x": r(2, 5)}, lambda x: x.roll(7, 1))
add("roll_multi", "x.roll((1, -2), (0, 1))", {"x": r(3, 4)}, lambda x: x.roll((1, -2), (0, 1)))
add("roll_flat", "x.roll(2)", {"x": r(3, 4)}, lambda x: x.roll(2))
add("roll_zero", "x.roll(0, 0)", {"x": r(3)}, lambda x: x.roll(0, 0))
add("roll_keywords", "x.roll(shifts=2, dims=-1)", {"x": r(2, 3)}, lambda x: x.roll(shifts=2, dims=-1))

# tril, triu
for d in (0, 1, -1, 3, -4):
    add(f"triu_{d}".replace("-", "m"), f"x.triu({d})", {"x": r(3, 4)}, lambda x, d=d: x.triu(d))
    add(f"tril_{d}".replace("-", "m"), f"x.tril({d})", {"x": r(3, 4)}, lambda x, d=d: x.tril(d))
add("triu_batched", "x.triu(diagonal=1)", {"x": r(2, 4, 3)}, lambda x: x.triu(1))
add("tril_tall", "x.tril()", {"x": r(5, 2)}, lambda x: x.tril())
add("tril_permuted", "x.T.tril()", {"x": r(3, 4)}, lambda x: x.T.tril())
add("triu_empty", "x.triu()", {"x": r(0, 3)}, lambda x: x.triu())
s.add("tril_int", "x.tril()", {"x": torch.arange(9, dtype=i32).reshape(3, 3)}, lambda x: x.tril())
s.add("triu_bool", "x.triu()", {"x": torch.ones(3, 3, dtype=torch.bool)}, lambda x: x.triu())
s.error("tril_1d", "x.tril()", {"x": r(3)}, "2 dimensions")

# meshgrid
s.add("meshgrid_ij", "meshgrid(a, b)", {"a": r(3), "b": r(4)}, lambda a, b: torch.meshgrid(a, b, indexing="ij"),
      grad=("a", "b"))
s.add("meshgrid_xy", 'meshgrid(a, b, indexing="xy")', {"a": r(3), "b": r(4)},
      lambda a, b: torch.meshgrid(a, b, indexing="xy"), grad=("a", "b"))
s.add("meshgrid_three_xy", 'a.meshgrid(b, c, indexing="xy")', {"a": r(2), "b": r(3), "c": r(4)},
      lambda a, b, c: torch.meshgrid(a, b, c, indexing="xy"), grad=("a", "b", "c"))
s.add("meshgrid_0d", "meshgrid(a, b)", {"a": torch.tensor(2.0), "b": r(3)},
      lambda a, b: torch.meshgrid(a, b, indexing="ij"), grad=("a", "b"))
s.error("meshgrid_bad_indexing", 'meshgrid(a, b, indexing="yx")', {"a": r(2), "b": r(2)}, "indexing")

# unflatten
add("unflatten", "x.unflatten(1, (2, 2))", {"x": r(3, 4, 1)}, lambda x: x.unflatten(1, (2, 2)))
add("unflatten_infer", "x.unflatten(1, (-1, 2))", {"x": r(3, 4, 1)}, lambda x: x.unflatten(1, (-1, 2)))
add("unflatten_neg_dim", "x.unflatten(-2, (2, 2, 3, 1, 1))", {"x": r(5, 12, 3)},
    lambda x: x.unflatten(-2, (2, 2, 3, 1, 1)))
s.error("unflatten_bad", "x.unflatten(0, (3, 3))", {"x": r(4)}, "reshape")

# lerp
s.add("lerp_scalar", "x.lerp(y, 0.3)", {"x": r(3, 4), "y": r(3, 4)}, lambda x, y: torch.lerp(x, y, 0.3),
      grad=("x", "y"))
s.add("lerp_tensor", "x.lerp(y, w)", {"x": r(3, 4), "y": r(4), "w": torch.rand(3, 1)},
      lambda x, y, w: torch.lerp(x, y.expand(3, 4), w), grad=("x", "y", "w"))
s.write()
