package tensor

import "math"

// Activations and the rest of tinygrad's unary math. Each is built from the
// primitive ops, so its gradient comes from their rules; the forms are
// chosen so that the gradient is torch's everywhere, edge points included:
// a piecewise function selects its pieces with Where (whose gradient goes to
// the chosen piece only), and a piece that would overflow where it is not
// chosen gets a harmless input there, since a zero gradient times an
// infinite derivative is NaN.

// pick returns where(c, a, b) for a float tensor c-shaped: a helper that
// reads as the math does.
func pick(c *Tensor, a, b any) *Tensor { return c.Where(a, b) }

// le and ge are x <= v and x >= v, false for NaN (Le is not Gt, which is
// true for NaN), so that the piecewise functions pass NaN through.
func le(x *Tensor, v float64) *Tensor { return x.Lt(v).Or(x.Eq(v)) }
func ge(x *Tensor, v float64) *Tensor { return x.Gt(v).Or(x.Eq(v)) }

// Elu returns alpha*(e**x - 1) where x <= 0 and x elsewhere (NaN too,
// with gradient 1 there as torch's).
func (t *Tensor) Elu(alpha float64) *Tensor {
	x := t.floatOf()
	neg := le(x, 0)
	return pick(neg, pick(neg, x, 0.0).Exp().Sub(1.0).Mul(alpha), x)
}

// Celu returns max(0, x) + min(0, alpha*(e**(x/alpha) - 1)).
func (t *Tensor) Celu(alpha float64) *Tensor {
	x := t.floatOf()
	neg := le(x, 0)
	return pick(neg, pick(neg, x, 0.0).Div(alpha).Exp().Sub(1.0).Mul(alpha), x)
}

// Selu returns gamma*elu(x, alpha) (tinygrad's defaults are alpha=1.67326,
// gamma=1.0507).
func (t *Tensor) Selu(alpha, gamma float64) *Tensor { return t.Elu(alpha).Mul(gamma) }

// Softplus returns log1p(e**(beta*x))/beta, and x itself where beta*x is
// above threshold (torch's; it keeps large inputs finite). log(1 + e**x)
// with 1 + e**x rounded, tinygrad's form, lost the small values torch
// keeps: softplus(-16.1) was 1.19e-7 (1.0086e-7), softplus(-21) 0.
// The gradient is torch's: z/(z+1) with z = e**(beta*x), 1 above the
// threshold.
func (t *Tensor) Softplus(beta, threshold float64) *Tensor {
	x := t.floatOf()
	lin := x.Mul(beta).Gt(threshold)
	xs := pick(lin, 0.0, x)
	z := xs.Mul(beta).Exp()
	r := pick(lin, x, log1p(z).Div(beta))
	return withGrad(r, []*Tensor{x}, func(g *Tensor) []*Tensor { return []*Tensor{g.Mul(pick(lin, 1.0, z.Div(z.Add(1.0))))} })
}

// Mish returns x*tanh(softplus(x)).
func (t *Tensor) Mish() *Tensor {
	x := t.floatOf()
	return x.Mul(x.Softplus(1, 20).Tanh())
}

// Softsign returns x/(1 + |x|).
func (t *Tensor) Softsign() *Tensor {
	x := t.floatOf()
	return x.Div(x.Abs().Add(1.0))
}

// Hardsigmoid returns alpha*x + beta limited to [0, 1] (tinygrad's defaults
// alpha=1/6, beta=0.5 are torch's function); its gradient is alpha strictly
// inside and 0 elsewhere (at NaN too, as torch's).
func (t *Tensor) Hardsigmoid(alpha, beta float64) *Tensor {
	y := t.floatOf().Mul(alpha).Add(beta)
	return pick(le(y, 0), 0.0, pick(ge(y, 1), 1.0, pick(y.IsNan(), y.Detach(), y)))
}

