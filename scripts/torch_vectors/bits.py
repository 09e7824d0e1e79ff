"""The bitwise operators & | ^ ~ << >> on tensors and tinygrad's methods
bitwise_and, bitwise_or, xor (bitwise_xor), bitwise_not, lshift, rshift.
tinygrad's rules: the receiver is bool or an integer; shifts need an
unsigned dtype and a non-negative int count, and wrap in that dtype."""

import torch

from common import Suite

s = Suite("bits")
i32, i64, u8 = torch.int32, torch.int64, torch.uint8


def ints(*shape, dtype=i32, lo=-100, hi=100):
    return torch.randint(lo, hi, shape, dtype=dtype)


a, b = ints(3, 4), ints(3, 4)
s.add("and", "a & b", {"a": a, "b": b}, lambda a, b: a & b)
s.add("or", "a | b", {"a": a, "b": b}, lambda a, b: a | b)
s.add("xor", "a ^ b", {"a": a, "b": b}, lambda a, b: a ^ b)
s.add("and_broadcast", "a & b", {"a": ints(3, 4), "b": ints(4)}, lambda a, b: a & b)
s.add("or_permuted", "a.permute(1, 0) | b", {"a": ints(3, 4), "b": ints(4, 3)},
      lambda a, b: a.permute(1, 0) | b)
s.add("xor_sliced", "a[::2, 1:] ^ b", {"a": ints(4, 4), "b": ints(2, 3)}, lambda a, b: a[::2, 1:] ^ b)
s.add("and_scalar", "a & 12", {"a": ints(5)}, lambda a: a & 12)
s.add("rand_scalar", "12 & a", {"a": ints(5)}, lambda a: 12 & a)
s.add("ror_scalar", "3 | a", {"a": ints(5)}, lambda a: 3 | a)
s.add("rxor_scalar", "-1 ^ a", {"a": ints(5)}, lambda a: -1 ^ a)
s.add("promote_int64", "a | b", {"a": ints(4), "b": ints(4, dtype=i64, lo=-2**40, hi=2**40)},
      lambda a, b: a | b)
s.add("bool_and", "p & q", {"p": torch.rand(6) > 0.5, "q": torch.rand(6) > 0.5}, lambda p, q: p & q)
s.add("bool_or", "p | q", {"p": torch.rand(6) > 0.5, "q": torch.rand(6) > 0.5}, lambda p, q: p | q)
s.add("bool_xor", "p ^ q", {"p": torch.rand(6) > 0.5, "q": torch.rand(6) > 0.5}, lambda p, q: p ^ q)
s.add("bool_int", "p & a", {"p": torch.rand(6) > 0.5, "a": ints(6)}, lambda p, a: p & a)
s.add("mask_from_compare", "(x > -0.5) & (x < 0.5)", {"x": torch.randn(3, 5)},
      lambda x: (x > -0.5) & (x < 0.5))
s.add("mask_where", "((x > 0) | (y > 0)).where(x, y)", {"x": torch.randn(7), "y": torch.randn(7)},
      lambda x, y: torch.where((x > 0) | (y > 0), x, y), grad=("x", "y"))
s.add("uint8_and", "u & v", {"u": ints(8, dtype=u8, lo=0, hi=256), "v": ints(8, dtype=u8, lo=0, hi=256)},
      lambda u, v: u & v)
s.add("zero_d", "a & 6", {"a": torch.tensor(13, dtype=i32)}, lambda a: a & 6)
s.add("empty", "a | b", {"a": ints(0, 3), "b": ints(3)}, lambda a, b: a | b)

s.add("not_int", "~a", {"a": ints(2, 3)}, lambda a: ~a)
s.add("not_bool", "~p", {"p": torch.rand(5) > 0.5}, lambda p: ~p)
s.add("not_uint8", "~u", {"u": ints(6, dtype=u8, lo=0, hi=256)}, lambda u: ~u)
s.add("not_int64", "~a", {"a": ints(4, dtype=i64, lo=-2**40, hi=2**40)}, lambda a: ~a)
s.add("not_zero_d", "~a", {"a": torch.tensor(0, dtype=i32)}, lambda a: ~a)
s.add("neg_not", "-~a", {"a": ints(5)}, lambda a: -~a)

