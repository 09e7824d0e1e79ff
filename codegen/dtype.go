package codegen

import (
	"fmt"
	"math"
)

// DType is the element type of a buffer or of a value inside a kernel.
// The zero value is Bool.
type DType uint8

// The dtypes tiny computes with, in tinygrad's priority order. Float16 is
// stored as IEEE half and computed in float32, as tinygrad does on CPU
// backends.
const (
	Bool DType = iota
	Int8
	Uint8
	Int16
	Uint16
	Int32
	Uint32
	Int64
	Uint64
	Float16
	Float32
	Float64

	// Index is the dtype of loop variables and index arithmetic inside a
	// lowered Program (a machine int). It is never a buffer's dtype and is
	// not in DTypes.
	Index
)

var dtypeInfo = [...]struct {
	name string
	size int
}{
	Bool:    {"bool", 1},
	Int8:    {"int8", 1},
	Uint8:   {"uint8", 1},
	Int16:   {"int16", 2},
	Uint16:  {"uint16", 2},
	Int32:   {"int32", 4},
	Uint32:  {"uint32", 4},
	Int64:   {"int64", 8},
	Uint64:  {"uint64", 8},
	Float16: {"float16", 2},
	Float32: {"float32", 4},
	Float64: {"float64", 8},
	Index:   {"index", 8},
}

// DTypes lists every dtype in tinygrad's priority order (bool < ints <
// floats).
var DTypes = []DType{Bool, Int8, Uint8, Int16, Uint16, Int32, Uint32, Int64, Uint64, Float16, Float32, Float64}

// String returns the dtype's name as the language spells it ("float32").
func (d DType) String() string {
	if int(d) < len(dtypeInfo) {
		return dtypeInfo[d].name
	}
	return fmt.Sprintf("dtype(%d)", uint8(d))
}

// Size returns the number of bytes one element occupies in a buffer.
func (d DType) Size() int { return dtypeInfo[d].size }

// IsFloat reports whether d is a floating-point dtype.
func (d DType) IsFloat() bool { return d >= Float16 && d <= Float64 }

// IsInt reports whether d is an integer dtype (bool is not).
func (d DType) IsInt() bool { return d >= Int8 && d <= Uint64 }

// IsUnsigned reports whether d is an unsigned integer dtype.
func (d DType) IsUnsigned() bool { return d == Uint8 || d == Uint16 || d == Uint32 || d == Uint64 }

// MinMax returns the smallest and largest values of an integer or bool
// dtype (as float64: uint64's and int64's ends round to powers of two).
func (d DType) MinMax() (lo, hi float64) {
	switch d {
	case Bool:
		return 0, 1
	case Int8:
		return math.MinInt8, math.MaxInt8
	case Uint8:
		return 0, math.MaxUint8
	case Int16:
		return math.MinInt16, math.MaxInt16
	case Uint16:
		return 0, math.MaxUint16
	case Int32:
		return math.MinInt32, math.MaxInt32
	case Uint32:
		return 0, math.MaxUint32
	case Int64:
		return math.MinInt64, math.MaxInt64
	case Uint64:
		return 0, math.MaxUint64
	}
	return math.Inf(-1), math.Inf(1)
}

// ParseDType returns the dtype with the given name.
func ParseDType(name string) (DType, bool) {
	for _, d := range DTypes {
		if d.String() == name {
			return d, true
		}
	}
	return 0, false
}

// promoteUp is tinygrad's promotion lattice: the dtypes each one promotes
// to directly.
var promoteUp = map[DType][]DType{
	Bool: {Int8, Uint8}, Int8: {Int16}, Int16: {Int32}, Int32: {Int64}, Int64: {Float16},
	Uint8: {Int16, Uint16}, Uint16: {Int32, Uint32}, Uint32: {Int64, Uint64}, Uint64: {Float16},
	Float16: {Float32}, Float32: {Float64},
}

// above returns the set of dtypes d promotes to, d included.
func above(d DType) map[DType]bool {
	out := map[DType]bool{d: true}
	for _, u := range promoteUp[d] {
		for x := range above(u) {
			out[x] = true
		}
	}
	return out
}

var promoteTable [Index][Index]DType

func init() {
	for _, a := range DTypes {
		ua := above(a)
		for _, b := range DTypes {
			best := Float64
			for x := range above(b) {
				if ua[x] && x < best {
					best = x
				}
			}
			promoteTable[a][b] = best
		}
	}
}

