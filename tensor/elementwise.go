package tensor

import (
	"fmt"
	"math"
	"slices"

	"tiny/codegen"
)

// Binary ops take a *Tensor or a Go scalar (int, int64, int32, uint64, float64,
// float32, bool) as operand. Operands broadcast as in NumPy and promote as in
// tinygrad: bool < uint8 < int32 < int64 < float16 < float32 < float64, except
// that a scalar takes the tensor's dtype when the tensor is float or both are
// integers; otherwise a float scalar is float32, an int one int32 and a bool
// one bool. Every binary op panics with a *Error when shapes do not broadcast,
// e.g. "cannot broadcast shapes (2, 3) and (4,)", or for an operand of another
// Go type.

// operand turns y into a tensor on t's engine, typed by the scalar rules.
func (t *Tensor) operand(y any) *Tensor {
	if yt, ok := y.(*Tensor); ok {
		return yt
	}
	v, d := scalarOf(y)
	switch {
	case t.n.dtype.IsFloat(), t.n.dtype.IsInt() && (d == Int32 || d == Bool):
		// a bool is a Python int too: beside an int tensor it takes its dtype
		d = t.n.dtype
	}
	if bits, ok := inexactInt(y); ok && (d == Int64 || d == Uint64) {
		// Constants hold a float64: an int64 or uint64 past 2**53 that it
		// would round is a one-element buffer instead, exact.
		return t.n.eng.FromInts([]int64{bits}, []int{}, d)
	}
	return t.n.eng.Scalar(v, d)
}

// inexactInt returns the bits of an int64 or uint64 scalar that float64
// does not hold exactly.
func inexactInt(y any) (int64, bool) {
	switch v := y.(type) {
	case int64:
		return v, v != int64(float64(v)) || float64(v) >= 1<<63
	case uint64:
		f := float64(v)
		return int64(v), f >= 1<<64 || v != uint64(f)
	}
	return 0, false
}

// scalarOf returns a Go scalar's value and its dtype as a Python value's.
func scalarOf(y any) (float64, DType) {
	switch v := y.(type) {
	case int:
		return float64(v), Int32
	case int64:
		return float64(v), Int32
	case int32:
		return float64(v), Int32
	case uint64:
		// A Python int past int64: float64 rounds 2**64-1 up to 2**64,
		// which a uint64 constant reads as 2**64-1.
		return float64(v), Int32
	case float64:
		return v, Float32
	case float32:
		return float64(v), Float32
	case bool:
		return b2f(v), Bool
	}
	panic(&Error{Msg: fmt.Sprintf("cannot use %T as a tensor operand", y)})
}

// BroadcastShape returns the NumPy broadcast of shapes a and b, or a *Error
// naming both.
func BroadcastShape(a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	pa, pb := padLeft(a, n), padLeft(b, n)
	out := make([]int, n)
	for i := range out {
		switch {
		case pa[i] == pb[i] || pb[i] == 1:
			out[i] = pa[i]
		case pa[i] == 1:
			out[i] = pb[i]
		default:
			return nil, &Error{Msg: fmt.Sprintf("cannot broadcast shapes %s and %s", FormatShape(a), FormatShape(b))}
		}
	}
	return out, nil
}

// broadcastTo returns t reshaped and expanded to shp (already checked).
func (t *Tensor) broadcastTo(shp []int) *Tensor {
	if slices.Equal(t.n.shape, shp) {
		return t
	}
	return &Tensor{t.n.reshape(padLeft(t.n.shape, len(shp))).expand(shp)}
}

// broadcasted returns t and y made into tensors of one shape and dtype.
func (t *Tensor) broadcasted(y any, reverse bool) (*Tensor, *Tensor) {
	a, b := t, t.operand(y)
	if reverse {
		a, b = b, a
	}
	d := codegen.Promote(a.n.dtype, b.n.dtype)
	a, b = a.Cast(d), b.Cast(d)
	shp, err := BroadcastShape(a.n.shape, b.n.shape)
	if err != nil {
		panic(err)
	}
	return a.broadcastTo(shp), b.broadcastTo(shp)
}

