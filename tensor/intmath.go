package tensor

import (
	"math"

	"tiny/codegen"
	"tiny/devices"
)

// Integer division, bit casts and integer powers (issue 10's dtypes part).

// Idiv returns t / y rounded toward zero (C's integer division, tinygrad's
// idiv); division by zero gives 0 for ints. Floats divide and truncate;
// bools divide as int32.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Idiv(y any) *Tensor { return t.idiv(y, false) }

// RIdiv returns y idiv t.
func (t *Tensor) RIdiv(y any) *Tensor { return t.idiv(y, true) }

func (t *Tensor) idiv(y any, reverse bool) *Tensor {
	a, b := t.broadcasted(y, reverse)
	if a.n.dtype.IsFloat() {
		return alu(codegen.OpDiv, a.n.dtype, a, b).Trunc()
	}
	if a.n.dtype == Bool {
		a, b = a.Cast(Int32), b.Cast(Int32)
	}
	return alu(codegen.OpIDiv, a.n.dtype, a, b)
}

// Bitcast returns t's bytes read as dtype d. When d's size differs, the
// last axis takes the bytes: it grows or shrinks by the ratio of the sizes,
// which must divide its length in bytes (as tinygrad's). It realizes t and
// copies its bytes; no gradient flows through it. It panics with a *Error
// for a tensor that requires grad, a 0-d tensor with a size change, or an
// axis that does not split.
func (t *Tensor) Bitcast(d DType) *Tensor {
	checkDType("bitcast", d)
	if t.n.requiresGrad {
		fail("bitcast: cannot backpropagate through a bitcast (the tensor requires grad)")
	}
	if d == t.n.dtype {
		return t
	}
	os, ns := t.n.dtype.Size(), d.Size()
	shp := t.Shape()
	if os != ns {
		if len(shp) == 0 {
			fail("bitcast: a 0-d %s tensor cannot become %s (the sizes differ)", t.n.dtype, d)
		}
		last := len(shp) - 1
		if shp[last]*os%ns != 0 {
			fail("bitcast: a last axis of %d %s values does not split into %s values", shp[last], t.n.dtype, d)
		}
		shp[last] = shp[last] * os / ns
	}
	var raw []byte
	t.withData(func(b *devices.Buffer) { b.Sync(); raw = append([]byte(nil), b.Data[:b.Len*os]...) })
	nb := alloc("bitcast", d, len(raw)/ns)
	copy(nb.Data, raw)
	if d == Bool {
		for i, x := range nb.Data[:nb.Len] {
			nb.Data[i] = uint8(b2f(x != 0))
		}
	}
	return &Tensor{newBuffer(t.n.eng, nb, shp)}
}

// intPowTensor returns x**e for integer tensors of one shape and dtype,
// exactly in the integer dtype: square-and-multiply over the bits of e. A
// negative exponent gives 1/x**-e truncated: 1 for x = 1, ±1 for x = -1,
// 0 otherwise (x = 0 gives 0, as tinygrad's rounding of inf does not).
func intPowTensor(x, e *Tensor) *Tensor {
	bits := 8*e.n.dtype.Size() - 1
	if e.n.dtype.IsUnsigned() {
		bits++
	}
	neg := e.Lt(0)
	k := neg.Where(e.Neg(), e) // |e|; the minimum wraps, and its bits still count
	acc := x.OnesLike()
	sq := x
	for i := 0; i < bits; i++ {
		odd := k.Mod(2).Ne(0)
		acc = odd.Where(acc.Mul(sq), acc)
		k = k.Idiv(2)
		if i+1 < bits {
			sq = sq.Mul(sq)
		}
	}
	one, minusOne := x.Eq(1), x.Eq(-1)
	odd := e.Mod(2).Ne(0)
	small := one.Where(1, minusOne.Where(odd.Where(-1, 1), 0)).Cast(x.n.dtype)
	return neg.Where(small, acc)
}

// powFloat reports whether y ** t (reverse, y a positive scalar) computes
// in floats as tinygrad's does: e**(t*ln y) for any dtype of t.
func powFloat(y any, reverse bool) (float64, bool) {
	if _, ok := y.(*Tensor); ok || !reverse {
		return 0, false
	}
	v, _ := scalarOf(y)
	return v, v > 0 && !math.IsInf(v, 0)
}