// Hardswish returns x*relu6(x+3)/6. Left of -3 that product is x*0: -0.0,
// and NaN at -inf, as torch's; those are constants there (no gradient).
func (t *Tensor) Hardswish() *Tensor {
	x := t.floatOf()
	in := le(x, 3)
	xs := pick(ge(x, -3).And(in), x, 0.0) // no NaN or inf reaches mid's gradient
	mid := xs.Mul(xs.Add(3.0)).Mul(1.0 / 6)
	low := pick(x.Eq(math.Inf(-1)), math.NaN(), math.Copysign(0, -1))
	// (NaN takes the x branch: its gradient is 1 there, as torch's.)
	return pick(x.Lt(-3), low, pick(in, mid, x))
}

// Hardtanh returns x limited to [lo, hi]; the gradient is 1 strictly
// inside (and at NaN) and 0 elsewhere, as torch's. At a bound x itself is
// the result, as torch's: hardtanh(-0.0, 0, 1) is -0.0.
func (t *Tensor) Hardtanh(lo, hi float64) *Tensor {
	x := t.floatOf()
	xd := x.Detach()
	return pick(le(x, lo), pick(x.Lt(lo), lo, xd), pick(ge(x, hi), pick(x.Gt(hi), hi, xd), x))
}

// Relu6 returns x limited to [0, 6].
func (t *Tensor) Relu6() *Tensor { return t.Hardtanh(0, 6) }

// LeakyRelu returns x where x > 0 and slope*x elsewhere.
func (t *Tensor) LeakyRelu(slope float64) *Tensor {
	x := t.floatOf()
	return pick(x.Gt(0), x, x.Mul(slope))
}

// QuickGelu returns x*sigmoid(1.702x).
func (t *Tensor) QuickGelu() *Tensor {
	x := t.floatOf()
	return x.Mul(x.Mul(1.702).Sigmoid())
}

// Swish returns x*sigmoid(x) (also Silu).
func (t *Tensor) Swish() *Tensor {
	x := t.floatOf()
	return x.Mul(x.Sigmoid())
}

// Sinh returns (e**x - e**-x)/2, and below |x| = 1 its Taylor series to
// x**11 (error below 2e-10; for float64 to x**23), which keeps small x's
// digits where the difference of exponentials cancels (sinh(1e-5) is
// 1e-5, not 1.0013e-5); -0 stays -0. Past |x| = 88 it is computed as h*h/2 with h = e**(|x|/2),
// finite up to 89.4 as torch's, where e**|x| overflows float32. The
// gradient is cosh.
func (t *Tensor) Sinh() *Tensor {
	x := t.floatOf()
	sq := x.Square()
	series := oddPoly(x, sq, []float64{1.0 / 39916800, 1.0 / 362880, 1.0 / 5040, 1.0 / 120, 1.0 / 6}, sinhTaylor64)
	r := pick(sq.Lt(1), series, expHalves(x, false))
	return withGrad(r, []*Tensor{x}, func(g *Tensor) []*Tensor { return []*Tensor{g.Mul(x.Cosh())} })
}

// sinhTaylor64 is P of Sinh's x + x·z·P(z), z = x², for float64: the
// Taylor series to x**23, whose next term is below 7e-26 of sinh up to
// |x| = 1.
var sinhTaylor64 = []float64{3.868170170630684e-23, 1.9572941063391263e-20, 8.22063524662433e-18,
	2.8114572543455206e-15, 7.647163731819816e-13, 1.6059043836821613e-10, 2.505210838544172e-08,
	2.7557319223985893e-06, 0.0001984126984126984, 0.008333333333333333, 0.16666666666666666}

// oddPoly returns u + u·z·P(z) for z = u², P's coefficients highest first:
// p64 for a float64 u (series long enough for float64), else p32.
func oddPoly(u, z *Tensor, p32, p64 []float64) *Tensor {
	p := p32
	if u.n.dtype == Float64 {
		p = p64
	}
	return u.Add(u.Mul(z).Mul(polyN(z, p...)))
}

// Cosh returns (e**x + e**-x)/2, finite up to |x| = 89.4 as Sinh. The
// gradient is sinh.
func (t *Tensor) Cosh() *Tensor {
	x := t.floatOf()
	return withGrad(expHalves(x, true), []*Tensor{x}, func(g *Tensor) []*Tensor { return []*Tensor{g.Mul(x.Sinh())} })
}

