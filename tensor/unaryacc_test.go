package tensor

import (
	"math"
	"math/big"
	"math/rand"
	"slices"
	"testing"

	"tiny/codegen"
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
// included (results below 2**-120, near the subnormals, within 2**-140). elu is
// not here: torch's is e**x - 1 as tiny's (elu(-1e-5) is -1.00136e-5 in
// both), not expm1.
func TestUnaryAccuracy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		f      func(*Tensor) *Tensor
		want   func(float64) float64
		span   float64
		maxULP float64
		astULP float64 // the AST evaluator's bound, where it differs (see below)
		limit  float64 // when not 0, inputs beyond ±limit are left out
	}{
		{"exp", (*Tensor).Exp, math.Exp, 90, 1, 64, 0},
		{"log", (*Tensor).Log, math.Log, 1e6, 1, 0, 0},
		{"log2", (*Tensor).Log2, math.Log2, 1e6, 1, 0, 0},
		{"exp2", (*Tensor).Exp2, math.Exp2, 130, 1, 0, 0},
		{"sqrt", (*Tensor).Sqrt, math.Sqrt, 1e6, 0, 0, 0},
		{"rsqrt", (*Tensor).Rsqrt, func(x float64) float64 { return 1 / math.Sqrt(x) }, 1e6, 1, 0, 0},
		{"tanh", (*Tensor).Tanh, math.Tanh, 10, 1, 0, 0},
		{"sin", (*Tensor).Sin, math.Sin, 100, 1, 0, 0},
		{"cos", (*Tensor).Cos, math.Cos, 7000, 1, 0, cosReduceMax},
		{"tan", (*Tensor).Tan, math.Tan, 7000, 3, 0, cosReduceMax},
		{"asin", (*Tensor).Asin, math.Asin, 1, 2, 0, 0},
		{"acos", (*Tensor).Acos, math.Acos, 1, 2, 0, 0},
		{"atanh", (*Tensor).Atanh, math.Atanh, 1, 3, 0, 0},
		{"erf", (*Tensor).Erf, math.Erf, 4, 3, 0, 0},
		{"sigmoid", (*Tensor).Sigmoid, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }, 90, 2, 64, 0},
		{"softplus", func(t *Tensor) *Tensor { return t.Softplus(1, 20) }, func(x float64) float64 {
			if x > 20 {
				return x
			}
			return math.Log1p(math.Exp(x))
		}, 30, 3, 64, 0},
		{"swish", (*Tensor).Swish, func(x float64) float64 { return x / (1 + math.Exp(-x)) }, 30, 3, 64, 0},
		{"mish", (*Tensor).Mish, func(x float64) float64 {
			sp := math.Log1p(math.Exp(x))
			if x > 20 {
				sp = x
			}
			return x * math.Tanh(sp)
		}, 30, 3, 64, 0},
		{"atan", (*Tensor).Atan, math.Atan, 6, 1, 0, 0},
		{"asinh", (*Tensor).Asinh, math.Asinh, 6, 2, 0, 0},
		{"acosh", (*Tensor).Acosh, math.Acosh, 6, 3, 0, 0},
		{"sinh", (*Tensor).Sinh, math.Sinh, 90, 3, 128, 0},
		{"cosh", (*Tensor).Cosh, math.Cosh, 90, 3, 128, 0},
	} {
		// The dtype is the input's, float16 too (float64 alike).
		for _, d := range []DType{Float16, Float64} {
			if got := tc.f(cpuEngine(t).FromData([]float32{0.5, -0.25}).Cast(d)).DType(); got != d {
				t.Errorf("%s of %s gives %s", tc.name, d, got)
			}
		}
		xs := unaryInputs(tc.span)
		if tc.limit != 0 {
			// Beyond cosReduceMax cos is 1 - 2·sin²(x/2), exact to an
			// absolute error (TestCosFar).
			xs = slices.DeleteFunc(xs, func(x float32) bool { return math.Abs(float64(x)) > tc.limit })
		}
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
				w := tc.want(float64(x))
				u := ulpsOff(float32(got[i]), w)
				if math.Abs(w) < 0x1p-120 && math.Abs(got[i]-w) <= 0x1p-140 {
					u = 0 // at float32's subnormals (here or in a step): an absolute bound
				}
				if u > bound {
					if bad++; bad <= 4 {
						t.Errorf("%s on %s: %s(%g) = %g, want %g (%.1f ulp)", tc.name, name, tc.name, x, got[i], w, u)
					}
				} else if u > worst {
					worst, at = u, x
				}
			}
			t.Logf("%s on %s: worst %.2f ulp at %g over %d inputs", tc.name, name, worst, at, len(xs))
		}
	}
}

