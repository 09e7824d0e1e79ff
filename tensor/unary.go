package tensor

import (
	"math"

	"tiny/codegen"
)

// Unary math is built, as in tinygrad, from the few ALU ops codegen knows
// (EXP2, LOG2, SIN, SQRT, RECIP, ...). Transcendentals of integer or bool
// tensors compute in float32.

// floatOf returns t cast to float32 unless it is already a float.
func (t *Tensor) floatOf() *Tensor {
	if t.n.dtype.IsFloat() {
		return t
	}
	return t.Cast(Float32)
}

func (t *Tensor) unary(op codegen.Op) *Tensor {
	f := t.floatOf()
	return alu(op, f.n.dtype, f)
}

// Neg returns -t (logical not for bools).
func (t *Tensor) Neg() *Tensor {
	if t.n.dtype == Bool {
		return t.Not()
	}
	return alu(codegen.OpNeg, t.n.dtype, t)
}

// Exp2 returns 2**t.
func (t *Tensor) Exp2() *Tensor { return t.unary(codegen.OpExp2) }

// Log2 returns the base-2 logarithm of t.
func (t *Tensor) Log2() *Tensor { return t.unary(codegen.OpLog2) }

// Exp returns e**t, computed as 2**(t/ln 2).
func (t *Tensor) Exp() *Tensor { return t.floatOf().Mul(1 / math.Ln2).Exp2() }

// Log returns the natural logarithm of t, computed as log2(t)*ln 2; a
// float16 t in float32 (float16's ln 2 is 3e-4 off and each step rounds to
// float16: log(1000) was 6.9101562, torch's 6.90625).
func (t *Tensor) Log() *Tensor {
	if t.n.dtype == Float16 {
		return t.Cast(Float32).Log().Cast(Float16)
	}
	return t.Log2().Mul(math.Ln2)
}

// Sqrt returns the square root of t.
func (t *Tensor) Sqrt() *Tensor { return t.unary(codegen.OpSqrt) }

// Rsqrt returns 1/sqrt(t).
func (t *Tensor) Rsqrt() *Tensor { return t.Sqrt().Reciprocal() }

// Reciprocal returns 1/t.
func (t *Tensor) Reciprocal() *Tensor { return t.unary(codegen.OpRecip) }

// Sin returns the sine of t (radians).
func (t *Tensor) Sin() *Tensor { return t.unary(codegen.OpSin) }

// Cos returns the cosine of t: within 2 ulp up to |t| = cosReduceMax, and
// within 5e-7 beyond (absolute). The gradient is -sin.
func (t *Tensor) Cos() *Tensor {
	x := t.floatOf()
	a := pick(x.Lt(0), x.Neg(), x)
	// |x| = q·pi/2 + r, |r| <= pi/4 (Cody-Waite, pi/2 in three parts whose
	// products with q < 2**12 are exact), then by the quadrant cos(r) =
	// 1 - 2·sin²(r/2) or ∓sin(r), one SIN either way.
	q := a.Mul(2 / math.Pi).Add(0.5).Floor()
	parts, most := []float64{1.5703125, 4.837512969970703e-4, 7.549790126404332e-08}, float64(cosReduceMax)
	if x.n.dtype == Float64 {
		// fdlibm's split: three parts of 33 bits, exact times q < 2**20,
		// and what they leave (8.5e-32, 16 ulps of cos next to its zero
		// at 1564 pi/2). float32's parts left 4.5e-15: 860 ulps.
		parts, most = []float64{1.57079632673412561417e+00, 6.07710050630396597660e-11, 2.02226624871116645580e-21,
			8.47842766036889956997e-32}, 1<<19
	}
	r := a
	for _, p := range parts {
		r = r.Sub(q.Mul(p))
	}
	k := q.Sub(q.Mul(0.25).Floor().Mul(4.0))
	big := a.Gt(most)
	odd := k.Eq(1).Or(k.Eq(3)).And(big.Not())
	v := pick(odd, r, pick(big, a, r).Mul(0.5)).Sin()
	even := v.Mul(v).Mul(-2.0).Add(1.0)
	res := pick(odd, pick(k.Eq(1), v.Neg(), v), pick(k.Eq(2).And(big.Not()), even.Neg(), even))
	return withGrad(res, []*Tensor{x}, func(g *Tensor) []*Tensor { return []*Tensor{g.Mul(x.Sin()).Neg()} })
}

