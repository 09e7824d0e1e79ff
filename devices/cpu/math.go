package cpu

import (
	"math"
	"unsafe"

	"tiny/codegen"
)

// This file defines float32 exp2, log2 and sin that evaluate polynomials in
// float64: accurate to far below a float32 ulp, so their float32 results are
// those of math's (correctly rounded but for rare double-rounding ties),
// in a fraction of the time.

// widen converts a float32 to float64 with integer operations. The SSE
// conversion instruction writes half a register and so waits for the
// register's previous value, which chains every call of a loop to the last.
func widen(x float32) float64 {
	b := math.Float32bits(x)
	e := (b >> 23) & 0xff
	if e == 0 || e == 0xff {
		return float64(x)
	}
	return math.Float64frombits(uint64(b&0x80000000)<<32 | uint64(e+1023-127)<<52 | uint64(b&0x7fffff)<<29)
}

// exp2Consts are exp2Run's constants for its assembly version, as bits:
// the rounding shift, ln 2, the polynomial's coefficients, the range, the
// table mask and the exponent bias times 32.
var exp2Consts = [10]uint64{
	math.Float64bits(0x1.8p47), math.Float64bits(math.Ln2), math.Float64bits(1), math.Float64bits(1.0 / 2),
	math.Float64bits(1.0 / 6), math.Float64bits(1.0 / 24), math.Float64bits(128), math.Float64bits(-151),
	31, 1023 * 32,
}

// exp2Table holds 2**(j/32) for j in [0, 32).
var exp2Table = func() (t [32]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / 32)
	}
	return t
}()

// exp2f returns 2**x: x = n + j/32 + f with |f| <= 1/64, so
// 2**x = 2**n * table[j] * 2**f, where a short polynomial gives 2**f.
func exp2f(x float32) float32 { return exp2v(widen(x)) }

// exp2v returns 2**v rounded to float32, for v a float32 or a product of
// one with a scale, unrounded (a folded EXP2's argument).
func exp2v(v float64) float32 {
	switch {
	case v != v:
		return float32(v)
	case v >= 128:
		return float32(math.Inf(1))
	case v < -151:
		return 0
	}
	k := int64(v*32+8192.5) - 8192 // round to nearest; the truncation sees a positive number
	f := (v - float64(k)*(1.0/32)) * math.Ln2
	p := 1 + f*(1+f*(1.0/2+f*(1.0/6+f*(1.0/24+f*(1.0/120)))))
	return float32(p * exp2Table[k&31] * math.Float64frombits(uint64((k>>5)+1023)<<52))
}

// log2f returns log2(x).
func log2f(x float32) float32 { return float32(log2d(x)) }

// log2d returns log2(x) unrounded, within about 1e-15 of the exact value.
func log2d(x float32) float64 {
	v := widen(x)
	switch {
	case v != v || v < 0:
		return math.NaN()
	case v == 0:
		return math.Inf(-1)
	case math.IsInf(v, 1):
		return v
	}
	b := math.Float64bits(v)
	e := int64(b>>52) - 1023
	m := math.Float64frombits(b&(1<<52-1) | 1023<<52) // [1, 2)
	if m > math.Sqrt2 {
		m /= 2
		e++
	}
	s := (m - 1) / (m + 1) // |s| <= 0.172
	s2 := s * s
	ln := 2 * s * (1 + s2*(1.0/3+s2*(1.0/5+s2*(1.0/7+s2*(1.0/9+s2*(1.0/11+s2*(1.0/13+s2*(1.0/15))))))))
	return float64(e) + ln/math.Ln2
}

// powRun sets d[i] = 2**(s*log2 a[i]) with the logarithm and the product
// unrounded (a folded pow: codegen.OptPow).
func powRun(d, a []float32, s float64) {
	a = a[:len(d)]
	for i, x := range a {
		d[i] = exp2v(s * log2d(x))
	}
}

// The parts of pi/2 for Cody-Waite reduction (fdlibm's): k*pio2a is exact
// for |k| < 2**20.
const (
	pio2a = 1.57079632673412561417e+00
	pio2b = 6.07710050630396597660e-11
	pio2c = 2.02226624871116645580e-21
)

// fastUnary returns the float32 loop of exp2, log2 or sin.
func fastUnary(op codegen.Op) func(d, a []float32) {
	switch op {
	case codegen.OpExp2:
		return exp2Run
	case codegen.OpLog2:
		return func(d, a []float32) {
			a = a[:len(d)]
			for i := range d {
				d[i] = log2f(a[i])
			}
		}
	}
	return sinRun
}

// as reinterprets a run of T as a run of U, for a T known to be U.
func as[U, T any](x []T) []U {
	if len(x) == 0 {
		return nil
	}
	return unsafe.Slice((*U)(unsafe.Pointer(&x[0])), len(x))
}

// exp2Run sets d[i] = 2**a[i], with exp2f's method written out in the loop
// (a call per element costs as much as the arithmetic), and cheaper steps:
// adding 1.5*2**47 rounds to a multiple of 1/32 and leaves it in the low
// bits, instead of two conversions between float and int, and a degree-4
// polynomial suffices for |f| <= ln2/64 (error below 2**-40).
func exp2Run(d, a []float32) {
	a = a[:len(d)]
	simdRuns(len(d), func(i, n int) int {
		// (x + 0) * 1 is x but for -0, whose power is that of +0.
		return exp2RunAVX2(&d[i], &a[i], n, &exp2Table[0], &exp2Consts[0], 0, 1)
	}, func(lo, hi int) { exp2RunGo(d[lo:hi], a[lo:hi]) })
}