// Promote returns the dtype both operands of a binary op are cast to, as
// tinygrad's least_upper_dtype: the lowest dtype both promote to in the
// lattice bool -> int8/uint8, int8 -> int16 -> int32 -> int64 -> float16,
// uint8 -> int16/uint16, uint16 -> int32/uint32, uint32 -> int64/uint64,
// uint64 -> float16, float16 -> float32 -> float64. So uint8 and int8 give
// int16, uint32 and int32 give int64, and int64 and uint64 give float16.
func Promote(a, b DType) DType {
	if a >= Index || b >= Index {
		return max(a, b)
	}
	return promoteTable[a][b]
}

// wrapUnsigned returns v converted to the unsigned dtype d, wrapped to its
// width as the CPU device converts: the value every renderer writes as
// d's constant.
func wrapUnsigned(v float64, d DType) uint64 {
	var u uint64
	switch {
	case v >= 1<<64:
		u = math.MaxUint64 // the float64 nearest it is 2**64
	case v >= 1<<63:
		u = uint64(v)
	default:
		u = uint64(int64(v))
	}
	if bits := 8 * d.Size(); bits < 64 {
		u &= 1<<bits - 1
	}
	return u
}

// FloatToInt converts float f to integer dtype d (or index) as NumPy and
// torch do on x86-64, which is what C's casts compile to there (tinygrad's
// CLANG device): truncated toward zero, then
//   - to int8, uint8, int16, uint16 and int32 through an int32: a NaN, an
//     infinity or a value outside int32's range gives int32's smallest,
//     -2**31, whose low bits are kept (so 3e9 as int16 is 0, -3.7 as uint8
//     is 253, 1e30 as int32 is -2147483648);
//   - to int64, uint32 and index through an int64 the same way (-2**63 for
//     what int64 cannot hold), then wrapped to the width;
//   - to uint64 values from 2**63 below 2**64 directly, the rest as int64.
//
// It returns the result's bits as an int64 (uint64's as their two's
// complement). Every device converts this way, and the constants of a
// cast are folded with it.
func FloatToInt(f float64, d DType) int64 {
	t := math.Trunc(f)
	switch d {
	case Int8, Uint8, Int16, Uint16, Int32:
		i := int64(math.MinInt32)
		if t >= math.MinInt32 && t <= math.MaxInt32 {
			i = int64(t)
		}
		return WrapBits(i, d)
	case Uint64:
		if t >= 1<<63 && t < 1<<64 {
			return int64(uint64(t))
		}
	}
	if t >= -1<<63 && t < 1<<63 {
		return WrapBits(int64(t), d)
	}
	return WrapBits(math.MinInt64, d)
}

// WrapBits wraps i to d's width: sign-extended for signed dtypes,
// zero-extended for unsigned ones.
func WrapBits(i int64, d DType) int64 {
	switch d {
	case Int8:
		return int64(int8(i))
	case Uint8:
		return int64(uint8(i))
	case Int16:
		return int64(int16(i))
	case Uint16:
		return int64(uint16(i))
	case Int32:
		return int64(int32(i))
	case Uint32:
		return int64(uint32(i))
	}
	return i
}

// HalfToFloat widens the bits of an IEEE half (float16) to the float32 of
// the same value: exact, as every half is a float32.
func HalfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // infinity or NaN, the payload kept
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
	}
	f := float32(frac) * (1.0 / (1 << 24)) // a subnormal half: frac * 2**-24
	if sign != 0 {
		f = -f
	}
	return f
}

// Float64ToHalf rounds a float64 to the nearest half, ties to even, in one
// rounding as NumPy and torch do: going through float32 with its own
// round-to-nearest would round twice (65519.999 would become 65520 and then
// infinity, not 65504). The float32 step rounds to odd instead, which keeps
// the second rounding exact since float32 has more than 11+2 bits.
func Float64ToHalf(f float64) uint16 {
	t := float32(f)
	if g := float64(t); g != f && !math.IsInf(g, 0) && !math.IsNaN(f) {
		b := math.Float32bits(t)
		if math.Abs(g) > math.Abs(f) {
			b-- // the neighbour toward zero: sign and magnitude bits
		}
		t = math.Float32frombits(b | 1)
	}
	return FloatToHalf(t)
}

// FloatToHalf rounds a float32 to the nearest half, ties to even: values
// beyond the largest half (65504, plus half an ulp) become infinities, NaN
// stays NaN (the quiet 0x7e00 with the sign).
func FloatToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	frac := b & 0x7fffff
	if exp == 0xff {
		if frac != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 { // a subnormal half or zero: shift the mantissa, its leading 1 included, into place
		if e < -10 {
			return sign
		}
		m := frac | 0x800000
		shift := uint32(14 - e)
		h := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | frac>>13
	rem := frac & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // may carry into the exponent, up to infinity: still right
	}
	return sign | uint16(h)
}
