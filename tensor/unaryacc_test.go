package tensor

import (
	"math"
	"math/rand"
	"testing"
)

// unaryInputs returns float32 inputs for a unary function's accuracy test:
// special values, random bit patterns (every magnitude) and draws from
// [-span, span].
func unaryInputs(span float64) []float32 {
	rng := rand.New(rand.NewSource(7))
	xs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, 2, 1e-45, -1e-45, 1e-30, math.MaxFloat32, -math.MaxFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), float32(math.Sqrt2 - 1), float32(math.Sqrt2 + 1),
		1e-5, -1e-5, 88, 88.5, 89, -89, 89.4, 89.5, 1.0000001, 0.99999994}
	for range 20000 {
		xs = append(xs, math.Float32frombits(rng.Uint32()), float32((rng.Float64()*2-1)*span))
	}
	return xs
}

// ulpsOff is how many float32 units of the last place got lies from the
// float64 value want (0 when both are NaN or the same infinity, +inf when
// only one is).
func ulpsOff(got float32, want float64) float64 {
	w := float32(want)
	switch {
	case math.IsNaN(want) || math.IsNaN(float64(got)):
		if math.IsNaN(want) && math.IsNaN(float64(got)) {
			return 0
		}
		return math.Inf(1)
	case got == w:
		if got == 0 && math.Signbit(float64(got)) != math.Signbit(want) {
			return math.Inf(1) // the zero's sign
		}
		return 0
	case math.IsInf(float64(w), 0) || math.IsInf(float64(got), 0):
		return math.Inf(1)
	}
	a := float32(math.Abs(float64(w)))
	return math.Abs(float64(got)-float64(w)) / float64(math.Nextafter32(a, float32(math.Inf(1)))-a)
}

// TestUnaryAccuracy checks functions tiny computes from its own
// polynomials, and exp, against Go's float64 math, on every engine: within
// maxULP of the exact value rounded to float32, the signs of zeros
// included.
func TestUnaryAccuracy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		f      func(*Tensor) *Tensor
		want   func(float64) float64
		span   float64
		maxULP float64
		astULP float64 // the AST evaluator's bound, where it differs (see below)
	}{
		{"exp", (*Tensor).Exp, math.Exp, 90, 1, 64},
		{"sigmoid", (*Tensor).Sigmoid, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }, 90, 2, 64},
		{"atan", (*Tensor).Atan, math.Atan, 6, 1, 0},
		{"asinh", (*Tensor).Asinh, math.Asinh, 6, 2, 0},
		{"acosh", (*Tensor).Acosh, math.Acosh, 6, 3, 0},
		{"sinh", (*Tensor).Sinh, math.Sinh, 90, 3, 128},
		{"cosh", (*Tensor).Cosh, math.Cosh, 90, 3, 128},
	} {
		xs := unaryInputs(tc.span)
		for name, e := range engines(t) {
			got := tc.f(e.FromData(xs)).Floats()
			worst, at, bad := 0.0, float32(0), 0
			bound := tc.maxULP
			if name == "ast" && tc.astULP != 0 {
				// The AST evaluator runs the tensor program as written: e**x
				// is exp2(x * float32(log2 e)), the product rounded. The
				// devices' folded EXP2 takes it unrounded, with log2 e in two
				// floats (codegen.Exp2Scale).
				bound = tc.astULP
			}
			for i, x := range xs {
				u := ulpsOff(float32(got[i]), tc.want(float64(x)))
				if u > bound {
					if bad++; bad <= 4 {
						t.Errorf("%s on %s: %s(%g) = %g, want %g (%.1f ulp)", tc.name, name, tc.name, x, got[i], tc.want(float64(x)), u)
					}
				} else if u > worst {
					worst, at = u, x
				}
			}
			t.Logf("%s on %s: worst %.2f ulp at %g over %d inputs", tc.name, name, worst, at, len(xs))
		}
	}
}
