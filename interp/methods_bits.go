package interp

import "tiny/tensor"

// This file registers tinygrad's bitwise tensor methods. The operators
// & | ^ ~ << >> reach the same tensor functions (tensor_value.go, ops.go).

func init() {
	addMethods("tensor", map[string]methodFn{
		"bitwise_and": bitwiseMethod((*tensor.Tensor).BitwiseAnd),
		"bitwise_or":  bitwiseMethod((*tensor.Tensor).BitwiseOr),
		"xor":         bitwiseMethod((*tensor.Tensor).BitwiseXor),
		"bitwise_xor": bitwiseMethod((*tensor.Tensor).BitwiseXor),
		"bitwise_not": unaryMethod((*tensor.Tensor).BitwiseNot),
		"lshift":      shiftMethod((*tensor.Tensor).Lshift),
		"rshift":      shiftMethod((*tensor.Tensor).Rshift),
	})
}

// bitwiseMethod makes bitwise_and(x, reverse=false) and its kin. The ops
// commute, so reverse (tinygrad's x & t) only checks its argument.
func bitwiseMethod(f func(t *tensor.Tensor, y any) *tensor.Tensor) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		var y Value
		var reverse bool
		it.unpack(c, "x", &y, "reverse?", &reverse)
		return tv(f(recvT(r), it.operand(c, y)))
	}
}

// shiftMethod makes lshift(x) and rshift(x): x is an int.
func shiftMethod(f func(t *tensor.Tensor, n int64) *tensor.Tensor) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		var n int64
		it.unpack(c, "x", &n)
		return tv(f(recvT(r), n))
	}
}