// cosReduceMax is the largest |x| Cos reduces by quarter turns itself in
// float32 and float16 (float64: 2**19);
// beyond, cos(x) is 1 - 2·sin²(x/2) (x/2 exact, SIN's own reduction). Cos
// was tinygrad's sin(pi/2 - x), whose rounded argument cost it 9 ulp at
// x = -7.4 and every digit near float32's largest.
const cosReduceMax = 6000

// Tan returns sin(t)/cos(t).
func (t *Tensor) Tan() *Tensor { return t.Sin().Div(t.Cos()) }

// Abs returns |t|. For floats zero is its own piece, so that the gradient
// there is 0 as torch's (sign(x)), and NaN stays NaN.
func (t *Tensor) Abs() *Tensor {
	if t.n.dtype == Bool || t.n.dtype.IsUnsigned() {
		return t
	}
	if t.n.dtype.IsFloat() {
		// abs(-0.0) is 0.0; the gradient is sign(x): 0 at zero and NaN.
		td := t.Detach()
		return t.Lt(0).Where(t.Neg(), t.Gt(0).Where(t, td.Eq(0).Where(0.0, td)))
	}
	return t.Lt(0).Where(t.Neg(), t)
}

// Sign returns -1, 0 or 1 as t is negative, zero or positive, in t's dtype.
func (t *Tensor) Sign() *Tensor {
	return t.Lt(0).Where(-1, t.Gt(0).Where(1, 0).Cast(t.n.dtype)).Cast(t.n.dtype)
}

// Relu returns t where it is positive and 0 elsewhere, as torch's: NaN
// stays NaN and -0.0 stays -0.0 (max(x, 0) keeps x on a tie). The gradient
// is 0 at zero and below, 1 above and at NaN.
func (t *Tensor) Relu() *Tensor {
	if !t.n.dtype.IsFloat() {
		return t.Gt(0).Where(t, 0)
	}
	return le(t, 0).Where(t.Lt(0).Where(0, t.Detach()), t)
}

// Sigmoid returns 1/(1+e**-t), computed from e = e**-|t| (never above 1)
// as 1/(1+e) or e/(1+e): no infinity appears for any input, so the
// gradient is finite (0 far from 0) where e**-t would overflow.
func (t *Tensor) Sigmoid() *Tensor {
	x := t.floatOf()
	pos := x.Ge(0)
	e := pos.Where(x.Neg(), x).Exp()
	// 1/(1+e) or e/(1+e): one division of the chosen numerator, the same
	// value as choosing between two (a division costs as much as the exp).
	return pos.Where(1.0, e).Div(e.Add(1.0))
}

// Tanh returns the hyperbolic tangent: on |x|, below 0.625 x + x³·P(x²)
// (P of degree 5 fitted here for relative error below 2e-10), beyond
// 1 - 2/(e**2x + 1); the sign of x, -0 included, put back. tinygrad's
// 2*sigmoid(2x) - 1 cancels for small x: tanh(1e-5) was 1.0014e-5 and
// tanh(-2.2e-8) -6e-8. The gradient is torch's, 1 - tanh².
func (t *Tensor) Tanh() *Tensor {
	x := t.floatOf()
	r := odd(x, func(a *Tensor) *Tensor {
		near := 0.625
		if x.n.dtype == Float64 {
			near = 0.55
		}
		series := oddPoly(a, a.Square(), []float64{0.002138238213556582, -0.00817180328866018, 0.021698216207798167,
			-0.05394625427253278, 0.13333201357179952, -0.3333333065807}, tanhTaylor64)
		far := a.Mul(2.0).Exp().Add(1.0).Reciprocal().Mul(2.0).RSub(1.0)
		return pick(a.Lt(near), series, far)
	})
	return withGrad(r, []*Tensor{x}, func(g *Tensor) []*Tensor { return []*Tensor{g.Mul(r.Square().RSub(1.0))} })
}

