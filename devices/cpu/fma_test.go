package cpu

import (
	"math"
	"math/rand"
	"testing"

	"tiny/codegen"
)

// dotRef is dot's order of multiply-adds written with codegen.FMA32.
func dotRef(x, y []float32, ys int, z []float32, zs int, w []float32, ws int) float32 {
	if len(x) > 64 {
		h := (len(x)/2 + 63) &^ 63
		var zh, wh []float32
		if z != nil {
			zh, wh = z[h*zs:], w[h*ws:]
		}
		return dotRef(x[:h], y, ys, z, zs, w, ws) + dotRef(x[h:], y[h*ys:], ys, zh, zs, wh, ws)
	}
	var s [4]float32
	n := len(x) &^ 3
	for i := range x {
		k := i & 3
		if i >= n {
			k = 0
		}
		if z == nil {
			s[k] = codegen.FMA32(x[i], y[i*ys], s[k])
		} else {
			s[k] = codegen.FMA32(codegen.FMA32(x[i], y[i*ys], z[i*zs]), w[i*ws], s[k])
		}
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}

// TestFloat32MulAdds checks the float32 loops that inline FMA32's common
// case (dot32, dotChain32, mulAdd32) bit for bit against FMA32 in the same
// order, on values whose sums often fall on halfway points.
func TestFloat32MulAdds(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	v := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			switch rng.Intn(3) {
			case 0:
				x[i] = float32(rng.Intn(9) - 4) // small integers: exact products and ties
			case 1:
				x[i] = 1 + float32(rng.Intn(1<<12))*float32(math.Ldexp(1, -12))
			default:
				x[i] = rng.Float32()*2 - 1
			}
		}
		return x
	}
	for _, n := range []int{0, 1, 3, 4, 7, 64, 65, 200, 1024} {
		for _, ys := range []int{0, 1} {
			x, y, z, w := v(n), v(max(n, 1)), v(max(n, 1)), v(max(n, 1))
			if got, want := dot32(x, y, ys), dotRef(x, y, ys, nil, 0, nil, 0); math.Float32bits(got) != math.Float32bits(want) {
				t.Errorf("dot32 n=%d ys=%d: %v, want %v", n, ys, got, want)
			}
			if got, want := dotChain32(x, y, ys, z, 1, w, 1), dotRef(x, y, ys, z, 1, w, 1); math.Float32bits(got) != math.Float32bits(want) {
				t.Errorf("dotChain32 n=%d ys=%d: %v, want %v", n, ys, got, want)
			}
			d := make([]float32, n)
			mulAdd32(d, x, y, ys, z, 1)
			for i := range d {
				if want := codegen.FMA32(x[i], y[i*ys], z[i]); math.Float32bits(d[i]) != math.Float32bits(want) {
					t.Fatalf("mulAdd32 n=%d ys=%d element %d: %v, want %v", n, ys, i, d[i], want)
				}
			}
		}
	}
}
