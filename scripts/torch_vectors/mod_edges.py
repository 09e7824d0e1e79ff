"""x % y at its edges, as torch's remainder (Python's %): the sign of the
divisor, the exact fmod underneath (1e30 % 3, 7 % 1e-30), infinite
divisors (5 % inf is 5, -5 % inf is inf, 5 % -inf is -inf), zero divisors
and NaN (NaN), signed zeros, and the integer cases; forward and gradient
(1 for x, -floor(x/y) for y)."""

import torch

from common import Suite

s = Suite("mod_edges")
t = torch.tensor
nan, inf = float("nan"), float("inf")
V = [5.0, -5.0, 0.0, -0.0, inf, -inf, nan, 2.5, -2.5, 7.0, 1e30, -1e30]
D = [inf, -inf, 0.0, -0.0, nan, 2.0, -2.0, 3.0, -3.0, 1e-30, 0.75, -1e-30]

for i, a in enumerate(V):
    x, y = t([a] * len(D)), t(D)
    s.add(f"float_{i}", "x % y", {"x": x, "y": y}, lambda x, y: x % y, grad=("x", "y"), signed_zeros=True)
    s.add(f"float64_{i}", "x % y", {"x": x.double(), "y": y.double()}, lambda x, y: x % y, grad=("x", "y"),
          signed_zeros=True)
    s.add(f"floordiv_{i}", "x // y", {"x": x, "y": y}, lambda x, y: x // y, signed_zeros=True)
    s.add(f"floordiv64_{i}", "x // y", {"x": x.double(), "y": y.double()}, lambda x, y: x // y, signed_zeros=True)
# Scalars on either side, broadcasting, views, 0-d and empty.
X = t(V)
for c in ("inf", "-inf", "2.0", "-2.0", "0.0", "3"):
    cv = float(c)
    s.add(f"scalar_{c}", f"x % {c}", {"x": X}, lambda x, cv=cv: x % cv, grad=("x",), signed_zeros=True)
    s.add(f"rscalar_{c}", f"{c} % x", {"x": X}, lambda x, cv=cv: torch.remainder(t(cv), x), grad=("x",),
          signed_zeros=True)
s.add("broadcast", "x % y", {"x": torch.randn(3, 1) * 10, "y": t([inf, -3.0, 0.5, -inf])},
      lambda x, y: x % y, grad=("x", "y"))
s.add("permuted", "x.permute(1, 0) % y", {"x": torch.randn(4, 3) * 10, "y": t([[inf], [-2.0], [0.3]])},
      lambda x, y: x.permute(1, 0) % y, grad=("x", "y"))
s.add("zero_d", "x % y", {"x": t(-5.0), "y": t(inf)}, lambda x, y: x % y, grad=("x", "y"), signed_zeros=True)
s.add("empty", "x % y", {"x": torch.zeros(0, 2), "y": t([inf, 2.0])}, lambda x, y: x % y, grad=("x", "y"))
s.add("float_int_scalar", "x % 3", {"x": t([-7.5, 7.5, -0.0])}, lambda x: x % 3, grad=("x",), signed_zeros=True)

# Integers: the sign of the divisor; the extremes of int32 (not
# INT32_MIN % -1, which stops torch with SIGFPE, nor % 0, a
# ZeroDivisionError in torch).
IV = [5, -5, 7, -7, 0, 1, 2147483647, -2147483648]
ID = [3, -3, 2, -2, 1, 7, 2147483647, -2147483648]
pairs = [(a, b) for a in IV for b in ID]
for dt in (torch.int32, torch.int64):
    name = str(dt).split(".")[1]
    s.add(f"{name}_pairs", "x % y", {"x": t([a for a, _ in pairs], dtype=dt), "y": t([b for _, b in pairs], dtype=dt)},
          lambda x, y: x % y)
    s.add(f"{name}_minus_one", "x % y", {"x": t(IV[:-1], dtype=dt), "y": t([-1] * (len(IV) - 1), dtype=dt)},
          lambda x, y: x % y)
s.add("int8", "x % y", {"x": t([-128, 127, -7, 7, 0], dtype=torch.int8), "y": t([3, -3, 2, -2, 5], dtype=torch.int8)},
      lambda x, y: x % y)
s.add("uint8", "x % y", {"x": t([255, 7, 0, 200], dtype=torch.uint8), "y": t([3, 2, 5, 255], dtype=torch.uint8)},
      lambda x, y: x % y)
s.add("int_scalar", "x % -3", {"x": t([5, -5, 0, 3, -3], dtype=torch.int32)}, lambda x: x % -3)
s.add("int_rscalar", "7 % x", {"x": t([5, -5, 3, -3, 1], dtype=torch.int32)}, lambda x: torch.remainder(t(7, dtype=torch.int32), x))
s.add("int_float_scalar", "x % 2.5", {"x": t([5, -5, 7, -7], dtype=torch.int32)}, lambda x: x % 2.5)
s.add("bool", "x % y", {"x": t([True, False, True]), "y": t([True, True, True])}, lambda x, y: (x.int() % y.int()))

s.write()
