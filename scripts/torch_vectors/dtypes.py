"""Integer dtypes (issue 10): int8, int16, uint16, uint32, uint64 beside
uint8/int32/int64, with tinygrad's promotion lattice and sum dtypes, idiv,
bitcast, acc_dtype and integer powers. This torch (1.13) has no uint16/32/64:
their expected values are torch's int64 results wrapped to the width, and
the cases are labelled with the unsigned dtype by hand."""

import torch

from common import Suite, arr

s = Suite("dtypes", seed=1)
t = torch.tensor

BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}
TORCH = {"int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
         "uint8": torch.uint8, "bool": torch.bool, "float32": torch.float32, "float16": torch.float16,
         "float64": torch.float64}


def wrap(v, d):
    """v (a Python int) as dtype d holds it."""
    b = BITS[d]
    v &= (1 << b) - 1
    if not d.startswith("u") and v >= 1 << (b - 1):
        v -= 1 << b
    return v


def tens(vals, d, shape=None):
    """A tensor of dtype d as the harness encodes it; unsigned types torch
    lacks travel as int64 and are relabelled."""
    if d in TORCH:
        x = t(vals, dtype=TORCH[d])
        return x if shape is None else x.reshape(shape)
    x = t(vals, dtype=torch.int64)
    x = x if shape is None else x.reshape(shape)
    x.tiny_dtype = d
    return x


def case(name, src, inputs, out, out_dtype=None):
    """A forward-only case: out is a torch tensor (int64 for the unsigned
    types torch lacks, relabelled out_dtype) or a list of them."""
    c = s._new(name, src, inputs)
    for k, v in inputs.items():
        if hasattr(v, "tiny_dtype"):
            c["inputs"][k]["dtype"] = v.tiny_dtype
    if isinstance(out, Raw):
        o = {"dtype": out_dtype, "shape": out.shape, "data": out.vals}
    else:
        o = arr(out)
    if out_dtype is not None:
        o["dtype"] = out_dtype
    c["out"] = [o]
    c["multi"] = False
    s.cases.append(c)


def ints(d, n, lo=None, hi=None):
    b = BITS[d]
    if lo is None:
        lo, hi = (0, (1 << b) - 1) if d.startswith("u") else (-(1 << (b - 1)), (1 << (b - 1)) - 1)
    hi = min(hi, 2**52)  # JSON numbers stay exact (the int64 minimum is)
    vals = torch.randint(max(lo, -2**52), hi + 1, (n,), dtype=torch.int64).tolist()
    ends = [lo, hi, 0, 1, max(lo + 1, -2**52), hi - 1]
    return ends + vals


class Raw:
    """Expected values as Python ints (uint64's do not fit a torch int64)."""

    def __init__(self, vals, shape):
        self.vals, self.shape = vals, shape


def wrapped(vals, d):
    return Raw([wrap(v, d) for v in vals], [len(vals)])


def label(d):
    return None if d in TORCH else d


