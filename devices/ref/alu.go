package ref

import (
	"encoding/binary"
	"fmt"
	"math"

	"tiny/codegen"
	"tiny/devices"
)

// This file defines the values of a running kernel and what every ALU op,
// constant, conversion, load and store does to them.

// value is one value of a kernel while it runs. A float is held in f at its
// dtype's precision: float64, or float32 for float32 and float16 (float16 is
// stored as a half but computed in float32, rounded to a half only by a
// CAST or a store). An integer, bool (0 or 1) or index is held in i,
// wrapped to its dtype's width: sign-extended for signed dtypes,
// zero-extended for unsigned ones, a uint64 as its bits.
type value struct {
	f float64
	i int64
}

// round returns f at the precision of float dtype d.
func round(d codegen.DType, f float64) float64 {
	if d == codegen.Float64 {
		return f
	}
	return float64(float32(f))
}

// toHalf rounds f to float32, then to the nearest float16.
func toHalf(f float64) float64 {
	return float64(codegen.HalfToFloat(codegen.Float64ToHalf(f)))
}

// wrap returns i wrapped to the width of integer, bool or index dtype d, as
// two's complement arithmetic does: integers overflow silently.
func wrap(d codegen.DType, i int64) int64 {
	if d == codegen.Bool {
		return b2i(i != 0)
	}
	return codegen.WrapBits(i, d) // int64, uint64 (its bits) and index as they are
}

// unsigned reports whether d's values compare and divide as unsigned.
func unsigned(d codegen.DType) bool { return d.IsUnsigned() || d == codegen.Bool }