// tanhTaylor64 is P of Tanh's a + a·z·P(z), z = a², for float64: the
// Taylor series to a**37 (from the Bernoulli numbers), whose truncation is
// below 4e-18 of tanh up to a = 0.55; past it 1 - 2/(e**2a + 1) loses at
// most a bit to cancellation. float32's polynomial of degree 5 left float64
// tanh(0.1) 1.6e-11 off.
var tanhTaylor64 = []float64{7.054636946400968e-08, -1.7406618963571648e-07, 4.294911078273806e-07,
	-1.0597268320104654e-06, 2.6147711512907546e-06, -6.451689215655431e-06, 1.5918905069328964e-05,
	-3.927832388331683e-05, 9.691537956929451e-05, -0.00023912911424355248, 0.000590027440945586,
	-0.0014558343870513183, 0.003592128036572481, -0.008863235529902197, 0.021869488536155203,
	-0.05396825396825397, 0.13333333333333333, -0.3333333333333333}

// Gelu returns the tanh approximation of the Gaussian error linear unit.
func (t *Tensor) Gelu() *Tensor {
	x := t.floatOf()
	inner := x.Add(x.Mul(x).Mul(x).Mul(0.044715)).Mul(math.Sqrt(2 / math.Pi))
	return x.Mul(0.5).Mul(inner.Tanh().Add(1.0))
}

// Square returns t*t.
func (t *Tensor) Square() *Tensor { return t.Mul(t) }

// trunc rounds floats toward zero: through an integer cast below the size
// where every float is integral, and unchanged above it.
func (t *Tensor) trunc() *Tensor {
	it := Int32
	if t.n.dtype == Float64 {
		it = Int64
	}
	return keepZeroSign(t, t.Abs().Lt(integralFrom(t.n.dtype)).Where(t.Cast(it).Cast(t.n.dtype), t))
}

// integralFrom returns the magnitude from which every value of float dtype
// d is an integer (and beyond which an int32 round trip would overflow).
func integralFrom(d DType) float64 {
	switch d {
	case Float64:
		return 1 << 52
	case Float16:
		return 1 << 10
	}
	return 1 << 23
}

// keepZeroSign returns r with its zeros signed as t: trunc, floor, ceil
// and round of -0.2, -0.5 or -0.0 are -0 in torch and C, where the integer
// round trip gives +0 (as tinygrad's). (Selects, not t*0: the lazy graph
// folds x*0 to 0.)
func keepZeroSign(t, r *Tensor) *Tensor {
	return r.Eq(0).Where(t.Lt(0).Where(math.Copysign(0, -1), t.Eq(0).Where(t, 0.0)), r)
}

// Trunc returns t rounded toward zero.
func (t *Tensor) Trunc() *Tensor {
	if !t.n.dtype.IsFloat() {
		return t
	}
	return t.trunc()
}

// Floor returns the largest integer not above t (ints are unchanged).
func (t *Tensor) Floor() *Tensor {
	if !t.n.dtype.IsFloat() {
		return t
	}
	tr := t.trunc()
	return t.Lt(tr).Where(tr.Sub(1), tr)
}

// Ceil returns the smallest integer not below t (ints are unchanged).
func (t *Tensor) Ceil() *Tensor {
	if !t.n.dtype.IsFloat() {
		return t
	}
	tr := t.trunc()
	return t.Gt(tr).Where(tr.Add(1), tr)
}

// Round returns t rounded to the nearest integer, halves to even.
func (t *Tensor) Round() *Tensor {
	if !t.n.dtype.IsFloat() {
		return t
	}
	f := t.Floor()
	d := t.Sub(f)
	odd := f.Sub(f.Mul(0.5).Floor().Mul(2.0)) // 0 or 1
	r := d.Gt(0.5).Where(f.Add(1), d.Lt(0.5).Where(f, f.Add(odd)))
	// Integral already (infinities too: inf - inf would make a NaN).
	return keepZeroSign(t, t.Abs().Lt(integralFrom(t.n.dtype)).Where(r, t))
}

// Pow returns t**y. Small integral scalar exponents multiply exactly; other
// exponents compute 2**(y*log2|t|) with the sign of a negative base kept for
// odd integral exponents. Integer operands give an integer result.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) Pow(y any) *Tensor { return t.pow(y, false) }

// RPow returns y**t.
// It panics with a *Error if the operands do not broadcast.
func (t *Tensor) RPow(y any) *Tensor { return t.pow(y, true) }