N = 10
for d in ("int8", "int16", "uint16", "uint32", "uint64", "uint8", "int32", "int64"):
    a, b = ints(d, N), ints(d, N)
    a = [wrap(x, d) for x in a]
    b = [wrap(x, d) for x in b]
    b = [x if x != 0 else 3 for x in b]
    A, B = tens(a, d), tens(b, d)
    ins = {"a": A, "b": B}
    case(f"{d}_add", "a + b", ins, wrapped([x + y for x, y in zip(a, b)], d) if d not in TORCH else A + B, label(d))
    case(f"{d}_sub", "a - b", ins, wrapped([x - y for x, y in zip(a, b)], d) if d not in TORCH else A - B, label(d))
    case(f"{d}_sub_int", "a - b", ins, wrapped([x - y for x, y in zip(a, b)], d), d)
    case(f"{d}_mul", "a * b", ins, wrapped([x * y for x, y in zip(a, b)], d), d)
    case(f"{d}_neg", "-a", {"a": A}, wrapped([-x for x in a], d) if d not in TORCH else -A, label(d))
    case(f"{d}_lt", "a < b", ins, t([x < y for x, y in zip(a, b)]))
    case(f"{d}_eq", "a == b", ins, t([x == y for x, y in zip(a, b)]))
    case(f"{d}_maximum", "a.maximum(b)", ins, wrapped([max(x, y) for x, y in zip(a, b)], d), d)
    case(f"{d}_minimum", "a.minimum(b)", ins, wrapped([min(x, y) for x, y in zip(a, b)], d), d)
    case(f"{d}_max", "a.max()", {"a": A}, Raw([max(a)], []), d)
    case(f"{d}_min", "a.min()", {"a": A}, Raw([min(a)], []), d)
    case(f"{d}_argmin", "a.argmin()", {"a": A}, t(a.index(min(a)), dtype=torch.int32))
    case(f"{d}_argmax", "a.argmax()", {"a": A}, t(a.index(max(a)), dtype=torch.int32))
    # Sums accumulate in tinygrad's sum_acc_dtype and wrap there.
    acc = {"int8": "int32", "int16": "int32", "int32": "int32", "int64": "int64",
           "uint8": "uint32", "uint16": "uint32", "uint32": "uint32", "uint64": "uint64"}[d]
    case(f"{d}_sum", "a.sum()", {"a": A}, Raw([wrap(sum(a), acc)], []), acc)
    case(f"{d}_sum_acc_self", f"a.sum(acc_dtype={d})", {"a": A}, Raw([wrap(sum(a), d)], []), d)
    case(f"{d}_sum_axis", "a.reshape(2, 8).sum(axis=1)", {"a": A},
         Raw([wrap(sum(a[:8]), acc), wrap(sum(a[8:]), acc)], [2]), acc)
    # idiv truncates toward zero; // floors; % takes the sign of the divisor.
    def tdiv(x, y):
        q = abs(x) // abs(y)
        return q if (x >= 0) == (y > 0) else -q
    case(f"{d}_idiv", "a.idiv(b)", ins, wrapped([tdiv(x, y) for x, y in zip(a, b)], d), d)
    case(f"{d}_floordiv", "a // b", ins, wrapped([x // y for x, y in zip(a, b)], d), d)
    case(f"{d}_mod", "a % b", ins, wrapped([x % y for x, y in zip(a, b)], d), d)
    case(f"{d}_float", "a.float()", {"a": A}, t(a, dtype=torch.float64).float())
    f = t([-3.7, -1.0, 0.0, 2.9, 100.5, 1000.2])
    case(f"float_to_{d}", f"f.cast({d})", {"f": f}, wrapped([int(v) for v in f.tolist()], d), d)
    case(f"{d}_0d", "a[3] + a[4]", {"a": A}, Raw([wrap(a[3] + a[4], d)], []), d)
    case(f"{d}_empty", "a[:0] * 2", {"a": A}, t([], dtype=torch.int64), d)
    case(f"{d}_permuted", "a.reshape(2, 8).T.contiguous()", {"a": A},
         Raw([a[i * 8 + j] for j in range(8) for i in range(2)], [8, 2]), d)

# Promotion: tinygrad's lattice.
PROMO = [("int8", "uint8", "int16"), ("uint8", "int16", "int16"), ("uint16", "int16", "int32"),
         ("uint16", "uint32", "uint32"), ("uint32", "int32", "int64"), ("uint32", "int8", "int64"),
         ("uint64", "uint8", "uint64"), ("int8", "int64", "int64"), ("bool", "int8", "int8"),
         ("bool", "uint16", "uint16"), ("uint32", "float16", "float16"), ("int16", "float32", "float32")]
for da, db, want in PROMO:
    a = [1, 2, 3] if da != "bool" else [True, False, True]
    b = [4, 5, 6]
    A, B = tens(a, da), tens(b, db)
    vals = [int(x) + y for x, y in zip(a, b)]
    out = t(vals, dtype=TORCH[want]) if want in TORCH else t(vals, dtype=torch.int64)
    case(f"promote_{da}_{db}", "a + b", {"a": A, "b": B}, out, label(want))
case("promote_int64_uint64", "a + b", {"a": tens([1, 2], "int64"), "b": tens([3, 4], "uint64")},
     t([4.0, 6.0], dtype=torch.float16))
case("promote_scalar_int", "a + 300", {"a": tens([1, 2], "int8")}, t([wrap(301, "int8"), wrap(302, "int8")], dtype=torch.int8))
case("promote_scalar_float", "a * 1.5", {"a": tens([1, 2], "uint16")}, t([1.5, 3.0]))
case("uint8_sum_is_uint32", "a.sum()", {"a": tens([200, 200, 255], "uint8")}, t(655), "uint32")
case("bool_sum_int32", "a.sum()", {"a": t([True, True, False])}, t(2, dtype=torch.int32))
# tinygrad's mean sums in the sum dtype: uint32 wraps before the division.
case("mean_uint32", "a.mean()", {"a": tens([4000000000, 4000000000], "uint32")}, t(float(wrap(8000000000, "uint32") // 2)))
case("mean_int8", "a.mean()", {"a": tens([100, 100, 101], "int8")}, t(301 / 3))

# acc_dtype.
x8 = tens([100, 100, 100], "int8")
case("sum_acc_int8_wraps", "a.sum(acc_dtype=int8)", {"a": x8}, t(wrap(300, "int8"), dtype=torch.int8))
case("sum_acc_int64", "a.sum(acc_dtype=int64)", {"a": x8}, t(300))
case("sum_acc_float16", "a.sum(acc_dtype=float16)", {"a": t([0.5, 0.25, 1.0])}, t(1.75, dtype=torch.float16))
case("prod_acc_float64", "a.prod(acc_dtype=float64)", {"a": t([1.5, 2.0, 3.0])}, t(9.0, dtype=torch.float64))
case("prod_acc_int32", "a.prod(axis=0, acc_dtype=int32)", {"a": tens([200, 100, 3], "uint8")}, t(60000, dtype=torch.int32))
case("prod_uint8_wraps", "a.prod()", {"a": tens([200, 100, 3], "uint8")}, t(wrap(60000, "uint8"), dtype=torch.uint8))

# Integer powers in integers: 11**7 exact, overflow wraps as int32 multiplication.
case("pow_11_7", "a ** b", {"a": t(11, dtype=torch.int32), "b": t(7, dtype=torch.int32)}, t(19487171, dtype=torch.int32))
ia = t([2, -3, 5, 7, 3, 10, -2], dtype=torch.int32)
ib = t([10, 5, 0, 3, 20, 9, 31], dtype=torch.int32)
case("pow_int_tensor", "a ** b", {"a": ia, "b": ib}, t([wrap(x ** y, "int32") for x, y in zip(ia.tolist(), ib.tolist())], dtype=torch.int32))
case("pow_int_scalar_20", "a ** 20", {"a": ia}, t([wrap(x ** 20, "int32") for x in ia.tolist()], dtype=torch.int32))
case("pow_int64", "a ** b", {"a": tens([3, -7], "int64"), "b": tens([39, 21], "int64")}, t([wrap(3**39, "int64"), wrap((-7)**21, "int64")]))
case("pow_uint8", "a ** b", {"a": tens([3, 7], "uint8"), "b": tens([5, 3], "uint8")}, t([wrap(3**5, "uint8"), wrap(7**3, "uint8")], dtype=torch.uint8))
# tinygrad's negative integer exponents: the reciprocal truncated.
case("pow_int_negative", "a ** b", {"a": t([2, 1, -1, -1, 5], dtype=torch.int32), "b": t([-1, -3, -3, -2, -2], dtype=torch.int32)},
     t([0, 1, -1, 1, 0], dtype=torch.int32))
case("pow_int_negative_scalar", "a ** -1", {"a": t([2, 1, -1], dtype=torch.int32)}, t([0, 1, -1], dtype=torch.int32))
# A positive number to an int tensor power is float32, as tinygrad's.
case("rpow_2_int", "2 ** a", {"a": t([0, 1, 5, 10, -1], dtype=torch.int32)}, t([1.0, 2.0, 32.0, 1024.0, 0.5]))
case("rpow_float_int", "0.5 ** a", {"a": t([0, 1, 3], dtype=torch.int32)}, t([1.0, 0.5, 0.125]))
case("int_pow_float", "a ** 0.5", {"a": t([4, 9], dtype=torch.int32)}, t([2.0, 3.0]))
case("pow_int_float_tensor", "a ** b", {"a": t([4, 9], dtype=torch.int32), "b": t([0.5, 2.0])}, t([2.0, 81.0]))
# Gradient of a positive base to a float power (the float path).
s.add("rpow_2_float_grad", "2 ** x", {"x": t([-1.0, 0.0, 2.5])}, lambda x: 2 ** x, grad=("x",))

# idiv on floats and bools; reverse.
case("idiv_float", "a.idiv(b)", {"a": t([-7.5, 7.5, 3.0]), "b": t([2.0, 2.0, -2.0])}, t([-3.0, 3.0, -1.0]))
case("idiv_reverse", "a.idiv(7, reverse=true)", {"a": t([2, -2, 3], dtype=torch.int32)}, t([3, -3, 2], dtype=torch.int32))
case("idiv_by_zero", "a.idiv(b)", {"a": t([5, -5], dtype=torch.int32), "b": t([0, 0], dtype=torch.int32)}, t([0, 0], dtype=torch.int32))

# bitcast: same size reinterprets; a size change moves bytes along the last axis.
fb = t([1.0, -2.5, 0.0, float("inf")])
case("bitcast_f32_i32", "a.bitcast(int32)", {"a": fb}, fb.view(torch.int32))
case("bitcast_i32_f32", "a.bitcast(float32)", {"a": fb.view(torch.int32)}, fb)
ib2 = t([[1, 258], [-1, 65536]], dtype=torch.int32)
case("bitcast_i32_u8", "a.bitcast(uint8)", {"a": ib2}, ib2.view(torch.uint8))
case("bitcast_u8_i16", "a.bitcast(int16)", {"a": t([1, 2, 255, 255], dtype=torch.uint8)}, t([1, 2, 255, 255], dtype=torch.uint8).view(torch.int16))
case("bitcast_f16_i16", "a.bitcast(int16)", {"a": t([1.0, -2.0], dtype=torch.float16)}, t([1.0, -2.0], dtype=torch.float16).view(torch.int16))
case("bitcast_i32_u32", "a.bitcast(uint32)", {"a": t([-1, 5], dtype=torch.int32)}, t([2**32 - 1, 5]), "uint32")
case("bitcast_permuted", "a.T.bitcast(int32)", {"a": fb.reshape(2, 2)}, fb.reshape(2, 2).T.contiguous().view(torch.int32))
s.error("bitcast_bad_split", "a.bitcast(int64)", {"a": t([1, 2, 3], dtype=torch.int32)}, "does not split")
s.error("bitcast_0d", "a.bitcast(int16)", {"a": t(1, dtype=torch.int32)}, "0-d")
s.error("bitcast_grad", "a.requires_grad_().bitcast(int32)", {"a": t([1.0])}, "bitcast")
# matmul accumulates in the sum dtype and gives the operands' dtype, as
# tinygrad's dot: uint8 @ uint8 wraps to uint8, bool @ bool is bool.
m8a = torch.randint(0, 256, (3, 5), dtype=torch.int64)
m8b = torch.randint(0, 256, (5, 2), dtype=torch.int64)
case("matmul_uint8", "a @ b", {"a": m8a.to(torch.uint8), "b": m8b.to(torch.uint8)}, ((m8a @ m8b) % 256).to(torch.uint8))
case("matmul_int8", "a @ b", {"a": (m8a - 128).to(torch.int8), "b": (m8b - 128).to(torch.int8)},
     Raw([wrap(v, "int8") for v in ((m8a - 128) @ (m8b - 128)).reshape(-1).tolist()], [3, 2]), "int8")
ba, bb = torch.rand(2, 3) > 0.5, torch.rand(3, 4) > 0.5
case("matmul_bool", "a @ b", {"a": ba, "b": bb}, (ba.long() @ bb.long()) > 0)
case("matmul_uint8_int32", "a @ b", {"a": m8a.to(torch.uint8), "b": m8b.to(torch.int32)}, (m8a @ m8b).to(torch.int32))
s.write()
