"""Activations and unary math (issue 10): forward and gradient against torch,
at random points, at the edge points of each piecewise function, far in the
tails (where a naive form overflows and its gradient turns NaN), on 0-d,
empty, non-contiguous and broadcast inputs, and with NaN and inf."""

import torch
import torch.nn.functional as F

from common import Suite

s = Suite("math")
r = torch.randn
t = torch.tensor

EDGE = t([-300.0, -100.0, -20.0, -6.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0, 20.0, 100.0, 300.0])
UNIT = t([-1.0, -0.999, -0.7, -0.5, -0.1, 0.0, 0.1, 0.5, 0.7, 0.999, 1.0])
SPECIAL = t([float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1.5])


def gelu_tanh(x):
    return F.gelu(x, approximate="tanh")


# name, tiny source, torch fn, domain of the edge vector, tolerances
OPS = [
    ("elu", "x.elu()", lambda x: F.elu(x), EDGE),
    ("elu_alpha", "x.elu(alpha=0.5)", lambda x: F.elu(x, 0.5), EDGE),
    ("celu", "x.celu()", lambda x: F.celu(x), EDGE),
    ("celu_alpha", "x.celu(2.0)", lambda x: F.celu(x, 2.0), EDGE),
    ("selu", "x.selu()", lambda x: 1.0507 * F.elu(x, 1.67326), EDGE),
    ("softplus", "x.softplus()", lambda x: F.softplus(x), EDGE),
    ("softplus_beta", "x.softplus(beta=2)", lambda x: F.softplus(x, beta=2), EDGE),
    ("softplus_threshold", "x.softplus(beta=0.5, threshold=5)", lambda x: F.softplus(x, beta=0.5, threshold=5), EDGE),
    ("mish", "x.mish()", lambda x: F.mish(x), EDGE),
    ("softsign", "x.softsign()", lambda x: F.softsign(x), EDGE),
    ("hardsigmoid", "x.hardsigmoid()", lambda x: F.hardsigmoid(x), EDGE),
    ("hardswish", "x.hardswish()", lambda x: F.hardswish(x), EDGE),
    ("hardtanh", "x.hardtanh()", lambda x: F.hardtanh(x), EDGE),
    ("hardtanh_bounds", "x.hardtanh(min_val=-3, max_val=6)", lambda x: F.hardtanh(x, -3.0, 6.0), EDGE),
    ("relu6", "x.relu6()", lambda x: F.relu6(x), EDGE),
    ("leakyrelu", "x.leakyrelu()", lambda x: F.leaky_relu(x, 0.01), EDGE),
    ("leakyrelu_slope", "x.leakyrelu(0.2)", lambda x: F.leaky_relu(x, 0.2), EDGE),
    ("quick_gelu", "x.quick_gelu()", lambda x: x * torch.sigmoid(1.702 * x), EDGE),
    ("swish", "x.swish()", lambda x: F.silu(x), EDGE),
    ("silu", "x.silu()", lambda x: F.silu(x), EDGE),
    ("sigmoid", "x.sigmoid()", torch.sigmoid, EDGE),
    ("tanh", "x.tanh()", torch.tanh, EDGE),
    ("gelu", "x.gelu()", gelu_tanh, EDGE),
    ("relu", "x.relu()", torch.relu, EDGE),
    ("abs", "x.abs()", torch.abs, EDGE),
    ("sinh", "x.sinh()", torch.sinh, t([-20.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 20.0])),
    ("cosh", "x.cosh()", torch.cosh, t([-20.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 20.0])),
    ("asin", "x.asin()", torch.asin, UNIT),
    ("acos", "x.acos()", torch.acos, UNIT),
    ("atan", "x.atan()", torch.atan, EDGE),
    ("asinh", "x.asinh()", torch.asinh, EDGE),
    ("acosh", "x.acosh()", torch.acosh, t([1.0, 1.001, 1.5, 2.0, 3.0, 20.0, 300.0, 1e10])),
    ("atanh", "x.atanh()", torch.atanh, UNIT[1:-1]),
    ("erf", "x.erf()", torch.erf, EDGE),
]

