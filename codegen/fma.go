package codegen

import "math"

// FMA32 returns a*b + c computed exactly and rounded once to float32 (C's
// fmaf), the value of a float32 MULACC on every device. The product of two
// float32s is exact in float64; the sum p+c rounded to float64 is then made
// to round to odd (its error, from Knuth's two-sum, is nonzero and its last
// bit even: step it one ulp toward the exact sum), and a float64 rounded to
// odd rounds to float32 as the exact sum would, since float64 carries more
// than float32's precision plus two bits. Rounding the float64 sum directly
// would round twice, which differs when the first rounding lands on a
// float32 halfway point.
func FMA32(a, b, c float32) float32 {
	// The float64 sum rounds as the exact one unless it is inexact and
	// lands on a float32 halfway point (its low 29 bits 1 followed by
	// zeros): only then can two roundings differ. Below float32's normal
	// range (an exponent under -126) the halfway points are elsewhere.
	p, z := float64(a)*float64(b), float64(c)
	s := p + z
	if x := math.Float64bits(s); x&(1<<29-1) != 1<<28 && x&(0x7ff<<52) >= (1023-126)<<52 || s-p == z && s-z == p {
		return float32(s)
	}
	return fma32Odd(a, b, c)
}

// fma32Odd is FMA32 through a float64 sum rounded to odd.
func fma32Odd(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return float32(s)
	}
	v := s - p
	e := (p - (s - v)) + (float64(c) - v)
	if bits := math.Float64bits(s); e != 0 && bits&1 == 0 {
		if (e > 0) == (s > 0) {
			bits++
		} else {
			bits--
		}
		s = math.Float64frombits(bits)
	}
	return float32(s)
}