// TestPowAccuracy checks x ** e for exponents the general path takes
// (2**(e*log2|x|)) on every engine against C's pow in float64 of the same
// float32 operands: within 1.5 ulp, special values included. The devices
// fold the logarithm into the EXP2 unrounded (codegen.OptPow): rounded to
// float32 first it made x ** 1.3 up to 56 ulp off near the float range's
// ends (torch 0.57). The AST evaluator runs the program as written, the
// logarithm rounded, and is held to 128 ulp (110 seen).
func TestPowAccuracy(t *testing.T) {
	xs := unaryInputs(1e6)
	for name, e := range engines(t) {
		for _, ex := range []float64{1.3, -0.7, 3.1, 0.25, -7.7} {
			got := e.FromData(xs).Pow(ex).Floats()
			bound := 1.5
			if name == "ast" {
				bound = 128
			}
			worst, bad := 0.0, 0
			for i, x := range xs {
				w := math.Pow(float64(x), float64(float32(ex)))
				u := ulpsOff(float32(got[i]), w)
				if math.Abs(w) < 0x1p-120 && math.Abs(got[i]-w) <= 0x1p-140 {
					u = 0 // results at float32's subnormals: an absolute bound
				}
				if u > bound {
					if bad++; bad <= 4 {
						t.Errorf("pow on %s: %g ** %g = %g, want %g (%.1f ulp)", name, x, ex, got[i], w, u)
					}
				}
				worst = max(worst, u)
			}
			t.Logf("pow on %s: x ** %g worst %.2f ulp over %d inputs", name, ex, worst, len(xs))
		}
	}
}

// TestCosFar checks cos beyond the range Cos reduces itself, where it is
// 1 - 2·sin²(x/2): within 5e-7 of the exact value, float32's largest
// included (2.5e-7 but on the GPU, whose sin is OpenCL's own; tinygrad's
// sin(pi/2 - x) gave 0.52 for cos(3.4e38), 0.853).
func TestCosFar(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	xs := []float32{cosReduceMax + 1, -cosReduceMax - 1, 1e5, 3e7, math.MaxFloat32, -math.MaxFloat32}
	for range 20000 {
		x := float32(math.Exp(rng.Float64()*80 + math.Log(cosReduceMax)))
		xs = append(xs, x, -x)
	}
	for name, e := range engines(t) {
		got := e.FromData(xs).Cos().Floats()
		for i, x := range xs {
			if d := math.Abs(got[i] - math.Cos(float64(x))); !(d <= 5e-7) {
				t.Fatalf("cos on %s: cos(%g) = %g, want %g", name, x, got[i], math.Cos(float64(x)))
			}
		}
	}
}

// TestHalfExpLog checks exp of every float16 from -17 to 11 (results from
// float16's subnormals to near its largest) and log of every positive
// float16 on every engine: within 1 float16 ulp of the exact value. A
// float16 kernel's scale was float16(log2 e), 3e-4 off, which made exp(11)
// 4 ulp off (59744, 59872 in torch and NumPy) until the folded EXP2 took it
// for log2 e; log multiplied by float16's ln 2 (log(1000) 6.9101562, torch
// 6.90625) until it ran in float32.
func TestHalfExpLog(t *testing.T) {
	for _, tc := range []struct {
		name   string
		f      func(*Tensor) *Tensor
		want   func(float64) float64
		lo, hi float32
	}{{"exp", (*Tensor).Exp, math.Exp, -17, 11}, {"log", (*Tensor).Log, math.Log, 0x1p-24, 65504}} {
		var xs []float32
		for b := uint16(0); b < 0x7c00; b++ {
			for _, h := range []uint16{b, b | 0x8000} {
				if x := codegen.HalfToFloat(h); x >= tc.lo && x <= tc.hi {
					xs = append(xs, x)
				}
			}
		}
		for name, e := range engines(t) {
			if name == "ast" && tc.name == "exp" {
				continue // the program as written: exp2(x * float16(log2 e)), the product rounded
			}
			got := tc.f(e.FromData(xs).Cast(Float16)).Floats()
			for i, x := range xs {
				w := codegen.Float64ToHalf(tc.want(float64(x)))
				g := codegen.Float64ToHalf(got[i])
				if d := int(g&0x7fff) - int(w&0x7fff); d < -1 || d > 1 || g&0x8000 != w&0x8000 && g&0x7fff != 0 {
					t.Fatalf("%s on %s: %s(%g) in float16 = %g, want %g", tc.name, name, tc.name, x, got[i], codegen.HalfToFloat(w))
				}
			}
		}
	}
}

