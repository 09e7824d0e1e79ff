"""Ops tiny had before the wave-2 ops work: a check of the harness itself and
of their gradients on non-contiguous and broadcast inputs."""

import torch

from common import Suite

s = Suite("basic")
r = torch.randn

s.add("add_broadcast", "x + y", {"x": r(2, 3), "y": r(3)}, lambda x, y: x + y, grad=("x", "y"))
s.add("matmul_T", "x.T @ y", {"x": r(4, 3), "y": r(4, 5)}, lambda x, y: x.T @ y, grad=("x", "y"))
s.add("softmax_axis0", "x.softmax(0)", {"x": r(3, 4)}, lambda x: x.softmax(0), grad=("x",))
s.add("sum_keepdim", "x.sum(axis=1, keepdim=true)", {"x": r(2, 3, 4)},
      lambda x: x.sum(1, keepdim=True), grad=("x",))
s.add("max_ties", "x.max(axis=1)", {"x": torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])},
      lambda x: x.amax(1), grad=("x",))
s.add("int_add", "a + b", {"a": torch.tensor([1, 2, 3], dtype=torch.int32),
                           "b": torch.tensor([10, 20, 30], dtype=torch.int32)}, lambda a, b: a + b)
s.add("relu_scalar", "x.relu()", {"x": torch.tensor(-1.5)}, lambda x: x.relu(), grad=("x",))
s.add("where_bool", "c.where(x, y)", {"c": torch.tensor([True, False]), "x": r(2), "y": r(2)},
      lambda c, x, y: torch.where(c, x, y), grad=("x", "y"))
s.add("empty_sum", "x.sum(axis=0)", {"x": torch.zeros(0, 3)}, lambda x: x.sum(0), grad=("x",))
s.error("broadcast_error", "x + y", {"x": r(2, 3), "y": r(4)}, "cannot broadcast")
s.write()
