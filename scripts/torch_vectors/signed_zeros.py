"""Signed zeros, NaN and ties through maximum, minimum, clamp and the
activations built on them: torch keeps the first operand on a tie
(maximum(-0.0, 0.0) is -0.0, clamp(-0.0, min=0) is -0.0, relu(-0.0) is
-0.0), where tinygrad's midpoint at a tie gives 0.0 in places; tiny follows
torch. Every case checks the signs of the result's zeros."""

import math

import torch

from common import Suite

s = Suite("signed_zeros")
t = torch.tensor
F = torch.nn.functional
nan, inf = float("nan"), float("inf")
SPECIAL = [-0.0, 0.0, nan, 1.0, -1.0, inf, -inf, 2.5]



def first_on_ties(op, a, b):
    """The rule tiny follows: NaN if either is, else the larger (smaller),
    else a."""
    if math.isnan(a) or math.isnan(b):
        return nan
    if op == "maximum":
        return b if a < b else a
    return b if b < a else a


def same(u, v):
    return (math.isnan(u) and math.isnan(v)) or (u == v and math.copysign(1, u) == math.copysign(1, v))


# Every pair of special values, gradients to both sides (a tie splits it;
# NaN on either side gives both the whole gradient). Four at a time: from
# 16 float32 (8 float64) elements on, torch's maximum runs vectorized and a tie of
# zeros gives the second operand instead (maximum(-0.0, 0.0) is 0.0 there),
# so its result depends on the tensor's size; clamp and relu keep x at any
# size. The generator checks torch's results against the rule.
for op in ("maximum", "minimum"):
    f = lambda x, y, g=getattr(torch, op): g(x, y)
    for i, a in enumerate(SPECIAL):
        for j in (0, 4):
            ys = SPECIAL[j:j + 4]
            xa, ya = t([a] * len(ys)), t(ys)
            for dt in (torch.float32, torch.float64):
                got = f(xa.to(dt), ya.to(dt)).tolist()
                want = [first_on_ties(op, a, b) for b in ys]
                assert all(same(u, v) for u, v in zip(got, want)), (op, a, got, want)
            s.add(f"{op}_pairs_{i}_{j}", f"x.{op}(y)", {"x": xa, "y": ya}, f, grad=("x", "y"), signed_zeros=True)
            s.add(f"{op}_pairs_{i}_{j}_f64", f"x.{op}(y)", {"x": xa.double(), "y": ya.double()}, f,
                  grad=("x", "y"), signed_zeros=True)
    for c in (0.0, -0.0, 1.0, nan):
        s.add(f"{op}_scalar_{c}", f"x.{op}({c!r})".replace("nan", "nan"), {"x": t(SPECIAL)},
              lambda x, c=c, f=f: f(x, t(c)), grad=("x",), signed_zeros=True)
        # The constant first: a 0-d tensor broadcast against a vector.
        s.add(f"{op}_first_{c}", f"z.{op}(x)", {"z": t(c), "x": t(SPECIAL)},
              lambda z, x, f=f: f(z, x), grad=("x",), signed_zeros=True)
    s.add(f"{op}_broadcast", f"x.{op}(y)", {"x": t([[-0.0], [0.0], [nan]]), "y": t([0.0, -0.0, 1.0])}, f,
          grad=("x", "y"), signed_zeros=True)
    s.add(f"{op}_permuted", f"x.permute(1, 0).{op}(y)", {"x": t([[-0.0, 0.0], [0.0, -0.0]]),
                                                        "y": t([[0.0, 0.0], [-0.0, -0.0]])},
          lambda x, y, f=f: f(x.permute(1, 0), y), grad=("x", "y"), signed_zeros=True)
    s.add(f"{op}_0d", f"x.{op}(y)", {"x": t(-0.0), "y": t(0.0)}, f, grad=("x", "y"), signed_zeros=True)
    s.add(f"{op}_empty", f"x.{op}(y)", {"x": torch.zeros(0, 3), "y": torch.zeros(3)}, f, grad=("x", "y"))
    s.add(f"{op}_int_ties", f"x.{op}(y)", {"x": t([1, -2, 3, -2147483648], dtype=torch.int32),
                                           "y": t([1, 5, -3, -2147483648], dtype=torch.int32)}, f)

# clamp/clip: minimum(maximum(x, lo), hi); x's gradient is 1 where
# lo <= x <= hi (ties included, NaN not), as torch's (tinygrad's clip gives
# 0.5 at a tie).
X = t(SPECIAL + [0.5, 3.0])
for lo, hi in ((0.0, 1.0), (-0.0, 0.0), (0.0, -0.0), (-1.0, 1.0), (2.0, 0.0), (1.0, 1.0), (nan, 1.0), (0.0, nan)):
    s.add(f"clip_{lo}_{hi}", f"x.clip({lo!r}, {hi!r})", {"x": X}, lambda x, lo=lo, hi=hi: x.clamp(lo, hi),
          grad=("x",), signed_zeros=True)
for lo in (0.0, -0.0, 1.0):
    s.add(f"clamp_min_{lo}", f"x.clamp(min_={lo!r})", {"x": X}, lambda x, lo=lo: x.clamp(min=lo), grad=("x",),
          signed_zeros=True)
    s.add(f"clamp_max_{lo}", f"x.clamp(max_={lo!r})", {"x": X}, lambda x, lo=lo: x.clamp(max=lo), grad=("x",),
          signed_zeros=True)
    s.add(f"clip_none_{lo}", f"x.clip(none, {lo!r})", {"x": X}, lambda x, lo=lo: x.clamp(max=lo), grad=("x",),
          signed_zeros=True)