// TestFloat64Series checks the float64 series of tanh, sinh, asin, acos
// and atan, float64 erf, cos's and tan's float64 reduction, and exp (e**x, not
// 2**(x*log2 e): codegen.IsExp), against Go's
// math on every engine: within 4 float64 ulps over magnitudes from 1e-300
// to 2 and the thresholds between series and exponentials (further out
// sinh is e**x's, whose x·log2(e) rounding costs ulps as in tinygrad; float32's
// polynomials, which float64 used before, were 1.6e-11 off for tanh(0.1)
// and 2e-10 for sinh near 1).
func TestFloat64Series(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	xs := []float64{0, math.Copysign(0, -1), 1e-300, 1e-8, 0.1, 0.3, 0.5499999, 0.55, 0.5500001, 0.625, 0.9999999, 1, 1.0000001, 2}
	for range 3000 {
		xs = append(xs, math.Pow(10, rng.Float64()*7.3-7), rng.Float64()*1.2)
	}
	for i := range len(xs) {
		xs = append(xs, -xs[i])
	}
	// cos and tan take turns to 4000 and the points next to their zeros
	// and poles, where a reduction's error shows.
	turns := slices.Clone(xs)
	for k := range 2500 {
		z := float64(k) * math.Pi / 2
		turns = append(turns, math.Nextafter(z, 0), math.Nextafter(z, math.Inf(1)), (rng.Float64()*2-1)*4000)
	}
	// exp over its whole float64 range.
	wide := []float64{-745, -708, -1, 0, 1, 88, 700, 709}
	for range 3000 {
		wide = append(wide, rng.Float64()*1454-745)
	}
	// erf past 1.2 too: its continued fraction from 2, its 1 from 6.
	errs := []float64{1.9999999, 2, 2.0000001, 5.9999999, 6, 6.0000001, 30, math.Inf(1), math.Inf(-1), math.NaN()}
	for range 2000 {
		errs = append(errs, (rng.Float64()*2-1)*7)
	}
	for name, e := range engines(t) {
		for _, tc := range []struct {
			name string
			f    func(*Tensor) *Tensor
			want func(float64) float64
		}{
			{"exp", (*Tensor).Exp, math.Exp},
			{"tanh", (*Tensor).Tanh, math.Tanh},
			{"sinh", (*Tensor).Sinh, math.Sinh},
			// Go's Asin takes sqrt(1 - x*x), 40 ulps off near 1 (and its
			// Acos is pi/2 minus it): the references take (1-x)(1+x).
			{"asin", (*Tensor).Asin, func(x float64) float64 { return math.Atan2(x, math.Sqrt((1-x)*(1+x))) }},
			{"acos", (*Tensor).Acos, func(x float64) float64 { return math.Atan2(math.Sqrt((1-x)*(1+x)), x) }},
			{"atan", (*Tensor).Atan, math.Atan},
			{"erf", (*Tensor).Erf, math.Erf},
			{"cos", (*Tensor).Cos, func(x float64) float64 { return turn(x, 0) }},
			{"tan", (*Tensor).Tan, func(x float64) float64 { return turn(x, 1) / turn(x, 0) }},
		} {
			in, most := xs, 4.0
			switch tc.name {
			case "cos", "tan":
				in = turns
			case "erf":
				in = slices.Concat(xs, errs)
			case "exp":
				in = wide
				if name == "ast" {
					// The kernel as written: 2**(x*log2 e), whose
					// rounded product costs up to |x| ulps.
					most = 1024
				}
			}
			got := tc.f(e.FromFloats(in, []int{len(in)}, Float64)).Floats()
			worst, at := 0.0, 0.0
			for i, x := range in {
				w := tc.want(x)
				if math.IsNaN(w) || math.IsNaN(got[i]) {
					if math.IsNaN(w) != math.IsNaN(got[i]) {
						t.Fatalf("%s: %s(%g) = %g, want %g", name, tc.name, x, got[i], w)
					}
					continue
				}
				if math.Signbit(got[i]) != math.Signbit(w) {
					t.Fatalf("%s: %s(%g) = %g, want %g (sign)", name, tc.name, x, got[i], w)
				}
				ulp := math.Nextafter(math.Abs(w), math.Inf(1)) - math.Abs(w)
				if u := math.Abs(got[i]-w) / ulp; u > worst {
					worst, at = u, x
				}
			}
			if worst > most {
				t.Errorf("%s: %s is %.1f float64 ulps off at %g, want at most %g", name, tc.name, worst, at, most)
			}
		}
	}
}