// constant returns the value of a CONST (or a DEFINE_ACC's start, or a
// gated LOAD's alternative) Val of dtype d: a float rounded to d's
// precision; an integer wrapped to d's width, values of 2**63 and more
// taken as uint64s (2**64, the float64 nearest uint64's largest, as it).
func constant(v float64, d codegen.DType) value {
	switch {
	case d.IsFloat():
		return value{f: round(d, v)}
	case d == codegen.Bool:
		return value{i: wrap(d, b2i(v != 0))}
	case v >= 1<<64:
		return value{i: wrap(d, -1)} // uint64's largest
	case v >= 1<<63:
		return value{i: wrap(d, int64(uint64(v)))}
	}
	return value{i: wrap(d, int64(v))}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// alu returns op applied to the operands x, y, z, which have dtype from;
// the result has dtype d (Bool for the comparisons). Floats follow IEEE
// 754: NaN propagates through every op but the comparisons (where it is
// unequal to everything, itself included); MAX is NaN if either operand
// is, and +0 over -0; transcendentals are math's, rounded to d. Integers
// wrap; IDIV truncates toward zero, MOD takes the dividend's sign (C's), and
// both give 0 for a divisor of 0 (C leaves it undefined), the most
// negative value divided by -1 is itself and its MOD -1 is 0.
func alu(op codegen.Op, d, from codegen.DType, x, y, z value) value {
	if op == codegen.OpMulAcc && from.IsFloat() { // x*y + z rounded once
		if from == codegen.Float64 {
			return value{f: math.FMA(x.f, y.f, z.f)}
		}
		return value{f: float64(codegen.FMA32(float32(x.f), float32(y.f), float32(z.f)))}
	}
	if op == codegen.OpMulAcc {
		return alu(codegen.OpAdd, d, d, alu(codegen.OpMul, d, d, x, y, value{}), z, value{})
	}
	switch op {
	case codegen.OpCast:
		return cast(x, from, d)
	case codegen.OpWhere:
		if x.i != 0 {
			return y
		}
		return z
	}
	if from.IsFloat() {
		a, b := x.f, y.f
		switch op {
		case codegen.OpCmpLt:
			return value{i: b2i(a < b)}
		case codegen.OpCmpNe:
			return value{i: b2i(a != b)}
		case codegen.OpCmpEq:
			return value{i: b2i(a == b)}
		}
		var r float64
		switch op {
		case codegen.OpNeg:
			r = -a
		case codegen.OpExp2:
			r = math.Exp2(a)
		case codegen.OpLog2:
			r = math.Log2(a)
		case codegen.OpSin:
			r = codegen.Sin(a)
		case codegen.OpSqrt:
			r = math.Sqrt(a)
		case codegen.OpRecip:
			r = 1 / a
		case codegen.OpAdd:
			r = a + b
		case codegen.OpSub:
			r = a - b
		case codegen.OpMul:
			r = a * b
		case codegen.OpDiv:
			r = a / b
		case codegen.OpMod:
			// fmod: exact (so float64's equals float32's), the sign of a.
			r = math.Mod(a, b)
		case codegen.OpMax:
			// The first operand unless the second is larger or NaN.
			r = a
			if a < b || b != b {
				r = b
			}
		default:
			panic(fmt.Sprintf("ref: %s of %s", op, from))
		}
		// An op in float64 rounded once to float32 is the op in float32:
		// float64 carries more than twice float32's precision.
		return value{f: round(d, r)}
	}
	a, b := x.i, y.i
	ua, ub := uint64(a), uint64(b)
	var r int64
	switch op {
	case codegen.OpCmpLt:
		if unsigned(from) {
			return value{i: b2i(ua < ub)}
		}
		return value{i: b2i(a < b)}
	case codegen.OpCmpNe:
		return value{i: b2i(a != b)}
	case codegen.OpCmpEq:
		return value{i: b2i(a == b)}
	case codegen.OpNeg:
		r = -a
	case codegen.OpNot:
		r = b2i(a == 0)
	case codegen.OpAdd:
		r = a + b
	case codegen.OpSub:
		r = a - b
	case codegen.OpMul:
		r = a * b
	case codegen.OpIDiv:
		switch {
		case b == 0:
			r = 0
		case unsigned(from):
			r = int64(ua / ub)
		default:
			r = a / b // Go, unlike C, defines the most negative value / -1
		}
	case codegen.OpMod:
		switch {
		case b == 0:
			r = 0
		case unsigned(from):
			r = int64(ua % ub)
		default:
			r = a % b
		}
	case codegen.OpMax:
		if unsigned(from) && ua < ub || !unsigned(from) && a < b {
			r = b
		} else {
			r = a
		}
	case codegen.OpAnd:
		r = a & b
	case codegen.OpOr:
		r = a | b
	case codegen.OpXor:
		r = a ^ b
	default:
		panic(fmt.Sprintf("ref: %s of %s", op, from))
	}
	return value{i: wrap(d, r)}
}

// cast converts x from dtype from to dtype to. Anything nonzero (NaN
// included) is true. To a float: rounded once to float32 or float64, and to
// float16 by way of float32, then to the nearest half. Float to integer:
// codegen.FloatToInt, truncated toward zero through an int32 for the
// dtypes of 32 bits and fewer but uint32 (so -1.5 as uint8 is 255, and
// NaN, infinities and values past int32's range, which C leaves undefined,
// become -2**31, as NumPy and torch on x86-64 give), through an int64 for
// the others. Integer to integer: wrapped to the width.
func cast(x value, from, to codegen.DType) value {
	switch {
	case from == to:
		return x
	case to == codegen.Bool:
		if from.IsFloat() {
			return value{i: b2i(x.f != 0)}
		}
		return value{i: b2i(x.i != 0)}
	case to.IsFloat():
		f := x.f
		if !from.IsFloat() {
			switch {
			case to == codegen.Float64 && unsigned(from):
				f = float64(uint64(x.i))
			case to == codegen.Float64:
				f = float64(x.i)
			case unsigned(from): // one rounding, straight to float32
				f = float64(float32(uint64(x.i)))
			default:
				f = float64(float32(x.i))
			}
		}
		if to == codegen.Float16 {
			return value{f: toHalf(f)}
		}
		return value{f: round(to, f)}
	case from.IsFloat():
		return value{i: codegen.FloatToInt(x.f, to)}
	}
	return value{i: wrap(to, x.i)}
}

// memory is what a LOAD, STORE or ACCUM names: a kernel buffer or an
// accumulator array.
type memory struct {
	buf *devices.Buffer
	acc []value
}

var ne = binary.NativeEndian

// load returns element i. A buffer's element becomes a value of its dtype: a
// half is widened to float32 exactly, a bool byte is true when nonzero.
func (m memory) load(i int64) (value, error) {
	if m.buf == nil {
		if i < 0 || i >= int64(len(m.acc)) {
			return value{}, fmt.Errorf("accumulator %d outside [0, %d)", i, len(m.acc))
		}
		return m.acc[i], nil
	}
	b := m.buf
	if i < 0 || i >= int64(b.Len) {
		return value{}, fmt.Errorf("element %d of a %s buffer of %d", i, b.DType, b.Len)
	}
	e := b.Data[int(i)*b.DType.Size():]
	switch b.DType {
	case codegen.Float16:
		return value{f: float64(codegen.HalfToFloat(ne.Uint16(e)))}, nil
	case codegen.Float32:
		return value{f: float64(math.Float32frombits(ne.Uint32(e)))}, nil
	case codegen.Float64:
		return value{f: math.Float64frombits(ne.Uint64(e))}, nil
	case codegen.Bool, codegen.Int8, codegen.Uint8:
		return value{i: wrap(b.DType, int64(e[0]))}, nil
	case codegen.Int16, codegen.Uint16:
		return value{i: wrap(b.DType, int64(ne.Uint16(e)))}, nil
	case codegen.Int32, codegen.Uint32:
		return value{i: wrap(b.DType, int64(ne.Uint32(e)))}, nil
	}
	return value{i: int64(ne.Uint64(e))}, nil // int64, uint64
}

// store writes v as element i. A buffer's element gets v in its dtype: a
// float16 rounded to the nearest half, an integer's low bytes.
func (m memory) store(i int64, v value) error {
	if m.buf == nil {
		if i < 0 || i >= int64(len(m.acc)) {
			return fmt.Errorf("accumulator %d outside [0, %d)", i, len(m.acc))
		}
		m.acc[i] = v
		return nil
	}
	b := m.buf
	if i < 0 || i >= int64(b.Len) {
		return fmt.Errorf("element %d of a %s buffer of %d", i, b.DType, b.Len)
	}
	e := b.Data[int(i)*b.DType.Size():]
	switch b.DType {
	case codegen.Float16:
		ne.PutUint16(e, codegen.Float64ToHalf(v.f))
	case codegen.Float32:
		ne.PutUint32(e, math.Float32bits(float32(v.f)))
	case codegen.Float64:
		ne.PutUint64(e, math.Float64bits(v.f))
	case codegen.Bool, codegen.Int8, codegen.Uint8:
		e[0] = uint8(v.i)
	case codegen.Int16, codegen.Uint16:
		ne.PutUint16(e, uint16(v.i))
	case codegen.Int32, codegen.Uint32:
		ne.PutUint32(e, uint32(v.i))
	default:
		ne.PutUint64(e, uint64(v.i))
	}
	return nil
}
