"""What issue 10 found wrong or differing from tinygrad in tiny's existing
ops: each case failed before its fix."""

import torch

from common import Suite

s = Suite("math_fixes")
t = torch.tensor
r = torch.randn

# eye(n, m) with n > m+1 repeated the diagonal.
for n, m in ((5, 2), (4, 1), (2, 5), (3, 3), (7, 3), (1, 4), (0, 3)):
    s.add(f"eye_{n}_{m}", f"eye({n}, {m})", {}, lambda n=n, m=m: torch.eye(n, m))

# x**y: NaN forward for a negative base and a fractional exponent, with a
# NaN gradient (it was 0); integral exponents keep the sign.
xb = t([-2.0, -2.0, -0.5, 0.5, 2.0, 3.0])
yb = t([0.5, 3.0, -1.5, 2.5, -0.5, 2.0])
s.add("pow_negative_base", "x ** y", {"x": xb, "y": yb}, lambda x, y: x ** y, grad=("x",))
s.add("pow_negative_base_grad_y", "x ** y", {"x": xb[3:], "y": yb[3:]}, lambda x, y: x ** y, grad=("x", "y"))
s.add("pow_negative_scalar", "x ** 0.5", {"x": t([-4.0, 4.0])}, lambda x: x ** 0.5, grad=("x",))

# x**y at x = 0 and at y = 0: no NaN gradient; e's gradient is ln|x| at y = 0.
s.add("pow_zero_base", "x ** y", {"x": t([0.0, 0.0, 2.0, 3.0, 0.0]), "y": t([2.0, 0.0, 0.0, 1.5, 3.0])},
      lambda x, y: x ** y, grad=("x", "y"))
# torch's pow gradient everywhere: inf at 0**0.5, -inf at 0**-1, NaN for a
# negative base in e's gradient.
s.add("pow_torch_edges", "x ** y", {"x": t([0.0, 0.0, 0.0, 2.0, -2.0, 0.0, -2.0, 3.0, -1.5]),
                                    "y": t([2.0, 0.5, 0.0, 0.0, 3.0, -1.0, 0.5, 1.5, -2.0])},
      lambda x, y: x ** y, grad=("x", "y"))
s.add("pow_broadcast", "x ** y", {"x": torch.rand(2, 3) + 0.5, "y": r(3)}, lambda x, y: x ** y, grad=("x", "y"))
s.add("rpow_negative_base", "(-2.0) ** y", {"y": t([1.0, 2.0, 0.5])}, lambda y: (-2.0) ** y, grad=("y",))

# Half-integer scalar exponents go through sqrt (tinygrad's rewrite): the
# gradient at 0 is sqrt's.
for e in ("0.5", "1.5", "-0.5", "2.5", "-1.5", "3.5", "16.5"):
    xs = t([0.0, 4.0, -1.0, 2.25]) if not e.startswith("-") else t([4.0, -1.0, 2.25])
    s.add(f"pow_scalar_{e}", f"x ** {e}", {"x": xs}, lambda x, e=float(e): x ** e, grad=("x",))
s.add("pow_scalar_general", "x ** 1.3", {"x": t([0.5, 4.0, -1.0, 2.25])}, lambda x: x ** 1.3, grad=("x",))

# min/argmin of int32 with INT32_MIN present (-x wrapped).
imin = t([[3, -2147483648, 7], [2147483647, 0, -2147483648]], dtype=torch.int32)
s.add("min_int32_min", "x.min()", {"x": imin}, lambda x: x.min())
s.add("min_int32_min_axis", "x.min(axis=1)", {"x": imin}, lambda x: x.amin(1))
s.add("argmin_int32_min", "x.argmin(axis=1)", {"x": imin}, lambda x: x.argmin(1).int())
s.add("argmin_int32_min_flat", "x.argmin()", {"x": imin}, lambda x: x.argmin().int())
s.add("max_int32_min", "x.max(axis=0)", {"x": imin}, lambda x: x.amax(0))
i64 = t([5, -9223372036854775807 - 1, 3], dtype=torch.int64)
s.add("min_int64_min", "x.min()", {"x": i64}, lambda x: x.min())
s.add("argmin_int64_min", "x.argmin()", {"x": i64}, lambda x: x.argmin().int())

# mean over an empty axis is NaN.
s.add("mean_empty_axis", "x.mean(axis=0)", {"x": torch.zeros(0, 3)}, lambda x: x.mean(0))
s.add("mean_empty_all", "x.mean()", {"x": torch.zeros(2, 0)}, lambda x: x.mean())
s.add("mean_empty_int", "x.mean(axis=1)", {"x": torch.zeros(2, 0, dtype=torch.int32)},
      lambda x: x.float().mean(1))
s.add("mean_nonempty_keeps", "x.mean(axis=1)", {"x": torch.zeros(0, 3)}, lambda x: x.mean(1))

# A 0-d tensor takes axis 0 and -1.
z = t(2.5)
for op, fn in (("sum", lambda x, a: x.sum(a)), ("prod", lambda x, a: x.prod(a)),
               ("softmax", lambda x, a: x.softmax(a)), ("log_softmax", lambda x, a: x.log_softmax(a)),
               ("max", lambda x, a: x.amax(a)), ("mean", lambda x, a: x.mean(a))):
    for a in (0, -1):
        s.add(f"{op}_0d_axis{a}", f"x.{op}({a})", {"x": z}, lambda x, a=a, fn=fn: fn(x, a), grad=("x",))
s.add("cumsum_0d_axis0", "x.cumsum(0)", {"x": z}, lambda x: x.cumsum(0), grad=("x",))
s.add("cumsum_0d_axis-1", "x.cumsum(-1)", {"x": z}, lambda x: x.cumsum(-1), grad=("x",))
s.add("sum_0d_int_axis0", "x.sum(0)", {"x": t(3, dtype=torch.int32)}, lambda x: x.sum(0).int())
s.error("cumsum_0d_axis1", "x.cumsum(axis=1)", {"x": z}, "out of range")
s.error("sum_0d_axis1", "x.sum(1)", {"x": z}, "out of range")
s.error("softmax_0d_axis-2", "x.softmax(-2)", {"x": z}, "out of range")
s.error("linspace_bool", "linspace(0, 1, 5, dtype=bool)", {}, "linspace: dtype bool is not supported")

# .T swaps the first two axes, as tinygrad's (transpose() with its defaults).
x3 = r(2, 3, 4)
s.add("T_3d", "x.T", {"x": x3}, lambda x: x.transpose(0, 1), grad=("x",))
s.add("T_2d", "x.T", {"x": r(2, 3)}, lambda x: x.T, grad=("x",))
s.add("T_4d", "x.T.contiguous()", {"x": r(2, 3, 1, 2)}, lambda x: x.transpose(0, 1).contiguous(), grad=("x",))
s.error("T_1d", "x.T", {"x": r(3)}, "T: needs a tensor of rank 2")

# .item() of shape (1,) and (1, 1) is the scalar.
s.add("item_shape1", "tensor(x.item())", {"x": t([2.5])}, lambda x: t(x.item()))
s.add("item_shape11", "tensor(x.item())", {"x": t([[7]], dtype=torch.int32)}, lambda x: t(x.item(), dtype=torch.int32))
s.write()