// expHalves returns (e**x ± e**-x)/2 (plus for cosh) from v = e**s and
// w = e**-s: s is x, or x/2 past |x| = 88, where the result is
// v*v/2 ± w*w/2 (one of the two underflows to 0).
func expHalves(x *Tensor, plus bool) *Tensor {
	big := x.Gt(88).Or(x.Lt(-88))
	s := pick(big, x.Mul(0.5), x)
	v, w := s.Exp(), s.Neg().Exp()
	vv, ww := v.Mul(v.Mul(0.5)), w.Mul(w.Mul(0.5))
	if plus {
		return pick(big, vv.Add(ww), v.Add(w).Mul(0.5))
	}
	return pick(big, vv.Sub(ww), v.Sub(w).Mul(0.5))
}

// polyN evaluates c[0]*x**(n-1) + ... + c[n-1] by Horner's rule.
func polyN(x *Tensor, c ...float64) *Tensor {
	acc := x.ZerosLike().Add(c[0])
	for _, k := range c[1:] {
		acc = acc.Mul(x).Add(k)
	}
	return acc
}

// odd returns f(|x|) with the sign of x, and x itself at ±0 (an odd
// function's value there, which f's arithmetic would give as +0 for -0).
// |x| is taken by Where so that the gradient at 0 is f'(0), not 0; the
// zero's pick passes 1 there, so callers give their gradient (withGrad).
func odd(x *Tensor, f func(*Tensor) *Tensor) *Tensor {
	neg := x.Lt(0)
	y := f(pick(neg, x.Neg(), x))
	return pick(x.Eq(0), x, pick(neg, y.Neg(), y))
}

// Asin returns the arcsine: on |x|, up to 1/2 x + x³·P(x²) (P of degree
// 5 fitted here for relative error below 3e-10), beyond pi/2 - 2·asin(u)
// with u = sqrt((1-|x|)/2) <= 1/2, the same polynomial; NaN outside
// [-1, 1], -0 kept. (Abramowitz and Stegun's 4.4.46, tinygrad's, gave
// 1.2e-7 for asin(0).) The gradient is torch's, 1/sqrt(1-x²).
func (t *Tensor) Asin() *Tensor {
	x := t.floatOf()
	r := odd(x, func(a *Tensor) *Tensor {
		near, p := asinCore(a)
		return pick(near, p, halfPiMinus(p.Mul(2.0)))
	})
	return withGrad(r, []*Tensor{x}, func(g *Tensor) []*Tensor { return []*Tensor{g.Div(x.Square().RSub(1.0).Sqrt())} })
}

// Acos returns the arccosine: pi/2 - asin(x) up to |x| = 1/2, beyond
// 2·asin(u) (x > 0) or pi - 2·asin(u) (x < 0) with u = sqrt((1-|x|)/2), so
// that acos near 1 keeps its digits (acos(0.99999994) was 1267 ulp off as
// pi/2 - asin). The gradient is torch's, -1/sqrt(1-x²).
func (t *Tensor) Acos() *Tensor {
	x := t.floatOf()
	neg := x.Lt(0)
	near, p := asinCore(pick(neg, x.Neg(), x))
	far := pick(neg, p.Mul(-2.0).Add(math.Pi-float64(float32(math.Pi))).Add(float64(float32(math.Pi))), p.Mul(2.0))
	r := pick(near, halfPiMinus(pick(neg, p.Neg(), p)), far)
	return withGrad(r, []*Tensor{x}, func(g *Tensor) []*Tensor { return []*Tensor{g.Neg().Div(x.Square().RSub(1.0).Sqrt())} })
}

