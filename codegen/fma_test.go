package codegen

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// fmaExact is a*b + c rounded once to float32 through math/big.
func fmaExact(a, b, c float32) float32 {
	if x, y, z := float64(a), float64(b), float64(c); math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsInf(z, 0) ||
		math.IsNaN(x) || math.IsNaN(y) || math.IsNaN(z) {
		return float32(x*y + z)
	}
	p := new(big.Float).SetPrec(2000).SetFloat64(float64(a))
	p.Mul(p, new(big.Float).SetFloat64(float64(b)))
	p.Add(p, new(big.Float).SetFloat64(float64(c)))
	if p.Sign() == 0 {
		// An exact zero sum is +0 unless both addends are -0.
		return float32(float64(a)*float64(b) + float64(c))
	}
	f, _ := p.Float32()
	return f
}

// TestFMA32 checks FMA32 against an exact sum rounded once: random
// operands of every magnitude, and sums built to fall on float32 halfway
// points after a float64 rounding, where rounding twice goes wrong.
func TestFMA32(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	check := func(a, b, c float32) {
		got, want := FMA32(a, b, c), fmaExact(a, b, c)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("FMA32(%g, %g, %g) = %g (%#x), want %g (%#x)", a, b, c, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
	twice := 0
	for range 100000 {
		a := math.Float32frombits(rng.Uint32())
		b := math.Float32frombits(rng.Uint32())
		c := math.Float32frombits(rng.Uint32())
		check(a, b, c)
		// Halfway cases: a*b with 24+24 significant bits plus a c that
		// nearly cancels the low half, leaving a float32 halfway point
		// plus a tiny remainder.
		a = float32(1 + float64(rng.Intn(1<<23))/(1<<23))
		b = float32(1 + float64(rng.Intn(1<<23))/(1<<23))
		p := float64(a) * float64(b)
		h := float64(float32(p))
		ulp := float64(math.Nextafter32(float32(h), float32(math.Inf(1)))) - h
		for _, d := range []float64{-1, 1} {
			c := float32(h + ulp/2 - p + d*math.Ldexp(1, -60))
			if float32(p+float64(c)) != fmaExact(a, b, c) {
				twice++
			}
			check(a, b, c)
			check(-a, b, -c)
		}
		check(a, b, float32(math.Ldexp(1, -130)))
		// Products on a float32 halfway point below the normal range, plus
		// or minus a remainder far smaller.
		k := float32(2*rng.Intn(1<<10) + 1)
		for _, d := range []float64{-1, 1} {
			check(k*float32(math.Ldexp(1, -75)), float32(math.Ldexp(1, -75)), float32(d*math.Ldexp(1, -149)))
			check(k*float32(math.Ldexp(1, -60)), float32(math.Ldexp(1, -90)), float32(d*math.Ldexp(1, -149)))
		}
		check(a, -b, float32(-p))
	}
	if twice == 0 {
		t.Errorf("no case rounded differently twice than once: the halfway cases miss")
	}
	for _, v := range [][3]float32{{0, 0, 0}, {float32(math.Copysign(0, -1)), 1, float32(math.Copysign(0, -1))}, {3.4e38, 2, -3.4e38}, {1e-30, 1e-30, 1e-45},
		{float32(math.Inf(1)), 0, 1}, {float32(math.Inf(1)), 1, float32(math.Inf(-1))}, {1, 1, float32(math.NaN())}} {
		check(v[0], v[1], v[2])
	}
}