// turn returns cos(x) (sin(x) with s = 1) for TestFloat64Series, reduced
// by quarter turns with pi in 300 bits: Go's math.Cos reduces with pi/4 in
// three parts, 25 ulps off next to cos's zero at 617 pi/2.
func turn(x float64, s int) float64 {
	const halfPi = "1.57079632679489661923132169163975144209858469968755291048747229615390820314310449931401741267105853399107404326"
	if math.Abs(x) < math.Pi/4 { // no turn (and zeros keep their signs)
		return [2]func(float64) float64{math.Cos, math.Sin}[s](x)
	}
	hp, _, _ := big.ParseFloat(halfPi, 10, 300, big.ToNearestEven)
	k := math.Round(x / (math.Pi / 2))
	r, _ := new(big.Float).SetPrec(300).Sub(new(big.Float).SetPrec(300).SetFloat64(x), new(big.Float).SetPrec(300).Mul(hp, big.NewFloat(k))).Float64()
	switch (int(math.Mod(k, 4)) + 4 + 3*s) % 4 {
	case 0:
		return math.Cos(r)
	case 1:
		return -math.Sin(r)
	case 2:
		return -math.Cos(r)
	}
	return math.Sin(r)
}

// TestPowConstMatchesGeneral checks that a constant exponent gives the
// same bits through powConst, which leaves out the special cases it cannot
// take, as through powAny, which tests every one at every element, over
// bases with every special value (±0, ±1, ±inf, NaN, negatives, subnormals)
// and exponents odd, even, fractional, huge, zero, infinite and NaN.
func TestPowConstMatchesGeneral(t *testing.T) {
	xs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, -2, 0.5, -0.5, 3, -3, 1e-40, -1e-40, 1e30, -1e30,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 7.25, -7.25}
	exps := []float64{1.3, -1.3, 3, -2, 17, 1e10, 0, math.Inf(1), math.Inf(-1), math.NaN(), -33.5}
	for name, e := range engines(t) {
		x := e.FromData(xs)
		for _, ev := range exps {
			c := x.FullLike(ev)
			if v, ok := constValue(c.n); !ok || v != float64(float32(ev)) && ev == ev {
				t.Fatalf("FullLike(%g) is not the uniform constant %g", ev, v)
			}
			got, want := powConst(x, c, ev).Floats(), powAny(x, c).Floats()
			for i := range xs {
				if g, w := math.Float32bits(float32(got[i])), math.Float32bits(float32(want[i])); g != w && !(got[i] != got[i] && want[i] != want[i]) {
					t.Errorf("%s: %g ** %g = %g (%#x), powAny %g (%#x)", name, xs[i], ev, got[i], g, want[i], w)
				}
			}
		}
	}
	if _, ok := constValue(cpuEngine(t).FromData(xs).n); ok {
		t.Error("a tensor of data read as a constant")
	}
}