// asinCore returns, for a = |x|, whether a <= 1/2 and the arcsine of a
// there, or of sqrt((1-a)/2) beyond (NaN past 1).
func asinCore(a *Tensor) (near, p *Tensor) {
	near = le(a, 0.5)
	u := pick(near, a, a.RSub(1.0).Mul(0.5).Sqrt())
	return near, oddPoly(u, u.Square(), []float64{0.03744115678481923, 0.01449185742827084, 0.03179394983480303,
		0.044518520196767886, 0.07500496945554003, 0.16666660078960654}, asinTaylor64)
}

// asinTaylor64 and atanTaylor64 are P of u + u·z·P(z), z = u², for float64
// arcsines and arctangents of |u| <= 1/2: their Taylor series to u**47 and
// u**51, whose truncation there is below 2e-17 of the value (float32's
// polynomials, fitted to 3e-10, are what float64 had before).
var (
	asinTaylor64 = []float64{0.0024894486782468836, 0.00265787063820729, 0.002846178401108942, 0.0030578216492580306,
		0.003297059503473485, 0.0035692053938259347, 0.003880964558837669, 0.004240907093679363, 0.004660143486915096,
		0.005153309682319905, 0.005740037670841924, 0.006447210311889649, 0.0073125258735988454, 0.008390335809616815,
		0.009761609529194078, 0.011551800896139705, 0.01396484375, 0.017352764423076924, 0.022372159090909092,
		0.030381944444444444, 0.044642857142857144, 0.075, 0.16666666666666666}
	atanTaylor64 = []float64{-0.0196078431372549, 0.02040816326530612, -0.02127659574468085, 0.022222222222222223,
		-0.023255813953488372, 0.024390243902439025, -0.02564102564102564, 0.02702702702702703, -0.02857142857142857,
		0.030303030303030304, -0.03225806451612903, 0.034482758620689655, -0.037037037037037035, 0.04,
		-0.043478260869565216, 0.047619047619047616, -0.05263157894736842, 0.058823529411764705, -0.06666666666666667,
		0.07692307692307693, -0.09090909090909091, 0.1111111111111111, -0.14285714285714285, 0.2, -0.3333333333333333}
)

// halfPiMinus returns pi/2 - v with pi/2 in two floats.
func halfPiMinus(v *Tensor) *Tensor {
	return v.RSub(math.Pi/2 - float64(float32(math.Pi/2))).Add(float64(float32(math.Pi / 2)))
}

// Atan returns the arctangent. |x| is brought into [-1/2, 1/2] with one
// division: u = x up to 1/2, (x-1)/(x+1) plus pi/4 up to tan(3pi/8) (the
// numerator exact from 1/2 on), -1/x plus pi/2 beyond (infinities
// included), with pi/4 and pi/2 in two floats; atan(u) = u + u³·P(u²), P
// of degree 5 fitted here for relative error below 3e-10. Within 1 ulp of
// the exact arctangent in float32 (TestUnaryAccuracy). tinygrad's
// asin(x/sqrt(1+x²)) computed the arcsine's polynomial twice here and took
// 10 ms for 4096x1024 against NumPy's 2. The gradient is torch's,
// 1/(1+x²).
func (t *Tensor) Atan() *Tensor {
	x := t.floatOf()
	r := odd(x, func(a *Tensor) *Tensor {
		near := le(a, 0.5)
		mid := le(a, math.Sqrt2+1)
		num := pick(near, a, pick(mid, a.Sub(1.0), -1.0))
		den := pick(near, 1.0, pick(mid, a.Add(1.0), a))
		u := num.Div(den)
		at := oddPoly(u, u.Square(), []float64{0.038588112332296545, -0.07973874777829379, 0.10938104100375595,
			-0.142717051965862, 0.19999468275627072, -0.3333332650402622}, atanTaylor64)
		// pi/4 and pi/2 as float32 plus what float32 rounds off them, as
		// constants of a's dtype (two Go floats picked give float32, which
		// would round lo: 17 ulps of a float64 arctangent).
		k := func(v float64) *Tensor { return a.n.eng.Scalar(v, a.n.dtype) }
		hi := pick(mid, k(float64(float32(math.Pi/4))), k(float64(float32(math.Pi/2))))
		lo := pick(mid, k(math.Pi/4-float64(float32(math.Pi/4))), k(math.Pi/2-float64(float32(math.Pi/2))))
		return pick(near, at, hi.Add(at.Add(lo)))
	})
	return withGrad(r, []*Tensor{x}, func(g *Tensor) []*Tensor { return []*Tensor{g.Div(x.Square().Add(1.0))} })
}

