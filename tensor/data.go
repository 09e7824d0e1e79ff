package tensor

import (
	"math"

	"tiny/codegen"
	"tiny/devices"
)

// This file moves values between Go slices and device buffers, converting
// as a cast does: float to int truncates toward zero, anything nonzero is
// true, float16 is IEEE half with round-to-nearest-even.

// writeFloats stores vals into b, converting to b's dtype: to an integer
// dtype as a cast of a float does (codegen.FloatToInt).
func writeFloats(b *devices.Buffer, vals []float64) {
	switch d := b.DType; {
	case d == Bool:
		s := b.Bytes()
		for i, v := range vals {
			s[i] = uint8(b2f(v != 0))
		}
	case d == Float16:
		s := b.Uint16s()
		for i, v := range vals {
			s[i] = codegen.Float64ToHalf(v)
		}
	case d == Float32:
		s := b.Float32s()
		for i, v := range vals {
			s[i] = float32(v)
		}
	case d == Float64:
		copy(b.Float64s(), vals)
	default:
		ints := make([]int64, len(vals))
		for i, v := range vals {
			ints[i] = codegen.FloatToInt(v, d)
		}
		writeInts(b, ints)
	}
}

// intElem is the element types of the integer dtypes.
type intElem interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64
}

// putLow stores the low bits of each of vals into s: wrapped to T's width.
func putLow[T intElem](s []T, vals []int64) {
	for i, v := range vals {
		s[i] = T(v)
	}
}

// getAll writes s into out as float64s.
func getAll[T intElem | ~float32](out []float64, s []T) {
	for i, v := range s {
		out[i] = float64(v)
	}
}

// wrapTo returns the value of integer dtype d that constant v becomes:
// an integral v that int64 (or uint64) holds wrapped to d's width, as the
// integer arithmetic that made it wraps; anything else (a fraction, NaN,
// an infinity, past 64 bits) converted as a cast of a float
// (codegen.FloatToInt).
func wrapTo(v float64, d DType) float64 {
	var bits int64
	switch {
	case v != math.Trunc(v) || !(v >= -1<<63 && v < 1<<64):
		bits = codegen.FloatToInt(v, d)
	case v >= 1<<63:
		bits = int64(uint64(v))
	default:
		bits = int64(v)
	}
	if d == Uint64 {
		return float64(uint64(bits))
	}
	return float64(codegen.WrapBits(bits, d))
}

// writeInts stores integer vals into b exactly where b's dtype can hold them.
func writeInts(b *devices.Buffer, vals []int64) {
	switch b.DType {
	case Int8:
		putLow(devices.Elems[int8](b), vals)
	case Uint8:
		putLow(b.Bytes(), vals)
	case Int16:
		putLow(devices.Elems[int16](b), vals)
	case Uint16:
		putLow(devices.Elems[uint16](b), vals)
	case Int32:
		putLow(b.Int32s(), vals)
	case Uint32:
		putLow(devices.Elems[uint32](b), vals)
	case Int64:
		copy(b.Int64s(), vals)
	case Uint64:
		putLow(devices.Elems[uint64](b), vals) // the bits: exact past 2**53, and past 2**63 from FromData
	default:
		f := make([]float64, len(vals))
		for i, v := range vals {
			f[i] = float64(v)
		}
		writeFloats(b, f)
	}
}

// readFloats returns b's values as float64s (int64 beyond 2**53 rounds).
func readFloats(b *devices.Buffer) []float64 {
	out := make([]float64, b.Len)
	switch b.DType {
	case Bool, Uint8:
		getAll(out, b.Bytes())
	case Int32:
		getAll(out, b.Int32s())
	case Int64:
		getAll(out, b.Int64s())
	case Float16:
		for i, v := range b.Uint16s() {
			out[i] = float64(codegen.HalfToFloat(v))
		}
	case Float32:
		getAll(out, b.Float32s())
	case Float64:
		copy(out, b.Float64s())
	case Int8:
		getAll(out, devices.Elems[int8](b))
	case Int16:
		getAll(out, devices.Elems[int16](b))
	case Uint16:
		getAll(out, devices.Elems[uint16](b))
	case Uint32:
		getAll(out, devices.Elems[uint32](b))
	case Uint64:
		getAll(out, devices.Elems[uint64](b))
	}
	return out
}

// readInts returns b's values as int64s; floats truncate toward zero.
func readInts(b *devices.Buffer) []int64 {
	out := make([]int64, b.Len)
	switch b.DType {
	case Int32:
		for i, v := range b.Int32s() {
			out[i] = int64(v)
		}
	case Int64:
		copy(out, b.Int64s())
	case Uint64:
		for i, v := range devices.Elems[uint64](b) {
			out[i] = int64(v)
		}
	default:
		for i, v := range readFloats(b) {
			out[i] = int64(v)
		}
	}
	return out
}
