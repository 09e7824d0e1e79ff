"""Leftovers of issue 10 (ops): the cases that were still wrong or missing
after the first pass over the op list, each against torch."""

import torch
import torch.nn.functional as F

from common import Suite

s = Suite("ops_left")
t = torch.tensor
r = torch.randn

# hardswish is x*relu6(x+3)/6 in torch: -0.0 left of -3, and -inf*0 = NaN
# at -inf.
s.add("hardswish_tail", "x.hardswish()",
      {"x": t([float("-inf"), -1e30, -300.0, -5.0, -3.5, -3.0, 0.0, 3.0, float("inf"), float("nan")])},
      lambda x: F.hardswish(x))
s.add("hardswish_tail_grad", "x.hardswish()", {"x": t([-1e30, -300.0, -5.0, -3.5, -3.0, 0.0, 3.0, 4.0])},
      lambda x: F.hardswish(x), grad=("x",))
# The sign of the zero left of -3 shows in a reciprocal: -inf as torch's.
s.add("hardswish_negzero", "1 / x.hardswish()", {"x": t([-300.0, -5.0, -3.0, -3.5])}, lambda x: 1 / F.hardswish(x))


# Double backward through a convolution: the gradient of a function of the
# input gradient, with respect to the input and the weight (torch's
# create_graph=True).
def conv_gx(x, w, **kw):
    y = F.conv2d(x, w, **kw)
    return torch.autograd.grad((y * y).sum(), x, create_graph=True)[0]


def conv_gw(x, w, **kw):
    y = F.conv2d(x, w, **kw)
    return torch.autograd.grad((y * y).sum(), w, create_graph=True)[0]


x, w = r(2, 2, 6, 5), r(3, 2, 3, 3)
s.add("conv2d_double_backward_x", "(x.conv2d(w) * x.conv2d(w)).sum().gradient(x)[0]",
      {"x": x, "w": w}, conv_gx, grad=("x", "w"), gatol=1e-3)
s.add("conv2d_double_backward_w", "(x.conv2d(w) * x.conv2d(w)).sum().gradient(w)[0]",
      {"x": x, "w": w}, conv_gw, grad=("x", "w"), gatol=1e-3)
s.add("conv2d_double_backward_strided",
      "(x.conv2d(w, stride=2, padding=1) * x.conv2d(w, stride=2, padding=1)).sum().gradient(x)[0]",
      {"x": x, "w": w}, lambda x, w: conv_gx(x, w, stride=2, padding=1), grad=("x", "w"), gatol=1e-3)

# matmul and dot with acc_dtype= (tinygrad's): the products summed in, and
# given as, that dtype. float16 products whose sum passes 65504 stay finite
# in float32; int8 sums past 127 stay exact in int32.
h = torch.full((3, 512), 200.0, dtype=torch.float16)
s.add("matmul_acc_float32", "x.matmul(y, acc_dtype=float32)", {"x": h, "y": h.T.contiguous()},
      lambda x, y: x.float() @ y.float())
s.add("dot_acc_float32", "x.dot(y, acc_dtype=float32)", {"x": h, "y": h.T.contiguous()},
      lambda x, y: x.float() @ y.float())
s.add("matmul_noacc_float16", "x.matmul(y)", {"x": h, "y": h.T.contiguous()}, lambda x, y: (x.float() @ y.float()).half())
i8 = torch.randint(-11, 12, (4, 30), dtype=torch.int8)
s.add("matmul_acc_int32", "x.matmul(y, acc_dtype=int32)", {"x": i8, "y": i8.T.contiguous()},
      lambda x, y: x.int() @ y.int())
s.add("matmul_reverse_acc", "x.matmul(y, true, int32)", {"x": i8.T.contiguous(), "y": i8},
      lambda x, y: y.int() @ x.int())
s.add("dot_acc_positional", "x.dot(y, int32)", {"x": i8[0], "y": i8[1]}, lambda x, y: x.int() @ y.int())
s.add("matmul_acc_grad", "x.matmul(y, acc_dtype=float32)", {"x": r(3, 4), "y": r(4, 2)},
      lambda x, y: x @ y, grad=("x", "y"))
s.error("matmul_acc_bad", "x.matmul(y, acc_dtype=5)", {"x": r(2, 2), "y": r(2, 2)}, "want a dtype")

# pow at the special values, C's and torch's: x**0 and 1**y are 1 even for
# NaN, 0**NaN is NaN, (-1)**inf is 1, -0.0 keeps its sign under odd powers,
# (-inf)**0.5 is inf; every pair of the grid, tensor ** tensor and with a
# scalar exponent.
P = t([float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0])
s.add("pow_special_grid", "x.reshape(-1, 1) ** y.reshape(1, -1)", {"x": P, "y": P},
      lambda x, y: x.reshape(-1, 1) ** y.reshape(1, -1))
