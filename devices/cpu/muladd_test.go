package cpu

import (
	"math/rand"
	"testing"
)

// TestMulAddRows checks the float32 row-group loops (AVX2 assembly where
// the CPU has it, plus a Go tail) bit for bit against the same sums written
// with explicit roundings, for every length up to 40.
func TestMulAddRows(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	vec := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = rng.Float32()*4 - 2
		}
		return v
	}
	for n := 0; n <= 40; n++ {
		a, b := vec(n), vec(n)
		x := [][]float32{vec(n), vec(n), vec(n), vec(n)}
		s, u := vec(4), vec(4)
		wa, wb := make([]float32, n), make([]float32, n)
		for j := range n {
			wa[j], wb[j] = a[j], b[j]
			for k := range 4 {
				wa[j] = float32(wa[j] + float32(x[k][j]*s[k]))
				wb[j] = float32(wb[j] + float32(x[k][j]*u[k]))
			}
		}
		one := append([]float32(nil), a...)
		mulAdd2x4(a, b, x[0], x[1], x[2], x[3], s, u)
		mulAdd1x4(one, x[0], x[1], x[2], x[3], s)
		for j := range n {
			if a[j] != wa[j] || b[j] != wb[j] || one[j] != wa[j] {
				t.Fatalf("n=%d (AVX2 %v), element %d: %v %v %v, want %v %v", n, useAVX2, j, a[j], b[j], one[j], wa[j], wb[j])
			}
		}
	}
}
