package tensor

import (
	"math"
	"testing"
)

// TestMatmulColumnsOperand: a @ b.T copies b's transpose into row-major
// order before the product when a has minCopyRows rows or more (the
// register tile then runs along its columns), and not for fewer rows nor
// for a right operand already laid out by rows; the values and a's
// gradient are the product's either way.
func TestMatmulColumnsOperand(t *testing.T) {
	e := testEngine()
	for _, c := range []struct {
		rows       int
		transposed bool
		copies     bool
	}{
		{minCopyRows, true, true},
		{minCopyRows - 1, true, false},
		{minCopyRows, false, false},
	} {
		const k, n = 40, minCopyColumns + 3
		a := e.Rand([]int{c.rows, k}, 1).SetRequiresGrad(true)
		b := e.Rand([]int{n, k}, 2).Realize()
		w := b.Transpose(0, 1)
		if !c.transposed {
			w = e.Rand([]int{k, n}, 2).Realize()
		}
		y := a.Matmul(w)
		kernels := y.Schedule()
		if got := len(kernels) == 2; got != c.copies { // the copy, the product (a's rand fused)
			t.Errorf("%d rows, transposed %v: %d kernels, want a copy %v", c.rows, c.transposed, len(kernels), c.copies)
		}
		av, wv, got := a.Floats(), w.Floats(), y.Floats()
		for i := range c.rows {
			for j := range n {
				want := 0.0
				for l := range k {
					want += av[i*k+l] * wv[l*n+j]
				}
				if math.Abs(got[i*n+j]-want) > 1e-4*math.Abs(want) {
					t.Fatalf("%d rows: y[%d,%d] = %v, want %v", c.rows, i, j, got[i*n+j], want)
				}
			}
		}
		ga := y.Sum(nil, false).Gradient(a)[0].Floats()
		for l := range k {
			want := 0.0
			for j := range n {
				want += wv[l*n+j]
			}
			if math.Abs(ga[l]-want) > 1e-4*want {
				t.Fatalf("%d rows: grad a[0,%d] = %v, want %v", c.rows, l, ga[l], want)
			}
		}
	}
}