s.add("m_bitwise_and", "a.bitwise_and(b)", {"a": a, "b": b}, lambda a, b: a.bitwise_and(b))
s.add("m_bitwise_or", "a.bitwise_or(b)", {"a": a, "b": b}, lambda a, b: a.bitwise_or(b))
s.add("m_xor", "a.xor(b)", {"a": a, "b": b}, lambda a, b: a.bitwise_xor(b))
s.add("m_bitwise_xor", "a.bitwise_xor(7)", {"a": a}, lambda a: a.bitwise_xor(7))
s.add("m_bitwise_not", "a.bitwise_not()", {"a": a}, lambda a: a.bitwise_not())
s.add("m_and_reverse", "a.bitwise_and(5, reverse=true)", {"a": a}, lambda a: 5 & a)

u = ints(2, 5, dtype=u8, lo=0, hi=256)
s.add("lshift", "u << 2", {"u": u}, lambda u: u << 2)
s.add("rshift", "u >> 3", {"u": u}, lambda u: u >> 3)
s.add("lshift_wrap", "u << 7", {"u": u}, lambda u: u << 7)
s.add("shift_zero", "(u << 0) + (u >> 0)", {"u": u}, lambda u: (u << 0) + (u >> 0))
s.add("lshift_all_out", "u << 8", {"u": u}, lambda u: torch.zeros_like(u))
s.add("m_lshift", "u.lshift(1)", {"u": u}, lambda u: u << 1)
s.add("m_rshift", "u.rshift(x=4)", {"u": u}, lambda u: u >> 4)
s.add("shift_permuted", "u.permute(1, 0) >> 1", {"u": u}, lambda u: u.permute(1, 0) >> 1)

# The other integer dtypes: signed ones take & | ^ ~, unsigned ones shift too
# and wrap in their width (torch computes uint16/uint32 in int64 here).
i8, i16 = torch.int8, torch.int16
s.add("int8_ops", "(a & 7) + (a | -128) + (a ^ 5) + ~a", {"a": ints(6, dtype=i8, lo=-128, hi=128)},
      lambda a: (a & 7) + (a | -128) + (a ^ 5) + ~a)
s.add("int16_not", "~a & 255", {"a": ints(6, dtype=i16, lo=-32768, hi=32768)}, lambda a: ~a & 255)
for name, bits in (("uint16", 16), ("uint32", 32)):
    if not hasattr(torch, name):
        continue
    d = getattr(torch, name)
    w = torch.randint(0, 2**bits - 1, (6,), dtype=torch.int64)
    mask = 2**bits - 1
    s.add(f"{name}_lshift", "w.cast(%s) << 3" % name, {"w": w}, lambda w, d=d, m=mask: ((w << 3) & m).to(d))
    s.add(f"{name}_rshift", "w.cast(%s) >> 5" % name, {"w": w}, lambda w, d=d: (w >> 5).to(d))
    s.add(f"{name}_not", "~w.cast(%s)" % name, {"w": w}, lambda w, d=d, m=mask: (w ^ m).to(d))
    s.add(f"{name}_xor", "w.cast(%s) ^ 12345" % name, {"w": w}, lambda w, d=d: (w ^ 12345).to(d))

s.error("float_and", "x & 1", {"x": torch.randn(3)}, "not supported")
s.error("float_not", "~x", {"x": torch.randn(3)}, "not supported")
s.error("float_operand", "a & x", {"a": ints(3), "x": torch.randn(3)}, "not supported")
s.error("signed_shift", "a << 2", {"a": ints(3)}, "unsigned")
s.error("negative_shift", "u >> -1", {"u": u}, "negative shift")
s.error("tensor_shift", "u << u", {"u": u}, "shifts by an int")
s.error("reverse_shift", "1 << u", {"u": u}, "unsupported operand")
s.error("and_broadcast_error", "a & b", {"a": ints(3), "b": ints(4)}, "cannot broadcast")
s.write()