// alu applies op to operands of one shape, giving dtype d.
func alu(op codegen.Op, d DType, srcs ...*Tensor) *Tensor {
	ns := make([]*lazy, len(srcs))
	for i, s := range srcs {
		ns[i] = s.n
	}
	return &Tensor{elementwise(op, d, srcs[0].n.shape, ns...)}
}

func (t *Tensor) binary(op codegen.Op, y any, reverse bool) *Tensor {
	a, b := t.broadcasted(y, reverse)
	d := a.n.dtype
	if op.IsCompare() {
		d = Bool
	}
	if r := fold(op, a, b); r != nil {
		return r
	}
	if a.n.dtype == Bool {
		switch op {
		case codegen.OpSub:
			fail("sub: not supported for bool tensors (use xor)")
		case codegen.OpAdd:
			op = codegen.OpOr
		case codegen.OpMul:
			op = codegen.OpAnd
		}
	}
	return alu(op, d, a, b)
}

// constValue returns the value of an unpadded constant node.
func constValue(n *lazy) (float64, bool) {
	if b := n.baseOf(); b.kind == kConst && (n.kind != kView || !masked(n.st)) {
		return b.val, true
	}
	return 0, false
}

// fold simplifies an op with a constant operand as tinygrad's lazy graph
// does: x+0, x-0, x*1 are x, 0-x is -x, x*0 is 0. It returns nil when
// nothing folds.
func fold(op codegen.Op, a, b *Tensor) *Tensor {
	av, aok := constValue(a.n)
	bv, bok := constValue(b.n)
	switch {
	case op == codegen.OpSub && a.n.dtype == Bool:
		return nil
	case op == codegen.OpAdd && bok && bv == 0, op == codegen.OpSub && bok && bv == 0:
		return a
	case op == codegen.OpAdd && aok && av == 0:
		return b
	case op == codegen.OpSub && aok && av == 0 && a.n.dtype != Bool:
		return b.Neg()
	case op == codegen.OpMul && bok && bv == 1:
		return a
	case op == codegen.OpMul && aok && av == 1:
		return b
	case op == codegen.OpMul && (aok && av == 0 || bok && bv == 0):
		return a.ZerosLike()
	}
	return nil
}

// Add returns t + y.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Add(y any) *Tensor { return t.binary(codegen.OpAdd, y, false) }

// Sub returns t - y.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Sub(y any) *Tensor { return t.binary(codegen.OpSub, y, false) }

// RSub returns y - t.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) RSub(y any) *Tensor { return t.binary(codegen.OpSub, y, true) }

// Mul returns t * y.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Mul(y any) *Tensor { return t.binary(codegen.OpMul, y, false) }

// Div returns t / y, true division: integer operands give float32.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Div(y any) *Tensor { return t.div(y, false) }

// RDiv returns y / t.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) RDiv(y any) *Tensor { return t.div(y, true) }

func (t *Tensor) div(y any, reverse bool) *Tensor {
	a, b := t.broadcasted(y, reverse)
	if !a.n.dtype.IsFloat() {
		a, b = a.Cast(Float32), b.Cast(Float32)
	}
	return alu(codegen.OpDiv, a.n.dtype, a, b)
}

// FloorDiv returns t // y: the floor of the quotient, as Python's // (for
// floats torch's floor_divide: -5.0 // inf is -1.0, see floatFloorDiv).
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) FloorDiv(y any) *Tensor { return t.floorDiv(y, false) }

// RFloorDiv returns y // t.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) RFloorDiv(y any) *Tensor { return t.floorDiv(y, true) }

func (t *Tensor) floorDiv(y any, reverse bool) *Tensor {
	a, b := t.broadcasted(y, reverse)
	if a.n.dtype.IsFloat() {
		return floatFloorDiv(a, b)
	}
	if a.n.dtype == Bool {
		a, b = a.Cast(Int32), b.Cast(Int32)
	}
	// C division truncates; step down when the signs differ and it was inexact
	// (never for unsigned dtypes, whose quotient is the floor already).
	q := alu(codegen.OpIDiv, a.n.dtype, a, b)
	if isUnsigned(a.n.dtype) {
		return q
	}
	r := alu(codegen.OpMod, a.n.dtype, a, b)
	adjust := r.Ne(0).And(r.Lt(0).Ne(b.Lt(0)))
	return adjust.Where(q.Sub(1), q)
}

