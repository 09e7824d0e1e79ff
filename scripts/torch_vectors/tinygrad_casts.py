"""Casts where tinygrad and NumPy round once and torch does not: float64 to
float16 goes straight to the nearest half (65519.999 -> 65504), where torch
rounds through float32 first (-> 65520 -> inf). tinygrad's Tensor(...,
dtype=float16) and its C casts round once, so the expected values here are
NumPy's. Cases run on every device, so the C renderer's cast is checked too."""

import numpy as np
import torch

from common import Suite, arr

s = Suite("tinygrad_casts")

vals = [65519.999, -65519.999, 65520.0, 1 + 2.0**-11 + 1e-12, 1 + 2.0**-11, 1 + 2.0**-11 - 1e-12,
        0.1, -3.0e-8, 1e-300, float("inf"), float("nan")]
x = torch.tensor(vals, dtype=torch.float64)


def case(name, src):
    c = s._new(name, src, {"x": x})
    want = torch.from_numpy(np.array(vals, dtype=np.float64).astype(np.float16))
    c["out"] = [arr(want)]
    c["multi"] = False
    s.cases.append(c)


case("f64_to_f16_in_kernel", "(x * 1).cast(float16)")
case("f64_to_f16_contiguous", "x.contiguous().cast(float16)")
case("f64_to_f16_after_reduce", "(x.reshape(11, 1) * ones(11, 2, dtype=float64)).max(axis=1).cast(float16)")
s.write()
