package tensor

import (
	"math"

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
			s[i] = halfBits(float32(v))
		}
	case Float32:
		s := b.Float32s()
		for i, v := range vals {
			s[i] = float32(v)
		}
	case Float64:
		copy(b.Float64s(), vals)
	}
}

// writeInts stores integer vals into b exactly where b's dtype can hold them.
func writeInts(b *devices.Buffer, vals []int64) {
	switch b.DType {
	case Int64:
		copy(b.Int64s(), vals)
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
		for i, v := range b.Bytes() {
			out[i] = float64(v)
		}
	case Int32:
		for i, v := range b.Int32s() {
			out[i] = float64(v)
		}
	case Int64:
		for i, v := range b.Int64s() {
			out[i] = float64(v)
		}
	case Float16:
		for i, v := range b.Uint16s() {
			out[i] = float64(halfToFloat(v))
		}
	case Float32:
		for i, v := range b.Float32s() {
			out[i] = float64(v)
		}
	case Float64:
		copy(out, b.Float64s())
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
	default:
		for i, v := range readFloats(b) {
			out[i] = int64(v)
		}
	}
	return out
}

// halfBits converts f to IEEE half precision, rounding to nearest even.
func halfBits(f float32) uint16 {
	x := math.Float32bits(f)
	sign := uint16(x>>16) & 0x8000
	exp := int((x >> 23) & 0xff)
	man := x & 0x7fffff
	switch {
	case exp == 0xff: // inf or nan
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp-127 > 15:
		return sign | 0x7c00
	case exp-127 >= -14: // normal half
		e := uint32(exp - 127 + 15)
		m := man >> 13
		rest := man & 0x1fff
		h := e<<10 | m
		if rest > 0x1000 || (rest == 0x1000 && m&1 == 1) {
			h++ // may carry into the exponent, which is still right
		}
		return sign | uint16(h)
	case exp-127 >= -25: // subnormal half
		man |= 0x800000
		shift := uint32(-(exp - 127) - 14 + 13)
		m := man >> shift
		rest := man & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rest > half || (rest == half && m&1 == 1) {
			m++
		}
		return sign | uint16(m)
	}
	return sign
}

// halfToFloat converts IEEE half bits to float32.
func halfToFloat(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		f := float32(man) / (1 << 24)
		if sign != 0 {
			return -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | man<<13)
}