// Mod returns t % y with the sign of y, as Python's % and torch's
// remainder: for floats the exact fmod, plus y where it is nonzero and its
// sign differs from y's (so -5 % inf is inf, 5 % inf is 5, x % 0 is NaN).
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Mod(y any) *Tensor { return t.mod(y, false) }

// RMod returns y % t.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) RMod(y any) *Tensor { return t.mod(y, true) }

func (t *Tensor) mod(y any, reverse bool) *Tensor {
	a, b := t.broadcasted(y, reverse)
	if a.n.dtype == Bool {
		a, b = a.Cast(Int32), b.Cast(Int32)
	}
	r := alu(codegen.OpMod, a.n.dtype, a, b)
	adjust := r.Ne(0).And(r.Lt(0).Ne(b.Lt(0)))
	out := adjust.Where(r.Add(b), r)
	if !out.n.dtype.IsFloat() {
		return out
	}
	// torch's gradients: 1 for t, -(t // y) for y.
	return withGrad(out, []*Tensor{a, b}, func(g *Tensor) []*Tensor {
		return []*Tensor{g, g.Neg().Mul(floatFloorDiv(a, b))}
	})
}

// floatFloorDiv is Python's and torch's a // b on floats: (a - fmod(a, b))/b
// (exact), one less where the remainder's sign differs from b's, rounded
// to the nearest integer; a/b where b is 0. So -5.0 // inf is -1.0 (floor
// of the quotient would give -0.0) and inf // 2 is NaN.
func floatFloorDiv(a, b *Tensor) *Tensor {
	d := a.n.dtype
	m := alu(codegen.OpMod, d, a, b)
	div := alu(codegen.OpDiv, d, a.Sub(m), b)
	div = m.Ne(0).And(m.Lt(0).Ne(b.Lt(0))).Where(div.Sub(1.0), div)
	fl := div.Floor()
	fl = div.Sub(fl).Gt(0.5).Where(fl.Add(1.0), fl)
	// A zero quotient takes the sign of a/b; b = 0 gives a/b itself.
	q := alu(codegen.OpDiv, d, a, b)
	zero := q.Reciprocal().Lt(0).Where(math.Copysign(0, -1), 0.0) // 1/q < 0: q < 0 or q is -0.0
	return b.Eq(0).Where(q, div.Eq(0).Where(zero, fl))
}

// Lt returns t < y as bool.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Lt(y any) *Tensor { return t.binary(codegen.OpCmpLt, y, false) }

// Gt returns t > y as bool.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Gt(y any) *Tensor { return t.binary(codegen.OpCmpLt, y, true) }

// Le returns t <= y as bool.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Le(y any) *Tensor { return t.Gt(y).Not() }

// Ge returns t >= y as bool.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Ge(y any) *Tensor { return t.Lt(y).Not() }

// Eq returns t == y as bool.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Eq(y any) *Tensor { return t.binary(codegen.OpCmpEq, y, false) }

// Ne returns t != y as bool.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Ne(y any) *Tensor { return t.binary(codegen.OpCmpNe, y, false) }

// And returns t & y: logical for bools, bitwise for ints. It panics with a
// *Error on floats.
func (t *Tensor) And(y any) *Tensor { return t.bitwise(codegen.OpAnd, y) }

// Or returns t | y; see And.
func (t *Tensor) Or(y any) *Tensor { return t.bitwise(codegen.OpOr, y) }

// Xor returns t ^ y; see And.
func (t *Tensor) Xor(y any) *Tensor { return t.bitwise(codegen.OpXor, y) }

func (t *Tensor) bitwise(op codegen.Op, y any) *Tensor {
	a, b := t.broadcasted(y, false)
	if a.n.dtype.IsFloat() {
		fail("%s: not supported for %s", op, a.n.dtype)
	}
	return alu(op, a.n.dtype, a, b)
}