s.add("pow_special_grid_sign", "1 / (x.reshape(-1, 1) ** y.reshape(1, -1))", {"x": P, "y": P},
      lambda x, y: 1 / (x.reshape(-1, 1) ** y.reshape(1, -1)))
for e in ("nan", "0.0", "inf", "-inf", "3.0", "-3.0", "0.5", "2.5", "-1.5", "16.5"):
    v = float(e)
    s.add("pow_special_scalar_" + e.replace("-", "neg").replace(".", "_"), "x ** " + e, {"x": P},
          lambda x, v=v: x ** v)
# Half-integer exponents (x**k * sqrt(x)): the signs of their zeros.
for e in ("2.5", "-1.5"):
    s.add("pow_special_sign_" + e.replace("-", "neg").replace(".", "_"), "1 / (x ** " + e + ")", {"x": P},
          lambda x, v=float(e): 1 / (x ** v))
s.add("rpow_special", "nan ** x", {"x": P}, lambda x: torch.full_like(x, float("nan")) ** x)

# tinygrad's nn helpers on Tensor: layernorm, batchnorm, linear.
def layernorm(x, axis=-1, eps=1e-5):
    y = x - x.mean(axis, keepdim=True)
    return y * ((y * y).mean(axis, keepdim=True) + eps).rsqrt()


x = r(3, 5)
s.add("layernorm", "x.layernorm()", {"x": x}, lambda x: layernorm(x), grad=("x",))
s.add("layernorm_torch", "x.layernorm(axis=(1, 2), eps=1e-3)", {"x": r(2, 3, 4)},
      lambda x: F.layer_norm(x, (3, 4), eps=1e-3), grad=("x",))
s.add("layernorm_permuted", "x.T.layernorm(0)", {"x": x}, lambda x: layernorm(x.T, 0), grad=("x",))
s.add("layernorm_0d", "x.layernorm(axis=())", {"x": r(())}, lambda x: x * 0, grad=("x",))
s.add("layernorm_int", "x.layernorm()", {"x": t([[1, 2, 4]], dtype=torch.int32)}, lambda x: layernorm(x.float()))
bx, bm, bv = r(2, 3, 4, 4), r(3), torch.rand(3) + 0.5
bw, bb = r(3), r(3)
s.add("batchnorm", "x.batchnorm(w, b, m, v)", {"x": bx, "w": bw, "b": bb, "m": bm, "v": bv},
      lambda x, w, b, m, v: (x - m.reshape(1, 3, 1, 1)) * w.reshape(1, 3, 1, 1) * v.reshape(1, 3, 1, 1) + b.reshape(1, 3, 1, 1),
      grad=("x", "w", "b", "m", "v"))
s.add("batchnorm_none", "x.batchnorm(none, none, m, v)", {"x": bx, "m": bm, "v": bv},
      lambda x, m, v: (x - m.reshape(1, 3, 1, 1)) * v.reshape(1, 3, 1, 1), grad=("x", "m", "v"))
s.add("batchnorm_axis", "x.batchnorm(w, b, m, v, axis=-1)", {"x": r(5, 3), "w": bw, "b": bb, "m": bm, "v": bv},
      lambda x, w, b, m, v: (x - m) * w * v + b, grad=("x", "w", "b", "m", "v"))
s.add("batchnorm_vs_torch", "x.batchnorm(w, b, m, (v + 1e-5).rsqrt())", {"x": bx, "w": bw, "b": bb, "m": bm, "v": bv},
      lambda x, w, b, m, v: F.batch_norm(x, m, v, w, b, training=False, eps=1e-5), grad=("x", "w", "b"))
lx, lw, lb = r(4, 3), r(3, 2), r(2)
s.add("linear", "x.linear(w, b)", {"x": lx, "w": lw, "b": lb}, lambda x, w, b: x @ w + b, grad=("x", "w", "b"))
s.add("linear_nobias", "x.linear(w)", {"x": lx, "w": lw}, lambda x, w: x @ w, grad=("x", "w"))
s.add("linear_1d", "x.linear(w, b)", {"x": lx, "w": r(3), "b": r(3)}, lambda x, w, b: x * w + b, grad=("x", "w", "b"))
s.add("linear_torch", "x.linear(w.T, b)", {"x": lx, "w": r(2, 3), "b": lb}, lambda x, w, b: F.linear(x, w, b), grad=("x", "w", "b"))
s.add("half", "x.half()", {"x": t([1.0, 65504.0, 1e5, 1e-8])}, lambda x: x.half())
s.error("linear_shapes", "x.linear(w)", {"x": r(4, 3), "w": r(2, 2)}, "cannot be multiplied")

s.write()
