package tensor

import (
	"cmp"
	"math"
	"testing"
)

// TestMatmulRowMajorOperands: a @ b.T copies b's transpose, and a.T @ b
// a's, into row-major order before the product when the other operand's
// extent pays for it (minCopyRows rows of t for w, minCopyRowsLong for a
// reduce of minDotReduce or more, as many columns of w for t), and not for
// less nor for operands already row-major; the values and the gradient of
// the left operand are the product's either way.
func TestMatmulRowMajorOperands(t *testing.T) {
	e := testEngine()
	for _, c := range []struct {
		rows, cols int
		tT, wT     bool // operands given transposed
		copies     int
		k          int // the reduce, 40 when 0
	}{
		{minCopyRows, minCopyColumns, false, true, 1, 0},
		{minCopyRows - 1, minCopyColumns, false, true, 0, 0},
		{minCopyRows, minCopyColumns - 1, false, true, 0, 0},
		{minCopyRows, minCopyColumns, false, false, 0, 0},
		{minCopyColumns, minCopyRows, true, false, 1, 0},
		{minCopyColumns, minCopyRows - 1, true, false, 0, 0},
		{minCopyRows, minCopyRows, true, true, 2, 0},
		// A long reduce: w is copied only from minCopyRowsLong rows.
		{minCopyRows, minCopyColumns, false, true, 0, minDotReduce},
		{minCopyRowsLong, minCopyColumns, false, true, 1, minDotReduce},
		{minCopyRows, minCopyColumns, false, true, 1, minDotReduce - 1},
	} {
		k := cmp.Or(c.k, 40)
		var a, w *Tensor
		if c.tT {
			a = e.Rand([]int{k, c.rows}, 1).Realize().Transpose(0, 1)
		} else {
			a = e.Rand([]int{c.rows, k}, 1).Realize()
		}
		a.SetRequiresGrad(true)
		if c.wT {
			w = e.Rand([]int{c.cols, k}, 2).Realize().Transpose(0, 1)
		} else {
			w = e.Rand([]int{k, c.cols}, 2).Realize()
		}
		y := a.Matmul(w)
		if got := len(y.Schedule()) - 1; got != c.copies {
			t.Errorf("%+v: %d copies before the product, want %d", c, got, c.copies)
		}
		av, wv, got := a.Floats(), w.Floats(), y.Floats()
		for i := range c.rows {
			for j := range c.cols {
				want := 0.0
				for l := range k {
					want += av[i*k+l] * wv[l*c.cols+j]
				}
				if math.Abs(got[i*c.cols+j]-want) > 1e-4*math.Abs(want) {
					t.Fatalf("%+v: y[%d,%d] = %v, want %v", c, i, j, got[i*c.cols+j], want)
				}
			}
		}
		ga := y.Sum(nil, false).Gradient(a)[0].Floats()
		for l := range k {
			want := 0.0
			for j := range c.cols {
				want += wv[l*c.cols+j]
			}
			if math.Abs(ga[l]-want) > 1e-4*want {
				t.Fatalf("%+v: grad a[0,%d] = %v, want %v", c, l, ga[l], want)
			}
		}
	}
}
