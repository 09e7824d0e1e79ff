package tensor

import (
	"math"

	"tiny/codegen"
	"tiny/devices"
)

// This file moves values between Go slices and device buffers, converting
// as a cast does: float to int truncates toward zero, anything nonzero is
// true, float16 is IEEE half with round-to-nearest-even.

// writeFloats stores vals into b, converting to b's dtype.
func writeFloats(b *devices.Buffer, vals []float64) {
	switch b.DType {
	case Bool:
		s := b.Bytes()
		for i, v := range vals {
			s[i] = uint8(b2f(v != 0))
		}
	case Uint8:
		s := b.Bytes()
		for i, v := range vals {
			s[i] = uint8(int64(v))
		}
	case Int32:
		s := b.Int32s()
		for i, v := range vals {
			s[i] = int32(int64(v))
		}
	case Int64:
		s := b.Int64s()
		for i, v := range vals {
			s[i] = int64(v)
		}
	case Float16:
		s := b.Uint16s()
		for i, v := range vals {
			s[i] = codegen.Float64ToHalf(v)
		}
	case Float32:
		s := b.Float32s()
		for i, v := range vals {
			s[i] = float32(v)
		}
	case Float64:
		copy(b.Float64s(), vals)
	case Int8:
		putWrapped(devices.Elems[int8](b), vals)
	case Int16:
		putWrapped(devices.Elems[int16](b), vals)
	case Uint16:
		putWrapped(devices.Elems[uint16](b), vals)
	case Uint32:
		putWrapped(devices.Elems[uint32](b), vals)
	case Uint64:
		putWrapped(devices.Elems[uint64](b), vals)
	}
}

// narrowInt is the integer element types beyond the three with buffer
// methods of their own.
type narrowInt interface {
	~int8 | ~int16 | ~uint16 | ~uint32 | ~uint64
}

// wrapInt converts v as a cast to a 64-bit integer does: through int64
// (truncating toward zero, negatives in two's complement), uint64's upper
// half directly, saturating at 2**64 (float64's nearest to uint64's max).
func wrapInt(v float64) uint64 {
	switch {
	case v >= 1<<64:
		return math.MaxUint64
	case v >= 1<<63:
		return uint64(v)
	}
	return uint64(int64(v))
}

// putWrapped stores vals into s wrapped to T's width.
func putWrapped[T narrowInt](s []T, vals []float64) {
	for i, v := range vals {
		s[i] = T(wrapInt(v))
	}
}

// getAll writes s into out as float64s.
func getAll[T narrowInt | ~uint8 | ~int32 | ~int64 | ~float32](out []float64, s []T) {
	for i, v := range s {
		out[i] = float64(v)
	}
}

// wrapTo returns v as an integer dtype d holds it (a cast's result).
func wrapTo(v float64, d DType) float64 {
	u := wrapInt(v)
	switch d {
	case Int8:
		return float64(int8(u))
	case Uint8:
		return float64(uint8(u))
	case Int16:
		return float64(int16(u))
	case Uint16:
		return float64(uint16(u))
	case Int32:
		return float64(int32(u))
	case Uint32:
		return float64(uint32(u))
	case Int64:
		return float64(int64(u))
	}
	return float64(u)
}

// writeInts stores integer vals into b exactly where b's dtype can hold them.
func writeInts(b *devices.Buffer, vals []int64) {
	switch b.DType {
	case Int64:
		copy(b.Int64s(), vals)
	case Uint64:
		s := devices.Elems[uint64](b) // the bits: exact past 2**53, and past 2**63 from FromData
		for i, v := range vals {
			s[i] = uint64(v)
		}
	case Int32:
		s := b.Int32s()
		for i, v := range vals {
			s[i] = int32(v)
		}
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
