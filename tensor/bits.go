package tensor

import "strings"

// This file defines tinygrad's bitwise methods: bitwise_and, bitwise_or,
// xor, bitwise_not, lshift and rshift. And, Or and Xor (elementwise.go) do
// the work; these add tinygrad's dtype rules.

// checkBitwise fails unless t is bool or an integer, as tinygrad requires
// of the receiver of a bitwise op.
func (t *Tensor) checkBitwise(op string) {
	if d := t.n.dtype; d != Bool && !d.IsInt() {
		fail("%s: %s is not supported (it needs bool or an integer dtype)", op, d)
	}
}

// BitwiseAnd returns t & y with broadcasting and promotion; t must be bool
// or an integer.
func (t *Tensor) BitwiseAnd(y any) *Tensor {
	t.checkBitwise("bitwise_and")
	return t.And(y)
}

// BitwiseOr returns t | y; see BitwiseAnd.
func (t *Tensor) BitwiseOr(y any) *Tensor {
	t.checkBitwise("bitwise_or")
	return t.Or(y)
}

// BitwiseXor returns t ^ y; see BitwiseAnd.
func (t *Tensor) BitwiseXor(y any) *Tensor {
	t.checkBitwise("xor")
	return t.Xor(y)
}

// BitwiseNot returns ~t: the logical not of a bool tensor, t ^ -1 of an
// integer one.
func (t *Tensor) BitwiseNot() *Tensor {
	t.checkBitwise("bitwise_not")
	if t.n.dtype == Bool {
		return t.Not()
	}
	if bits := 8 * t.n.dtype.Size(); isUnsigned(t.n.dtype) && bits < 64 {
		return t.Xor(int64(1)<<bits - 1) // all ones, without converting -1 to unsigned
	}
	return t.Xor(int64(-1))
}

// isUnsigned reports whether d is an unsigned integer dtype.
func isUnsigned(d DType) bool { return d.IsInt() && strings.HasPrefix(d.String(), "uint") }

// checkShift fails unless t is unsigned and n is not negative, tinygrad's
// conditions for a shift.
func (t *Tensor) checkShift(op string, n int64) {
	if !isUnsigned(t.n.dtype) {
		fail("%s: not supported for %s (it needs an unsigned dtype, as in tinygrad)", op, t.n.dtype)
	}
	if n < 0 {
		fail("%s: negative shift count %d", op, n)
	}
}

// Lshift returns t << n, t * 2**n wrapping in t's unsigned dtype.
func (t *Tensor) Lshift(n int64) *Tensor {
	t.checkShift("lshift", n)
	if n >= int64(8*t.n.dtype.Size()) {
		return t.ZerosLike()
	}
	if n == 63 {
		return t.Mul(int64(1) << 62).Mul(2)
	}
	return t.Mul(int64(1) << n)
}

// Rshift returns t >> n, t // 2**n in t's unsigned dtype.
func (t *Tensor) Rshift(n int64) *Tensor {
	t.checkShift("rshift", n)
	if n >= int64(8*t.n.dtype.Size()) {
		return t.ZerosLike()
	}
	if n == 63 {
		return t.FloorDiv(int64(1) << 62).FloorDiv(2)
	}
	return t.FloorDiv(int64(1) << n)
}