for name, src, fn, edge in OPS:
    x = r(3, 4)
    if name in ("asin", "acos", "atanh"):
        x = torch.rand(3, 4) * 1.8 - 0.9
    if name == "acosh":
        x = torch.rand(3, 4) * 5 + 1.1
    s.add(name, src, {"x": x}, fn, grad=("x",))
    s.add(name + "_edges", src, {"x": edge}, fn, grad=("x",))
    s.add(name + "_0d", src, {"x": x[1, 2].clone()}, fn, grad=("x",))
    s.add(name + "_empty", src, {"x": torch.zeros(0, 3)}, fn, grad=("x",))
    # Non-contiguous: a permuted input and a sliced one.
    p = src.replace("x.", "x.T.", 1)
    s.add(name + "_permuted", p, {"x": x.T.contiguous()}, lambda x, fn=fn: fn(x.T), grad=("x",))
    q = src.replace("x.", "x[:, ::2].", 1)
    s.add(name + "_sliced", q, {"x": x}, lambda x, fn=fn: fn(x[:, ::2]), grad=("x",))
    # Special values: forward only (NaN in, NaN out; the infinities).
    if name not in ("sinh", "cosh"):
        s.add(name + "_special", src, {"x": SPECIAL}, fn)

# Broadcast: the op after a broadcasting add, gradients to both operands.
s.add("elu_broadcast", "(x + y).elu()", {"x": r(2, 3), "y": r(3)}, lambda x, y: F.elu(x + y), grad=("x", "y"))
s.add("erf_broadcast", "(x * y).erf()", {"x": r(2, 1), "y": r(3)}, lambda x, y: torch.erf(x * y), grad=("x", "y"))
s.add("hardsigmoid_alpha", "x.hardsigmoid(alpha=0.25, beta=0.25)",
      {"x": t([-5.0, -0.5, 0.0, 0.5, 1.0, 5.0])}, lambda x: torch.clamp(0.25 * x + 0.25, 0, 1), grad=("x",))

# Ints go through float32 as tinygrad's do.
s.add("sinh_int", "x.sinh()", {"x": t([-2, 0, 3], dtype=torch.int32)}, lambda x: torch.sinh(x.float()))
s.add("erf_int", "x.erf()", {"x": t([-2, 0, 3], dtype=torch.int32)}, lambda x: torch.erf(x.float()))

# isnan / isinf give bool.
s.add("isnan", "x.isnan()", {"x": SPECIAL}, torch.isnan)
s.add("isinf", "x.isinf()", {"x": SPECIAL}, torch.isinf)
s.add("isinf_pos", "x.isinf(detect_negative=false)", {"x": SPECIAL}, torch.isposinf)
s.add("isinf_neg", "x.isinf(detect_positive=false)", {"x": SPECIAL}, torch.isneginf)
s.add("isinf_none", "x.isinf(false, false)", {"x": SPECIAL}, lambda x: torch.zeros_like(x, dtype=torch.bool))
s.add("isnan_int", "x.isnan()", {"x": t([1, 2], dtype=torch.int32)}, torch.isnan)
s.add("isinf_int", "x.isinf()", {"x": t([1, 2], dtype=torch.int32)}, torch.isinf)
s.add("isnan_0d", "x.isnan()", {"x": t(float("nan"))}, torch.isnan)

# minimum: a tie splits the gradient as maximum's does; NaN propagates.
a = t([1.0, 2.0, 3.0, -1.0, 0.0])
b = t([1.0, 5.0, 0.0, -1.0, -0.0])
s.add("minimum_ties", "x.minimum(y)", {"x": a, "y": b}, lambda x, y: torch.minimum(x, y), grad=("x", "y"))
s.add("maximum_ties", "x.maximum(y)", {"x": a, "y": b}, lambda x, y: torch.maximum(x, y), grad=("x", "y"))
s.add("minimum_broadcast", "x.minimum(y)", {"x": r(2, 3), "y": r(3)}, lambda x, y: torch.minimum(x, y), grad=("x", "y"))
s.add("minimum_nan", "x.minimum(y)", {"x": t([float("nan"), 1.0]), "y": t([1.0, float("nan")])}, lambda x, y: torch.minimum(x, y))
s.add("minimum_int", "x.minimum(y)", {"x": t([-2147483648, 5, 3], dtype=torch.int32),
                                      "y": t([0, 2147483647, 3], dtype=torch.int32)}, lambda x, y: torch.minimum(x, y))
s.add("minimum_bool", "x.minimum(y)", {"x": t([True, True, False]), "y": t([True, False, False])}, lambda x, y: torch.minimum(x, y))
s.write()
