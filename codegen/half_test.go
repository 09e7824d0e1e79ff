package codegen

import (
	"math"
	"math/rand"
	"testing"
)

// Every half widens to the float32 of its value and rounds back to itself
// (a NaN to the quiet NaN of its sign); float32s round to the nearest half,
// ties to even, as a computation in float64 says.
func TestHalfConversions(t *testing.T) {
	for h := range 1 << 16 {
		f := HalfToFloat(uint16(h))
		want := uint16(h)
		if f != f {
			want = uint16(h)&0x8000 | 0x7e00
		}
		if got := FloatToHalf(f); got != want {
			t.Fatalf("half %#04x -> %v -> %#04x", h, f, got)
		}
		if e, m := h>>10&0x1f, float64(h&0x3ff); e != 0x1f {
			v := math.Ldexp(m, -24)
			if e > 0 {
				v = math.Ldexp(1024+m, int(e)-25)
			}
			if h&0x8000 != 0 {
				v = -v
			}
			if float64(f) != v {
				t.Fatalf("half %#04x = %v, want %v", h, f, v)
			}
		}
	}
	rng := rand.New(rand.NewSource(1))
	for range 200000 {
		f := math.Float32frombits(rng.Uint32())
		if rng.Intn(2) == 0 { // near the halves' range
			f = float32(rng.NormFloat64() * math.Exp2(float64(rng.Intn(40)-25)))
		}
		if got, want := FloatToHalf(f), halfOf(float64(f)); got != want {
			t.Fatalf("%v (%#08x) -> %#04x, want %#04x", f, math.Float32bits(f), got, want)
		}
	}
}

// halfOf rounds v to the nearest half in float64 arithmetic.
func halfOf(v float64) uint16 {
	sign := uint16(0)
	if math.Signbit(v) {
		sign, v = 0x8000, -v
	}
	switch {
	case math.IsNaN(v):
		return sign | 0x7e00
	case v >= 65520:
		return sign | 0x7c00
	case v < math.Ldexp(1, -14):
		return sign | uint16(math.RoundToEven(v*(1<<24)))
	}
	_, e := math.Frexp(v) // v = frac * 2**e, frac in [0.5, 1)
	m := math.RoundToEven(math.Ldexp(v, 11-e))
	if m == 2048 {
		m, e = 1024, e+1
	}
	return sign | uint16(e+14)<<10 | uint16(m-1024)
}