// simdRuns runs a loop over n elements through its assembly version asm
// where the CPU has AVX2, and through its Go version for the rest. asm(i, n)
// does up to n elements (a multiple of 4) from i and returns how many it
// did, stopping before a group of four that needs the Go loop's special
// cases; goLoop(lo, hi) does elements [lo, hi).
func simdRuns(n int, asm func(i, n int) int, goLoop func(lo, hi int)) {
	i := 0
	for useAVX2 && n-i >= 4 {
		i += asm(i, (n-i)&^3)
		if n-i < 4 {
			break
		}
		goLoop(i, i+4) // a group with a special case
		i += 4
	}
	goLoop(i, n)
}

// exp2RunGo is exp2Run's loop in Go.
func exp2RunGo(d, a []float32) {
	const shift = 0x1.8p47
	a = a[:len(d)]
	for i, x := range a {
		v := float64(x)
		if !(v < 128 && v >= -151) { // NaN, overflow and underflow
			d[i] = exp2f(x)
			continue
		}
		t := v + shift
		k := int64(math.Float64bits(t)) - int64(math.Float64bits(shift))
		f := (v - (t - shift)) * math.Ln2
		p := 1 + f*(1+f*(1.0/2+f*(1.0/6+f*(1.0/24))))
		d[i] = float32(p * exp2Table[k&31] * math.Float64frombits(uint64((k>>5)+1023)<<52))
	}
}

// exp2ScaledRun sets d[i] = 2**((a[i] + add) * mul), the sum rounded to
// float32, the product not (a folded EXP2: codegen.Exp2Scale): exp2Run's
// loop with its argument computed in place.
func exp2ScaledRun(d, a []float32, add float32, mul float64) {
	a = a[:len(d)]
	simdRuns(len(d), func(i, n int) int {
		return exp2RunAVX2(&d[i], &a[i], n, &exp2Table[0], &exp2Consts[0], add, mul)
	}, func(lo, hi int) { exp2ScaledRunGo(d[lo:hi], a[lo:hi], add, mul) })
}

// exp2ScaledRunGo is exp2ScaledRun's loop in Go.
func exp2ScaledRunGo(d, a []float32, add float32, mul float64) {
	const shift = 0x1.8p47
	a = a[:len(d)]
	for i, x := range a {
		v := float64(x+add) * mul
		if !(v < 128 && v >= -151) { // NaN, overflow and underflow
			d[i] = exp2v(v)
			continue
		}
		t := v + shift
		k := int64(math.Float64bits(t)) - int64(math.Float64bits(shift))
		f := (v - (t - shift)) * math.Ln2
		p := 1 + f*(1+f*(1.0/2+f*(1.0/6+f*(1.0/24))))
		d[i] = float32(p * exp2Table[k&31] * math.Float64frombits(uint64((k>>5)+1023)<<52))
	}
}

// The parts of pi for Cody-Waite reduction: twice fdlibm's parts of pi/2,
// so k*pia is exact for |k| < 2**20.
const (
	pia = 2 * pio2a
	pib = 2 * pio2b
	pic = 2 * pio2c
)

// sinRun sets d[i] = sin(a[i]). It reduces by multiples of pi rather than
// pi/2, so that one odd polynomial on [-pi/2, pi/2] (Taylor to r**15, error
// below 2**-37) and a sign flip replace a sine and a cosine polynomial and a
// select by quadrant. Adding 1.5*2**52 rounds x/pi to the integer k and
// leaves k's parity in the lowest bit.
func sinRun(d, a []float32) {
	a = a[:len(d)]
	simdRuns(len(d), func(i, n int) int {
		return sinRunAVX2(&d[i], &a[i], n, &sinConsts[0])
	}, func(lo, hi int) { sinRunGo(d[lo:hi], a[lo:hi]) })
}

// sinConsts are sinRun's constants for its assembly version, as float64
// bits: the bound, 1/pi, the rounding shift, pi in three parts, 1, and the
// polynomial's coefficients from 1/3! to 1/15!.
var sinConsts = [15]uint64{
	math.Float64bits(1e5), math.Float64bits(1 / math.Pi), math.Float64bits(0x1.8p52),
	math.Float64bits(pia), math.Float64bits(pib), math.Float64bits(pic), math.Float64bits(1),
	math.Float64bits(1.0 / 6), math.Float64bits(1.0 / 120), math.Float64bits(1.0 / 5040), math.Float64bits(1.0 / 362880),
	math.Float64bits(1.0 / 39916800), math.Float64bits(1.0 / 6227020800), math.Float64bits(1.0 / 1307674368000),
	0x7fffffffffffffff,
}

// sinRunGo is sinRun's loop in Go. Each product is converted to float64,
// which rounds it, so that GOAMD64=v3 does not fuse it into a
// multiply-add: the results are those of the assembly everywhere.
func sinRunGo(d, a []float32) {
	const shift = 0x1.8p52
	a = a[:len(d)]
	for i, x := range a {
		v := float64(x)
		if !(math.Abs(v) < 1e5) {
			d[i] = float32(math.Sin(v))
			continue
		}
		t := float64(v*(1/math.Pi)) + shift // rounds to the nearest integer k
		k := t - shift
		r := ((v - float64(k*pia)) - float64(k*pib)) - float64(k*pic) // |r| <= pi/2 (a little more)
		r2 := r * r
		q := 1.0/6227020800 - float64(r2*(1.0/1307674368000))
		q = 1.0/39916800 - float64(r2*q)
		q = 1.0/362880 - float64(r2*q)
		q = 1.0/5040 - float64(r2*q)
		q = 1.0/120 - float64(r2*q)
		q = 1.0/6 - float64(r2*q)
		s := r * (1 - float64(r2*q))
		// sin(r + k*pi) = (-1)**k sin(r): flip the sign bit when k is odd.
		d[i] = float32(math.Float64frombits(math.Float64bits(s) ^ math.Float64bits(t)<<63))
	}
}
