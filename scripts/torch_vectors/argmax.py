"""argmax and argmin edge cases against torch: ties, -0 and +0, NaN of
either sign, infinities, float16, small ints and bools, inner and flattened
axes, keepdim and permuted inputs."""

import math

import torch

from common import Suite

torch.manual_seed(14)
s = Suite("argmax")
r = torch.randn
i32 = torch.int32
nan, inf = math.nan, math.inf


def f(*v):
    return torch.tensor(v, dtype=torch.float32)


s.add("rows", "x.argmax(axis=1)", {"x": r(5, 300)}, lambda x: x.argmax(1).int())
s.add("rows_min", "x.argmin(axis=1)", {"x": r(5, 300)}, lambda x: x.argmin(1).int())
s.add("cols_keepdim", "x.argmax(axis=0, keepdim=true)", {"x": r(70, 3)}, lambda x: x.argmax(0, keepdim=True).int())
s.add("inner_axis", "x.argmax(1)", {"x": r(2, 40, 3)}, lambda x: x.argmax(1).int())
s.add("flat", "x.argmax()", {"x": r(4, 9)}, lambda x: x.argmax().int())
s.add("permuted", "x.T.argmax(1)", {"x": r(30, 4)}, lambda x: x.T.argmax(1).int())
s.add("ties_first", "x.argmax()", {"x": f(1, 3, 2, 3, 3)}, lambda x: torch.tensor(1, dtype=i32))
s.add("zero_signs", "x.argmax()", {"x": f(-1, -0.0, 0.0, -2)}, lambda x: torch.tensor(1, dtype=i32))
s.add("zero_signs_min", "x.argmin()", {"x": f(1, 0.0, -0.0, 2)}, lambda x: torch.tensor(1, dtype=i32))
s.add("negatives", "x.argmax()", {"x": f(-5, -1.5, -3, -1.25, -7)}, lambda x: x.argmax().int())
s.add("negatives_min", "x.argmin()", {"x": f(-5, -1.5, -7, -1.25, -7)}, lambda x: x.argmin().int())
s.add("inf", "x.argmax()", {"x": f(1, inf, 3, inf)}, lambda x: torch.tensor(1, dtype=i32))
s.add("neg_inf_only", "x.argmax()", {"x": f(-inf, -inf)}, lambda x: torch.tensor(0, dtype=i32))
s.add("nan_first", "x.argmax(1)", {"x": torch.tensor([[1, nan, inf, nan], [2, 3, 1, 0]])},
      lambda x: torch.tensor([1, 1], dtype=i32))
s.add("neg_nan", "x.argmax()", {"x": -f(1, 2, nan, 5)}, lambda x: torch.tensor(2, dtype=i32))
s.add("nan_min", "x.argmin()", {"x": f(1, -inf, nan, -5)}, lambda x: torch.tensor(2, dtype=i32))
s.add("float16", "x.argmax(1)", {"x": r(3, 50).half()}, lambda x: x.float().argmax(1).int())
s.add("int8", "x.argmax(0)", {"x": torch.tensor([-128, 127, 5, 127], dtype=torch.int8)},
      lambda x: torch.tensor(1, dtype=i32))
s.add("int32_extremes", "x.argmax()", {"x": torch.tensor([-2**31, 2**31 - 1, 0], dtype=i32)},
      lambda x: torch.tensor(1, dtype=i32))
s.add("int32_min_only", "x.argmin()", {"x": torch.tensor([3, -2**31, -2**31], dtype=i32)},
      lambda x: torch.tensor(1, dtype=i32))
s.add("bool", "(x > 0).argmax(1)", {"x": r(3, 20)}, lambda x: (x > 0).int().argmax(1).int())
s.write()
