package shape

import (
	"testing"

	"tiny/symbolic"
)

// TestConstArith checks that add, sub and mul of two constants fold to the
// constant Simplify gives, with one allocation (the result) instead of a
// Simplify's map and nodes: views do this arithmetic on every dim and
// stride of every movement op.
func TestConstArith(t *testing.T) {
	for _, tc := range []struct {
		f    func(a, b node) node
		slow func(a, b node) node
	}{
		{add, func(a, b node) node { return symbolic.Simplify(symbolic.Add(a, b)) }},
		{sub, func(a, b node) node { return symbolic.Simplify(symbolic.Sub(a, b)) }},
		{mul, func(a, b node) node { return symbolic.Simplify(symbolic.Mul(a, b)) }},
	} {
		for _, x := range []int64{-7, 0, 1, 512} {
			for _, y := range []int64{-1, 0, 1, 3} {
				got, want := tc.f(c(x), c(y)), tc.slow(c(x), c(y))
				if !symbolic.Equal(got, want) {
					t.Errorf("%v and %v: got %s, want %s", x, y, got.Render(), want.Render())
				}
			}
		}
		a, b := c(6), c(7)
		if n := testing.AllocsPerRun(100, func() { tc.f(a, b) }); n > 1 {
			t.Errorf("%d allocations for two constants, want at most 1", int(n))
		}
	}
}