// hugeArc is where asinh and acosh switch to log(2x): x² overflows float32
// beyond it.
const hugeArc = 1e18

// Asinh returns log(x + sqrt(x²+1)), computed on |x| as log1p(x +
// x²/(1+sqrt(1+x²))) so that small x keep their digits (asinh(1e-5) is
// 1e-5, where log(1.00001) kept two); -0 stays -0. The gradient is torch's,
// 1/sqrt(x²+1).
func (t *Tensor) Asinh() *Tensor {
	x := t.floatOf()
	r := odd(x, func(a *Tensor) *Tensor {
		s := pick(a.Gt(hugeArc), 1.0, a)
		sq := s.Square()
		return arcLog(a, s.Add(sq.Div(sq.Add(1.0).Sqrt().Add(1.0))))
	})
	return withGrad(r, []*Tensor{x}, func(g *Tensor) []*Tensor { return []*Tensor{g.Div(x.Square().Add(1.0).Sqrt())} })
}

// Acosh returns log(x + sqrt(x²-1)) as log1p(t + sqrt(t·(x+1))) with
// t = x-1 (exact near 1, where x²-1 cancels); NaN below 1. The gradient is
// torch's, 1/sqrt(x²-1).
func (t *Tensor) Acosh() *Tensor {
	x := t.floatOf()
	s := pick(x.Gt(hugeArc), 2.0, x)
	d := s.Sub(1.0)
	r := pick(x.Lt(1.0), math.NaN(), arcLog(x, d.Add(d.Mul(s.Add(1.0)).Sqrt())))
	return withGrad(r, []*Tensor{x}, func(g *Tensor) []*Tensor { return []*Tensor{g.Div(x.Square().Sub(1.0).Sqrt())} })
}

// arcLog returns log1p(y), y being x + sqrt(x² ± 1) - 1 computed without
// cancellation, and log(x) + ln 2 where x exceeds hugeArc (x² would
// overflow; y is then unused). One log: log1p(y) is log(u)·y/(u-1) for
// u = 1+y rounded, whose rounding the quotient cancels, and y where u is 1.
func arcLog(x, y *Tensor) *Tensor {
	huge := x.Gt(hugeArc)
	u := y.Add(1.0)
	l := pick(huge, x, u).Log()
	return pick(huge, l.Add(math.Ln2), log1pOf(y, u, l))
}

// log1p returns log(1+y) without the cancellation of rounding 1+y.
func log1p(y *Tensor) *Tensor {
	u := y.Add(1.0)
	return log1pOf(y, u, u.Log())
}

// log1pOf returns log1p(y) from u = 1+y rounded and l = log(u): l·y/(u-1),
// whose quotient undoes u's rounding, and y where u is 1.
func log1pOf(y, u, l *Tensor) *Tensor {
	return pick(u.Eq(1.0), y, l.Mul(y.Div(u.Sub(1.0))))
}

// Atanh returns log((1+x)/(1-x))/2, on |x| as log1p(2|x|/(1-|x|))/2 so
// that small x keep their digits (atanh(1e-5) was 1.0013e-5); ±inf at ±1,
// NaN beyond, -0 kept. The gradient is torch's, 1/(1-x²).
func (t *Tensor) Atanh() *Tensor {
	x := t.floatOf()
	r := odd(x, func(a *Tensor) *Tensor {
		y := log1p(a.Mul(2.0).Div(a.RSub(1.0))).Mul(0.5)
		return pick(a.Eq(1), math.Inf(1), y)
	})
	return withGrad(r, []*Tensor{x}, func(g *Tensor) []*Tensor { return []*Tensor{g.Div(x.Square().RSub(1.0))} })
}

