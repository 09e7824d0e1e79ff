package codegen

import (
	"math"
	"testing"
)

// TestHalf checks the float16 conversions: every half widens to a float32
// that rounds back to it, and float32s between halves round to the nearest,
// ties to even, with overflow to infinity and underflow to signed zero.
func TestHalf(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f := HalfToFloat(uint16(h))
		if math.IsNaN(float64(f)) {
			if g := FloatToHalf(f); g&0x7c00 != 0x7c00 || g&0x3ff == 0 {
				t.Errorf("NaN %#04x came back as %#04x", h, g)
			}
			continue
		}
		if g := FloatToHalf(f); g != uint16(h) {
			t.Errorf("%#04x widens to %g, which rounds to %#04x", h, f, g)
		}
	}
	for _, c := range []struct {
		f    float32
		want uint16
	}{
		{1, 0x3c00},
		{-2, 0xc000},
		{65504, 0x7bff},                  // the largest half
		{65519, 0x7bff},                  // below the midpoint to 65536
		{65520, 0x7c00},                  // the midpoint rounds (to even) to inf
		{1e10, 0x7c00},                   // overflow
		{float32(math.Inf(-1)), 0xfc00},  // -inf
		{1 + 1.0/2048, 0x3c00},           // a tie between 1 and 1+2**-10: even
		{1 + 3.0/2048, 0x3c02},           // a tie, rounds up to even
		{5.960464477539063e-08, 0x0001},  // 2**-24, the smallest subnormal
		{2.9802322387695312e-08, 0x0000}, // 2**-25, a tie: to even, zero
		{-1e-10, 0x8000},                 // underflow keeps the sign
		{6.097555160522461e-05, 0x03ff},  // the largest subnormal
	} {
		if got := FloatToHalf(c.f); got != c.want {
			t.Errorf("FloatToHalf(%g) = %#04x, want %#04x", c.f, got, c.want)
		}
	}
}

// TestFloat64ToHalfRoundsOnce: NumPy's float64 -> float16 rounds once;
// through float32 first, 65519.999 becomes 65520 and then infinity.
func TestFloat64ToHalfRoundsOnce(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want uint16
	}{
		{65519.999, 0x7bff},            // 65504
		{-65519.999, 0xfbff},           // -65504
		{65520, 0x7c00},                // the tie rounds up to infinity
		{1 + 1.0/2048 + 1e-12, 0x3c01}, // just above a tie: up
		{1 + 1.0/2048, 0x3c00},         // the tie: to even
		{1 + 1.0/2048 - 1e-12, 0x3c00},
		{math.Inf(-1), 0xfc00},
		{1e-300, 0},
		{0.5, 0x3800},
	} {
		if got := Float64ToHalf(c.in); got != c.want {
			t.Errorf("Float64ToHalf(%v) = %#04x, want %#04x", c.in, got, c.want)
		}
	}
}

// TestFloatToInt checks float to integer conversion against what NumPy's
// astype and torch's to() give on x86-64 (the values were printed by
// both): through int32 for the narrow dtypes, through int64 for the rest.
func TestFloatToInt(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		f    float64
		d    DType
		want int64
	}{
		{-2.7, Int32, -2}, {2.7, Int32, 2}, {-0.9, Int32, 0},
		{2147483647.9, Int32, math.MaxInt32}, {-2147483648.9, Int32, math.MinInt32},
		{2147483648, Int32, math.MinInt32}, {1e30, Int32, math.MinInt32}, {-1e30, Int32, math.MinInt32},
		{3e9, Int32, math.MinInt32}, {nan, Int32, math.MinInt32}, {inf, Int32, math.MinInt32}, {-inf, Int32, math.MinInt32},
		{-3.7, Uint8, 253}, {300, Uint8, 44}, {70000, Uint8, 112}, {3e9, Uint8, 0}, {nan, Uint8, 0},
		{300, Int8, 44}, {200, Int8, -56}, {1e30, Int8, 0},
		{70000, Int16, 4464}, {3e9, Int16, 0}, {-3e9, Int16, 0},
		{-3.7, Uint16, 65533}, {70000, Uint16, 4464}, {3e9, Uint16, 0},
		{1e30, Int64, math.MinInt64}, {nan, Int64, math.MinInt64}, {3e9, Int64, 3000000000}, {-3e9, Int64, -3000000000},
		{-3.7, Uint32, 4294967293}, {3e9, Uint32, 3000000000}, {-3e9, Uint32, 1294967296}, {1e30, Uint32, 0},
		{1e19, Uint64, -8446744073709551616}, {-1, Uint64, -1}, {1e30, Uint64, math.MinInt64}, {nan, Uint64, math.MinInt64},
		{-5.5, Index, -5},
	}
	for _, c := range cases {
		if got := FloatToInt(c.f, c.d); got != c.want {
			t.Errorf("FloatToInt(%g, %s) = %d, want %d", c.f, c.d, got, c.want)
		}
	}
}
