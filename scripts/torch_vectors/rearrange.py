"""rearrange (einops' patterns, as tinygrad's Tensor.rearrange at a2a4ff30:
groups, a bare 1 or () for a unit axis, one ellipsis, sizes by keyword) and
contiguous_backward; torch's value is the same movement written with
reshape and permute. The errors are tinygrad's assertions."""

import torch

from common import Suite

s = Suite("rearrange")
t = torch.tensor
x4 = torch.randn(2, 3, 4, 6)
cases = [
    ("permute", 'x.rearrange("b c h w -> b h w c")', lambda x: x.permute(0, 2, 3, 1)),
    ("flatten", 'x.rearrange("b c h w -> b (c h w)")', lambda x: x.reshape(2, -1)),
    ("split_merge", 'x.rearrange("b c h (w w1) -> b (c w1) h w", w1=2)',
     lambda x: x.reshape(2, 3, 4, 3, 2).permute(0, 1, 4, 2, 3).reshape(2, 6, 4, 3)),
    ("space_to_depth", 'x.rearrange("b c (h h1) (w w1) -> b (h1 w1 c) h w", h1=2, w1=3)',
     lambda x: x.reshape(2, 3, 2, 2, 2, 3).permute(0, 3, 5, 1, 2, 4).reshape(2, 18, 2, 2)),
    ("to_rows", 'x.rearrange("b c h w -> (b h w) c")', lambda x: x.permute(0, 2, 3, 1).reshape(-1, 3)),
    ("unit_axes", 'x.rearrange("b c h w -> c 1 b () h w")', lambda x: x.permute(1, 0, 2, 3).reshape(3, 1, 2, 1, 4, 6)),
    ("ellipsis_end", 'x.rearrange("b ... -> ... b")', lambda x: x.permute(1, 2, 3, 0)),
    ("ellipsis_group", 'x.rearrange("b ... w -> w (...) b")', lambda x: x.permute(3, 1, 2, 0).reshape(6, 12, 2)),
    ("ellipsis_all", 'x.rearrange("... -> (...)")', lambda x: x.reshape(-1)),
    ("ellipsis_in_group_with_name", 'x.rearrange("a b ... e -> b (a ...) e")',
     lambda x: x.permute(1, 0, 2, 3).reshape(3, 8, 6)),
    ("reverse", 'x.rearrange("a b c d -> d c b a")', lambda x: x.permute(3, 2, 1, 0)),
    ("ellipsis_symbol", 'x.rearrange("b … -> … b")', lambda x: x.permute(1, 2, 3, 0)),
    ("identity", 'x.rearrange("...->...")', lambda x: x),
    ("long_names", 'x.rearrange("a aa aa1 a1a1 -> a1a1 (aa1 aa) a")', lambda x: x.permute(3, 2, 1, 0).reshape(6, 12, 2)),
]
for name, src, f in cases:
    s.add(name, src, {"x": x4}, f, grad=("x",))
s.add("split_two_sizes", 'x.rearrange("(a1 a2 a3) b -> b a3 a2 a1", a1=2, a2=2)', {"x": torch.randn(8, 1)},
      lambda x: x.reshape(2, 2, 2, 1).permute(3, 2, 1, 0), grad=("x",))
s.add("size_of_permuted_axis", 'x.rearrange("(a b) c -> c b a", a=2, c=3)', {"x": torch.randn(4, 3)},
      lambda x: x.reshape(2, 2, 3).permute(2, 1, 0), grad=("x",))
s.add("zero_d", 'x.rearrange(" -> ")', {"x": t(3.0)}, lambda x: x, grad=("x",))
s.add("zero_d_unit", 'x.rearrange("-> 1 ()")', {"x": t(3.0)}, lambda x: x.reshape(1, 1), grad=("x",))
s.add("empty", 'x.rearrange("a b -> (b a)")', {"x": torch.zeros(0, 3)}, lambda x: x.T.reshape(-1), grad=("x",))
s.add("non_contiguous", 'x.permute(1, 0).rearrange("a (b c) -> c a b", c=2)', {"x": torch.randn(4, 3)},
      lambda x: x.permute(1, 0).reshape(3, 2, 2).permute(2, 0, 1), grad=("x",))
s.add("int", 'x.rearrange("a b -> b a")', {"x": torch.arange(6, dtype=torch.int32).reshape(2, 3)}, lambda x: x.T)
s.add("formula_keyword", 'x.rearrange(formula="a b -> (b a)")', {"x": torch.randn(2, 3)},
      lambda x: x.T.reshape(-1), grad=("x",))

z = torch.zeros(1, 1, 1, 1, 1)
for name, pat, msg in [
    ("collapsed_ellipsis", "a b c d (...) ->  a b c ... d", "cannot have collapsed ellipsis"),
    ("unbalanced", "a b (c d ... ->  a b c ... d", "bracket mismatch"),
    ("nested", "a (b (c d)) e -> a b c d e", "bracket mismatch"),
    ("not_alphanumeric", "a b* c d ... ->  a b* c ... d", "invalid axis name b*"),
    ("underscore_edge", "_a b c d e -> _a b c d e", "invalid axis name _a"),
    ("digit_name", "a b c d 2 -> a b c d 2", "invalid axis name 2"),
    ("two_arrows", "a b c d ->  a b c d -> a b c d", 'need exactly one "->"'),
    ("no_arrow", "a b c d e", 'need exactly one "->"'),
    ("two_ellipses", "a ... c ... ->  ... a ... c", "name mismatch"),
    ("name_mismatch", "a b c d e -> f b c d e", "name mismatch"),
    ("repeated_name", "a a c d e -> a a c d e", "name mismatch"),
    ("both_collapsed", "(...) -> (...)", "cannot have collapsed ellipsis"),
    ("too_few_axes", "a b c d -> a b c d", "names 4 axes, the tensor has 5"),
]:
    s.error(name, f'x.rearrange("{pat}")', {"x": z}, msg)
y = torch.zeros(8, 1)
s.error("two_unknown_sizes", 'x.rearrange("(a1 a2 a3) b -> b a3 a2 a1", a1=2)', {"x": y}, "reshape")
s.error("sizes_do_not_divide", 'x.rearrange("(a1 a2 a3) b -> b a3 a2 a1", a1=3, a2=2)', {"x": y}, "reshape")
s.error("wrong_size", 'x.rearrange("(a1 a2 a3) b -> b a3 a2 a1", a1=2, a2=2, b=2)', {"x": y},
        "size provided for dimension b incorrect")
s.error("unused_size", 'x.rearrange("(a b c) d -> a b c d", b=2, c=2, e=2)', {"x": y}, "axis e is not used in transform")

# contiguous_backward: the value is x's, the gradient x's gradient.
s.add("contiguous_backward", "(x.contiguous_backward() * 2).sum(axis=0)", {"x": torch.randn(3, 4)},
      lambda x: (x * 2).sum(0), grad=("x",))
s.add("contiguous_backward_view", "x.permute(1, 0).contiguous_backward().exp()", {"x": torch.randn(3, 4)},
      lambda x: x.permute(1, 0).exp(), grad=("x",))
s.add("contiguous_backward_0d", "x.contiguous_backward()", {"x": t(2.0)}, lambda x: x.clone(), grad=("x",))
s.write()