// Erf returns the error function: on |x|, below 1 x·P(x²) (P of degree
// 6 fitted here for relative error below 1.3e-9), beyond Abramowitz and
// Stegun's 7.1.26 (tinygrad's, error below 1.5e-7 absolute); -0 kept. A&S
// alone gave erf(1e-30) = 0 and erf(0.414) 6 ulp off. float64 has its own
// (erf64). The gradient is
// torch's, 2/sqrt(pi)·e**-x².
func (t *Tensor) Erf() *Tensor {
	x := t.floatOf()
	if x.n.dtype == Float64 {
		return withGrad(odd(x, erf64), []*Tensor{x}, func(g *Tensor) []*Tensor {
			return []*Tensor{g.Mul(x.Square().Neg().Exp().Mul(2 / math.SqrtPi))}
		})
	}
	r := odd(x, func(a *Tensor) *Tensor {
		near := a.Mul(polyN(a.Square(), 7.847262811518096e-05, -0.0008008190442209406, 0.005188099016491851,
			-0.02685369116577463, 0.11283582249519547, -0.3761262556752367, 1.1283791656893385))
		u := a.Mul(0.3275911).Add(1.0).Reciprocal()
		p := polyN(u, 1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)
		far := u.Mul(p).Mul(a.Square().Neg().Exp()).RSub(1.0)
		return pick(a.Lt(1), near, far)
	})
	return withGrad(r, []*Tensor{x}, func(g *Tensor) []*Tensor {
		return []*Tensor{g.Mul(x.Square().Neg().Exp().Mul(2 / math.SqrtPi))}
	})
}

// erf64 is Erf of a = |x| in float64, within a few ulps (A&S's 1.5e-7 is
// float32's): below 1.5, 2/sqrt(pi)·e**-a²·Σ a**(2n+1)·2**n/(2n+1)!!,
// every term positive (the alternating Taylor series loses 16 ulps to
// cancellation at 2), to n = 30; from 1.5, 1 - erfc with erfc's continued
// fraction e**-a²/sqrt(pi)/(a + (1/2)/(a + 1/(a + (3/2)/(a + ...)))) 100
// deep (the series' roundings add up to 5 ulps by 2; the fraction needs
// 160 levels from 1); from 6, where erfc is below half an ulp of 1, 1.
// e**-a² takes a² unrounded: a² = h + l by Dekker's split, e**-h·(1 - l)
// (h alone cost 4 ulps near 2).
func erf64(a *Tensor) *Tensor {
	c := a.Mul(134217729.0) // 2**27 + 1
	ah := c.Sub(c.Sub(a))
	al := a.Sub(ah)
	h := a.Mul(a)
	l := ah.Mul(ah).Sub(h).Add(ah.Mul(al).Mul(2.0)).Add(al.Mul(al))
	e := h.Neg().Exp().Mul(l.RSub(1.0))
	z := h.Mul(2.0)
	s := z.ZerosLike().Add(1.0)
	for n := 30; n >= 1; n-- {
		s = s.Mul(z).Div(float64(2*n + 1)).Add(1.0)
	}
	near := e.Mul(a).Mul(s).Mul(2 / math.SqrtPi)
	t := a
	for k := 100; k >= 1; k-- {
		t = a.Add(t.Reciprocal().Mul(float64(k) / 2))
	}
	far := e.Div(t).Mul(1 / math.SqrtPi).RSub(1.0)
	return pick(a.Lt(1.5), near, pick(ge(a, 6), 1.0, far)) // NaN: far
}

// IsNan returns x != x as bool.
func (t *Tensor) IsNan() *Tensor { return t.Ne(t) }

// IsInf returns where x is +inf (if pos) or -inf (if neg) as bool.
func (t *Tensor) IsInf(pos, neg bool) *Tensor {
	out := t.n.eng.Full(t.n.shape, 0, Bool)
	if !t.n.dtype.IsFloat() {
		return out
	}
	if pos {
		out = out.Or(t.Eq(math.Inf(1)))
	}
	if neg {
		out = out.Or(t.Eq(math.Inf(-1)))
	}
	return out
}
