package cpu

import (
	"math"
	"math/rand"
	"testing"

	"tiny/codegen"
)

// TestMaxRun checks the comparison fast path of a max reduce against the
// builtin max, on runs with NaNs, infinities and zeros of both signs.
func TestMaxRun(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	nz := float32(math.Copysign(0, -1))
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, nz, -1}
	for trial := range 2000 {
		x := make([]float32, 1+rng.Intn(40))
		for i := range x {
			x[i] = rng.Float32()*2 - 1
			if trial%2 == 0 {
				x[i] = -rng.Float32()
			}
			if rng.Intn(8) == 0 {
				x[i] = special[rng.Intn(len(special))]
			}
		}
		want := x[0]
		for _, v := range x {
			want = max(want, v)
		}
		got := reduceRun(codegen.OpMax, x)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("max of %v = %v, want %v", x, got, want)
		}
	}
}
