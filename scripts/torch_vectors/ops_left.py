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

s.write()