# Tensor bounds: each gets the gradient where it is the result (torch's
# rule, which gives none to either bound where lo == hi > x).
cx = t([-0.0, 0.0, nan, 1.0, -1.0, 2.0, 0.5, 0.5, 1.0, 3.0, 1.0, -5.0, -1.0])
cl = t([0.0, -0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, nan, 2.0, 2.0])
ch = t([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 2.0, 2.0, nan, 1.0])
s.add("clamp_tensors", "x.clamp(lo, hi)", {"x": cx, "lo": cl, "hi": ch}, lambda x, lo, hi: x.clamp(lo, hi),
      grad=("x", "lo", "hi"), signed_zeros=True)
s.add("clamp_tensor_min", "x.clamp(min_=lo)", {"x": cx, "lo": cl}, lambda x, lo: x.clamp(min=lo),
      grad=("x", "lo"), signed_zeros=True)
s.add("clamp_tensor_max", "x.clamp(max_=hi)", {"x": cx, "hi": ch}, lambda x, hi: x.clamp(max=hi),
      grad=("x", "hi"), signed_zeros=True)
s.add("clamp_tensor_broadcast", "x.clip(lo, hi)", {"x": torch.randn(3, 4), "lo": t([-0.5, 0.0, 0.2, -1.0]),
                                                    "hi": t([[0.5], [0.1], [2.0]])},
      lambda x, lo, hi: x.clamp(lo, hi), grad=("x", "lo", "hi"))
s.add("clamp_permuted", "x.permute(1, 0).clip(-0.0, 0.0)", {"x": t([[-0.0, 1.0], [0.0, -1.0], [nan, 0.0]])},
      lambda x: x.permute(1, 0).clamp(-0.0, 0.0), grad=("x",), signed_zeros=True)
s.add("clamp_0d", "x.clip(0.0, 1.0)", {"x": t(-0.0)}, lambda x: x.clamp(0.0, 1.0), grad=("x",), signed_zeros=True)
s.add("clamp_empty", "x.clip(0.0, 1.0)", {"x": torch.zeros(2, 0)}, lambda x: x.clamp(0.0, 1.0), grad=("x",))
s.add("clamp_int", "x.clip(-1, 2)", {"x": t([-3, -1, 0, 2, 5], dtype=torch.int32)}, lambda x: x.clamp(-1, 2))
s.add("clamp_int_float_bound", "x.clip(-0.5, 2.5)", {"x": t([-3, -1, 0, 2, 5], dtype=torch.int32)},
      lambda x: x.float().clamp(-0.5, 2.5))

# Activations at -0.0, 0.0, NaN, the kinks and the infinities, forward and
# gradient (torch's at the kinks: relu's is 0 at 0 and 1 at NaN; hardtanh's
# 0 at the bounds).
A = t([-0.0, 0.0, nan, 1.0, -1.0, 6.0, -3.0, 3.0, inf, -inf, 0.5])
acts = [
    ("relu", "x.relu()", torch.relu),
    ("relu6", "x.relu6()", F.relu6),
    ("hardtanh", "x.hardtanh()", F.hardtanh),
    ("hardtanh_0_1", "x.hardtanh(0.0, 1.0)", lambda x: F.hardtanh(x, 0.0, 1.0)),
    ("leakyrelu", "x.leakyrelu()", F.leaky_relu),
    ("elu", "x.elu()", F.elu),
    ("elu_alpha", "x.elu(0.5)", lambda x: F.elu(x, 0.5)),
    ("celu", "x.celu()", F.celu),
    ("selu", "x.selu()", F.selu),
    ("abs", "x.abs()", torch.abs),
    ("tanh", "x.tanh()", torch.tanh),
    ("hardswish", "x.hardswish()", F.hardswish),
    ("hardsigmoid", "x.hardsigmoid()", F.hardsigmoid),
]
for name, src, f in acts:
    s.add(f"act_{name}", src, {"x": A}, lambda x, f=f: f(x), grad=("x",), signed_zeros=True)
    s.add(f"act_{name}_0d", src, {"x": t(-0.0)}, lambda x, f=f: f(x), grad=("x",), signed_zeros=True)

# Rounding to an integer keeps the sign of a zero result: round(-0.5),
# floor(-0.0), ceil(-0.2) and trunc(-0.7) are -0 in torch (tinygrad's integer
# round trip gives +0). Also sin, atan, asin, erf, sinh, asinh, atanh of -0.
R = t([-0.5, -0.2, -0.0, 0.0, 0.2, 0.5, -0.7, 0.7, -1.5, 1.5, -2.5, 2.5, -1.0, 3.0, float("nan"), float("inf"), float("-inf")])
for name, f in (("round", torch.round), ("floor", torch.floor), ("ceil", torch.ceil), ("trunc", torch.trunc)):
    s.add(f"int_{name}", f"x.{name}()", {"x": R}, lambda x, f=f: f(x), signed_zeros=True)
Z = t([-0.0, 0.0, -1e-30, 1e-30, -0.25, 0.25])
for name, f in (("sin", torch.sin), ("atan", torch.atan), ("asin", torch.asin), ("erf", torch.erf), ("sinh", torch.sinh),
                ("asinh", torch.asinh), ("atanh", torch.atanh), ("tan", torch.tan)):
    s.add(f"odd_{name}", f"x.{name}()", {"x": Z}, lambda x, f=f: f(x), signed_zeros=True)

s.write()
