package codegen

import "math"

// Sin is SIN in float64 for the devices that compute in Go (CPU, REF, and
// the reference evaluators of the tests): within an ulp or so of the exact
// sine, as C's and OpenCL's are. Go's math.Sin reduces |x| below 2**29 by
// pi/4 in three parts, which leaves 25-77 ulps next to the sine's zeros a
// few thousand out; Sin reduces by quarter turns with fdlibm's pi/2 in
// four parts (three of 33 bits, exact times a quarter-turn count below
// 2**20), up to 2**19 quarter turns, and leaves math.Sin the arguments
// within pi/4 (which it does not reduce) and those beyond.
func Sin(x float64) float64 {
	a := math.Abs(x)
	if !(a > math.Pi/4 && a < 1<<19) {
		return math.Sin(x)
	}
	q := math.Round(x * (2 / math.Pi))
	r := x - q*1.57079632673412561417e+00
	r -= q * 6.07710050630396597660e-11
	r -= q * 2.02226624871116645580e-21
	r -= q * 8.47842766036889956997e-32
	switch int64(q) & 3 {
	case 0:
		return math.Sin(r)
	case 1:
		return math.Cos(r)
	case 2:
		return -math.Sin(r)
	}
	return -math.Cos(r)
}
