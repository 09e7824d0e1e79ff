package interp

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"tiny/tensor"
)

// narrowValue's fast path gives exactly what parsing the shortest float32
// decimal gives, on random bit patterns (every exponent) and on round
// numbers.
func TestNarrowValue(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	check := func(f float32) {
		x := float64(f)
		want := x
		if x != 0 && !math.IsNaN(x) && !math.IsInf(x, 0) {
			want, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'e', -1, 32), 64)
		}
		if got := narrowValue(x, tensor.Float32); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("narrowValue(%v) = %v, want %v", f, got, want)
		}
	}
	for range 300000 {
		check(math.Float32frombits(rng.Uint32()))
		check(rng.Float32())
	}
	for _, f := range []float32{0.1, 0.5, 1, 3, 1e-7, 1e7, 123456789, 1e38, 1e-38, 1e-45, -2.5, float32(math.Inf(1))} {
		check(f)
	}
	if got := narrowValue(float64(float32(0.1)), tensor.Float32); got != 0.1 {
		t.Errorf("float32 0.1 reads as %v", got)
	}
}

// float16 values read back exactly: every float16 is a float32, and the
// float16 shortest form would change them (65504 is "65500").
func TestNarrowFloat16Exact(t *testing.T) {
	for _, x := range []float64{65504, -65504, 2049 * 16, 0.0999755859375, 6.103515625e-05, 5.960464477539063e-08} {
		got := narrowValue(x, tensor.Float16)
		if float32(got) != float32(x) || (x == math.Trunc(x) && got != x) {
			t.Errorf("narrowValue(%v, float16) = %v", x, got)
		}
	}
}
