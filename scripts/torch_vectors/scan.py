"""Running sums and maxima along axes long enough for the blocked scan
(tensor/scan.go cuts an axis longer than 8 into blocks of 4, and the block
totals again, level by level): forward and gradients against torch, on
padded last blocks, inner axes, permuted inputs and ints."""

import torch

from common import Suite

torch.manual_seed(13)
s = Suite("scan")
r = torch.randn

s.add("cumsum_65", "x.cumsum()", {"x": r(65)}, lambda x: x.cumsum(0), grad=("x",))
s.add("cumsum_1000_axis1", "x.cumsum(1)", {"x": r(3, 1000)}, lambda x: x.cumsum(1), grad=("x",),
      atol=1e-4, gatol=1e-3)
s.add("cumsum_axis0_inner", "x.cumsum(0)", {"x": r(300, 2, 3)}, lambda x: x.cumsum(0), grad=("x",),
      atol=1e-4, gatol=1e-3)
s.add("cumsum_3000_two_levels", "x.cumsum(-1)", {"x": r(2, 3000)}, lambda x: x.cumsum(-1), grad=("x",),
      atol=1e-3, gatol=1e-3)
s.add("cumsum_permuted", "x.T.cumsum(1)", {"x": r(200, 3)}, lambda x: x.T.cumsum(1), grad=("x",),
      atol=1e-4, gatol=1e-3)
s.add("cumsum_int", "x.cumsum(0)", {"x": torch.randint(-5, 5, (500,), dtype=torch.int32)},
      lambda x: x.cumsum(0).int())
s.add("cumsum_bool", "(x > 0).cumsum(0)", {"x": r(130)}, lambda x: (x > 0).cumsum(0).int())
s.add("cummax_200", "x.cummax(0)", {"x": r(200)}, lambda x: x.cummax(0).values, grad=("x",))
s.add("cummax_1000_axis1", "x.cummax(1)", {"x": r(2, 1000)}, lambda x: x.cummax(1).values, grad=("x",))
s.add("cummax_axis0_inner", "x.cummax(0)", {"x": r(130, 3, 2)}, lambda x: x.cummax(0).values, grad=("x",))
s.add("cummax_axis1_middle", "x.cummax(1)", {"x": r(2, 70, 5)}, lambda x: x.cummax(1).values, grad=("x",))
s.add("cumsum_axis1_middle", "x.cumsum(1)", {"x": r(2, 70, 5)}, lambda x: x.cumsum(1), grad=("x",),
      atol=1e-4, gatol=1e-3)
s.add("cumsum_axis0_wide", "x.cumsum(0)", {"x": r(40, 70)}, lambda x: x.cumsum(0), grad=("x",),
      atol=1e-4, gatol=1e-3)
s.add("cummax_axis0_wide", "x.cummax(0)", {"x": r(20, 3, 32)}, lambda x: x.cummax(0).values, grad=("x",))
s.add("cummax_int_axis0_wide", "x.cummax(0)", {"x": torch.randint(-50, 50, (30, 80), dtype=torch.int32)},
      lambda x: x.cummax(0).values)
s.add("cummax_int_long", "x.cummax(0)", {"x": torch.randint(-2**31, 2**31 - 1, (300,), dtype=torch.int32)},
      lambda x: x.cummax(0).values)
s.add("logcumsumexp_500", "x.logcumsumexp(1)", {"x": r(2, 500) * 10}, lambda x: x.logcumsumexp(1), grad=("x",),
      atol=1e-4, gatol=1e-4)
s.write()