// Not returns the logical not of t (t != 0 for non-bools).
func (t *Tensor) Not() *Tensor {
	return alu(codegen.OpNot, Bool, t.Cast(Bool))
}

// Maximum returns the elementwise maximum of t and y.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Maximum(y any) *Tensor {
	a, b := t.broadcasted(y, false)
	if a.n.dtype == Bool {
		return alu(codegen.OpOr, Bool, a, b)
	}
	return alu(codegen.OpMax, a.n.dtype, a, b)
}

// Minimum returns the elementwise minimum of t and y.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Minimum(y any) *Tensor {
	a, b := t.broadcasted(y, false)
	switch {
	case a.n.dtype == Bool:
		return alu(codegen.OpAnd, Bool, a, b)
	case a.n.dtype.IsFloat():
		// -max(-a, -b): NaN propagates and a tie splits the gradient, as
		// Maximum's.
		return alu(codegen.OpMax, a.n.dtype, a.Neg(), b.Neg()).Neg()
	}
	return b.Lt(a).Where(b, a)
}

// Clip returns t limited to [lo, hi].
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Clip(lo, hi any) *Tensor { return t.Maximum(lo).Minimum(hi) }

// Where returns a where t (as bool) is true and b elsewhere, all three
// broadcast together; a and b promote like a binary op's operands.
func (t *Tensor) Where(a, b any) *Tensor {
	cond := t.Cast(Bool)
	var x, y *Tensor
	at, aok := a.(*Tensor)
	bt, bok := b.(*Tensor)
	switch {
	case aok:
		x, y = at.broadcasted(b, false)
	case bok:
		y, x = bt.broadcasted(a, false)
	default:
		// Two numbers: each takes the dtype it would beside the condition
		// (as tinygrad's where, which broadcasts them against it), then
		// they meet: an int8 condition gives int8 for where(1, 2), a
		// float16 one float16 for where(1.0, 2); a bool one Python's.
		x, y = t.operand(a), t.operand(b)
		d := codegen.Promote(x.n.dtype, y.n.dtype)
		x, y = x.Cast(d), y.Cast(d)
	}
	shp, err := BroadcastShape(cond.n.shape, x.n.shape)
	if err != nil {
		panic(err)
	}
	if shp, err = BroadcastShape(shp, y.n.shape); err != nil {
		panic(err)
	}
	return alu(codegen.OpWhere, x.n.dtype, cond.broadcastTo(shp), x.broadcastTo(shp), y.broadcastTo(shp))
}

// Cast returns t converted to dtype d: floats to ints truncate toward zero,
// anything nonzero becomes true. Casting to t's own dtype returns t.
func (t *Tensor) Cast(d DType) *Tensor {
	checkDType("cast", d)
	if t.n.dtype == d {
		return t
	}
	if b := t.n.baseOf(); b.kind == kConst {
		// A constant is cast when the kernel is built: keep it a constant.
		v := b.val
		if b.dtype.IsFloat() && (d.IsInt() || d == codegen.Index) {
			v = float64(codegen.FloatToInt(v, d)) // 3e9 as int32 is -2**31, not 3e9 wrapped
		}
		c := newConst(t.n.eng, v, d)
		if t.n.kind != kView {
			return &Tensor{c}
		}
		return &Tensor{&lazy{kind: kView, dtype: d, shape: t.n.shape, base: c, st: t.n.st, eng: t.n.eng}}
	}
	if d == Bool {
		return alu(codegen.OpCmpNe, Bool, t, t.n.eng.Scalar(0, t.n.dtype).broadcastTo(t.n.shape))
	}
	return alu(codegen.OpCast, d, t)
}

// Float returns t cast to float32.
func (t *Tensor) Float() *Tensor { return t.Cast(Float32) }

// Int returns t cast to int32.
func (t *Tensor) Int() *Tensor { return t.Cast(Int32) }

// Bool returns t cast to bool.
func (t *Tensor) Bool() *Tensor { return t.Cast(Bool) }
