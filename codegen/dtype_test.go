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