func (t *Tensor) pow(y any, reverse bool) *Tensor {
	if v, ok := powFloat(y, reverse); ok {
		// A positive number to a tensor power is a float, as tinygrad's
		// e**(t*ln y): 2 ** int_tensor is float32.
		return t.floatOf().Mul(math.Log2(v)).Exp2()
	}
	if _, ok := y.(*Tensor); !ok && !reverse {
		v, _ := scalarOf(y)
		isInt := !t.n.dtype.IsFloat() && t.n.dtype != Bool
		if v == math.Trunc(v) && (math.Abs(v) <= 16 || isInt && math.Abs(v) < 1<<53) {
			base, _ := t.broadcasted(y, false)
			if v < 0 {
				r := intPow(base.floatOf(), int(-v)).Reciprocal()
				if isInt {
					return r.Cast(base.n.dtype) // tinygrad's: truncated back
				}
				return r
			}
			return intPow(base, int(v))
		}
		if t.n.dtype.IsFloat() && (v == 0.5 || v == -0.5) {
			// sqrt, as tinygrad rewrites it: the gradient at 0 is inf, as
			// torch's. (Other half-integers take the general path, whose
			// gradient at 0 is 0; x**k * sqrt(x) would give 0*inf.)
			base, _ := t.broadcasted(y, false)
			if v < 0 {
				return base.Sqrt().Reciprocal()
			}
			return base.Sqrt()
		}
		if h := math.Abs(v) - 0.5; t.n.dtype.IsFloat() && h == math.Trunc(h) && h <= 16 {
			base, _ := t.broadcasted(y, false)
			return halfIntPow(base, v)
		}
	}
	a, b := t.broadcasted(y, reverse)
	if a.n.dtype.IsInt() {
		return intPowTensor(a, b) // exact: 11**7 is 19487171
	}
	x, e := a.floatOf(), b.floatOf()
	r := powFloats(x, e)
	if !a.n.dtype.IsFloat() {
		return r.Round().Cast(a.n.dtype)
	}
	// torch's gradient, not the primitives': d/dx = e*x**(e-1) (0 where e
	// is 0), d/de = x**e * ln x (NaN for a negative x, 0 where x is 0 and e
	// is not negative).
	return withGrad(r, []*Tensor{x, e}, func(g *Tensor) []*Tensor {
		dx := e.Eq(0).Where(0.0, g.Mul(e).Mul(powFloats(x, e.Sub(1.0))))
		de := x.Eq(0).And(e.Ge(0)).Where(0.0, g.Mul(r).Mul(x.Log()))
		return []*Tensor{dx, de}
	})
}

// powFloats returns x**e for float tensors of one shape and dtype:
// 2**(e*log2|x|), with the sign of a negative x for odd integral e and NaN
// for fractional e; 0**e is 0, 1 or inf as e is positive, zero or negative.
//
// The special values are C's pow (and torch's): x**0 and 1**e are 1 even
// for a NaN operand, 0**NaN is NaN, (-1)**±inf is 1, -0.0 to an odd power
// keeps its sign, and -inf to a power that is not an odd integer is +inf
// (or 0 for a negative one).
func powFloats(x, e *Tensor) *Tensor {
	if ev, ok := constValue(e.n); ok {
		return powConst(x, e, ev)
	}
	return powAny(x, e)
}

// powAny is powFloats for any exponent: every special case tested at every
// element.
func powAny(x, e *Tensor) *Tensor {
	zero := x.Eq(0)
	mag := zero.Where(1.0, x.Abs()).Log2().Mul(e).Exp2()
	mag = zero.Where(e.Gt(0).Where(0.0, e.Lt(0).Where(math.Inf(1), math.NaN())), mag)
	odd := e.Sub(e.Mul(0.5).Floor().Mul(2.0)).Eq(1.0)
	integral := e.Eq(e.Floor())
	neg := x.Lt(0)
	negZero := zero.And(x.Reciprocal().Lt(0))
	r := neg.Or(negZero).And(odd).Where(mag.Neg(), mag)
	// Times NaN there, not a NaN constant: the gradient is NaN there too,
	// as torch's, and untouched elsewhere. -inf takes no NaN: its power
	// is an infinity or 0.
	r = r.Mul(neg.And(x.IsInf(false, true).Not()).And(integral.Not()).Where(math.NaN(), 1.0))
	one := e.Eq(0).Or(x.Eq(1)).Or(x.Eq(-1).And(e.IsInf(true, true)))
	return one.Where(1.0, r)
}

// powConst is powFloats for an exponent that is one constant, ev: which of
// the special cases can occur is known while the graph is built, and the
// kernel computes only those (a finite fractional ev goes to fracPow). The
// sign of -0.0 (a division, 1/x < 0) is tested only for an odd ev, and
// -1 joins 1 among the bases whose power is 1 only for an infinite ev.
// The result is powAny's, bit for bit (NaN for NaN): a select whose
// condition is false everywhere, or a product with 1, is left out.
func powConst(x, e *Tensor, ev float64) *Tensor {
	if ev == 0 {
		return x.OnesLike() // 1 even for a NaN base
	}
	if ev != math.Floor(ev) && !math.IsInf(ev, 0) && ev == ev {
		return fracPow(x, e, ev)
	}
	zero := x.Eq(0)
	mag := zero.Where(1.0, x.Abs()).Log2().Mul(e).Exp2()
	at0 := math.NaN()
	if ev > 0 {
		at0 = 0
	} else if ev < 0 {
		at0 = math.Inf(1)
	}
	r := zero.Where(at0, mag)
	if ev-math.Floor(ev*0.5)*2 == 1 { // odd: exact in float64 as in the operands' dtype
		r = x.Lt(0).Or(zero.And(x.Reciprocal().Lt(0))).Where(r.Neg(), r)
	}
	// (A NaN ev, the one exponent here that is not an integer, has r NaN
	// everywhere already: powAny's NaN at negative bases is no select here.)
	one := x.Eq(1)
	if math.IsInf(ev, 0) {
		one = one.Or(x.Eq(-1))
	}
	return one.Where(1.0, r)
}

// fracPow is powConst for a finite exponent ev that is not an integer:
// 2**(ev*log2 x) with nothing around it but one select. IEEE log2 and exp2
// give C's pow at every special base themselves: log2 of ±0 is -inf (0 for
// ev > 0 through exp2(-inf), inf for ev < 0), of a negative number NaN, of
// +inf +inf, of NaN NaN, and log2(1) is exactly 0 (1 through exp2(0)). Only
// -inf, whose log2 is NaN, needs its own value: +inf for ev > 0, 0 for
// ev < 0. x ** 1.3 with powConst's zero and sign selects took 6.0 ms over 4M
// floats on one thread in a C harness (best of 8), 5.3 ms without them.
// The gradient is pow's own rule (torch's), not this graph's.
func fracPow(x, e *Tensor, ev float64) *Tensor {
	atNegInf := 0.0
	if ev > 0 {
		atNegInf = math.Inf(1)
	}
	return x.IsInf(false, true).Where(atNegInf, x.Log2().Mul(e).Exp2())
}

// halfIntPow returns x**v for a float x and a half-integer v (|v| >= 1.5)
// as x**k * sqrt(x), which is tinygrad's rewrite: more exact than
// 2**(v*log2 x), whose rounded logarithm is scaled by v, and a few
// multiplies instead of two transcendental helpers (x ** 2.5 over 4M floats
// took 7 ms against NumPy's 5.8). The special values are C's pow: -0 and
// -inf, which the product would give as -0 and NaN, are +0 and +inf, and a
// negative power is the reciprocal of the positive one (0 -> inf, inf -> 0).
// The gradient is torch's, v * x**(v-1): the product's own would be 0 * inf
// at 0.
func halfIntPow(x *Tensor, v float64) *Tensor {
	k := int(math.Abs(v) - 0.5)
	r := intPow(x, k).Mul(x.Sqrt())
	r = x.Eq(0).Or(x.IsInf(false, true)).Where(x.Abs(), r)
	if v < 0 {
		r = r.Reciprocal()
	}
	return withGrad(r, []*Tensor{x}, func(g *Tensor) []*Tensor {
		return []*Tensor{g.Mul(v).Mul(x.Pow(v - 1))}
	})
}

// intPow returns x**k for k >= 0 by repeated squaring.
func intPow(x *Tensor, k int) *Tensor {
	if k == 0 {
		return x.OnesLike()
	}
	var acc *Tensor
	for sq := x; k > 0; k >>= 1 {
		if k&1 == 1 {
			if acc == nil {
				acc = sq
			} else {
				acc = acc.Mul(sq)
			}
		}
		if k > 1 {
			sq = sq.Mul(sq)
		}
	}
	return acc
}
