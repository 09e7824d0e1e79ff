package cpu

import (
	"math"

	"tiny/codegen"
)

// This file defines the loops that run one ALU op over a run of elements.
// Each is generic over the register type and stenciled by the compiler per
// type, so the loop body is a plain machine operation: no call per element.

type num interface {
	~float32 | ~float64 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~int | ~int8 | ~int16 | ~uint32 | ~uint64
}

type integer interface {
	~int32 | ~int64 | ~uint8 | ~int | ~int8 | ~int16 | ~uint16 | ~uint32 | ~uint64
}

type float interface{ ~float32 | ~float64 }

type (
	vvFn[T, R any] func(d []R, a, b []T)
	vsFn[T, R any] func(d []R, a []T, b T)
)

// commutative reports whether op(a, b) == op(b, a) (for MAX only of
// integers: a float tie gives the first operand, so -0.0 and 0.0 differ).
func commutative(op codegen.Op) bool {
	switch op {
	case codegen.OpAdd, codegen.OpMul, codegen.OpMax, codegen.OpAnd, codegen.OpOr, codegen.OpXor,
		codegen.OpCmpNe, codegen.OpCmpEq:
		return true
	}
	return false
}

func arith[T num](op codegen.Op) (vvFn[T, T], vsFn[T, T]) {
	switch op {
	case codegen.OpAdd:
		return func(d, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					d[i] = a[i] + b[i]
				}
			}, func(d, a []T, b T) {
				a = a[:len(d)]
				for i := range d {
					d[i] = a[i] + b
				}
			}
	case codegen.OpSub:
		return func(d, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					d[i] = a[i] - b[i]
				}
			}, func(d, a []T, b T) {
				a = a[:len(d)]
				for i := range d {
					d[i] = a[i] - b
				}
			}
	case codegen.OpMul:
		return func(d, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					d[i] = a[i] * b[i]
				}
			}, func(d, a []T, b T) {
				a = a[:len(d)]
				for i := range d {
					d[i] = a[i] * b
				}
			}
	case codegen.OpMax:
		return func(d, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					d[i] = maxOf(a[i], b[i])
				}
			}, func(d, a []T, b T) {
				a = a[:len(d)]
				for i := range d {
					d[i] = maxOf(a[i], b)
				}
			}
	}
	return nil, nil
}

func floatArith[T float](op codegen.Op) (vvFn[T, T], vsFn[T, T]) {
	if op == codegen.OpMod {
		// fmod: exact, with the sign of a (C's fmod).
		return func(d, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					d[i] = T(math.Mod(float64(a[i]), float64(b[i])))
				}
			}, func(d, a []T, b T) {
				a = a[:len(d)]
				for i := range d {
					d[i] = T(math.Mod(float64(a[i]), float64(b)))
				}
			}
	}
	if op != codegen.OpDiv {
		return arith[T](op)
	}
	return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] / b[i]
			}
		}, func(d, a []T, b T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = a[i] / b
			}
		}
}

// intArith adds the integer ops. Division by zero gives 0 instead of a
// panic (C leaves it undefined).
func intArith[T integer](op codegen.Op) (vvFn[T, T], vsFn[T, T]) {
	var f func(a, b T) T
	switch op {
	case codegen.OpIDiv:
		return func(d, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					if b[i] != 0 {
						d[i] = a[i] / b[i]
					} else {
						d[i] = 0
					}
				}
			}, func(d, a []T, b T) {
				if b == 0 {
					clear(d)
					return
				}
				a = a[:len(d)]
				for i := range d {
					d[i] = a[i] / b
				}
			}
	case codegen.OpMod:
		return func(d, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					if b[i] != 0 {
						d[i] = a[i] % b[i]
					} else {
						d[i] = 0
					}
				}
			}, func(d, a []T, b T) {
				if b == 0 {
					clear(d)
					return
				}
				a = a[:len(d)]
				for i := range d {
					d[i] = a[i] % b
				}
			}
	case codegen.OpAnd:
		f = func(a, b T) T { return a & b }
	case codegen.OpOr:
		f = func(a, b T) T { return a | b }
	case codegen.OpXor:
		f = func(a, b T) T { return a ^ b }
	default:
		return arith[T](op)
	}
	// The bitwise ops are rare enough to go through a call per element.
	return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = f(a[i], b[i])
			}
		}, func(d, a []T, b T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = f(a[i], b)
			}
		}
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

func compare[T num](op codegen.Op) (vvFn[T, uint8], vsFn[T, uint8]) {
	switch op {
	case codegen.OpCmpLt:
		return func(d []uint8, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					d[i] = b2u(a[i] < b[i])
				}
			}, func(d []uint8, a []T, b T) {
				a = a[:len(d)]
				for i := range d {
					d[i] = b2u(a[i] < b)
				}
			}
	case codegen.OpCmpNe:
		return func(d []uint8, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					d[i] = b2u(a[i] != b[i])
				}
			}, func(d []uint8, a []T, b T) {
				a = a[:len(d)]
				for i := range d {
					d[i] = b2u(a[i] != b)
				}
			}
	case codegen.OpCmpEq:
		return func(d []uint8, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					d[i] = b2u(a[i] == b[i])
				}
			}, func(d []uint8, a []T, b T) {
				a = a[:len(d)]
				for i := range d {
					d[i] = b2u(a[i] == b)
				}
			}
	}
	return nil, nil
}

// unaryFloat returns the loop of a float unary op. Transcendentals go
// through float64 math and round back.
func unaryFloat[T float](op codegen.Op) func(d, a []T) {
	var f func(float64) float64
	switch op {
	case codegen.OpNeg:
		return negLoop[T]
	case codegen.OpRecip:
		return func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = 1 / a[i]
			}
		}
	case codegen.OpSqrt:
		// A direct call: the compiler turns it into one instruction.
		return func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = T(math.Sqrt(float64(a[i])))
			}
		}
	case codegen.OpExp2:
		f = math.Exp2
	case codegen.OpLog2:
		f = math.Log2
	case codegen.OpSin:
		f = codegen.Sin
	default:
		return nil
	}
	var z T
	if _, ok := any(z).(float32); ok {
		g := fastUnary(op)
		return func(d, a []T) { g(as[float32](d), as[float32](a)) }
	}
	return func(d, a []T) {
		a = a[:len(d)]
		for i := range d {
			d[i] = T(f(float64(a[i])))
		}
	}
}

// negLoop negates a run; floats and ints share it.
func negLoop[T num](d, a []T) {
	a = a[:len(d)]
	for i := range d {
		d[i] = -a[i]
	}
}

// unaryInt returns the loop of an integer or bool unary op.
func unaryInt[T integer](op codegen.Op) func(d, a []T) {
	switch op {
	case codegen.OpNeg:
		return negLoop[T]
	case codegen.OpNot:
		return func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = T(b2u(a[i] == 0))
			}
		}
	}
	return nil
}

// castLoop converts between register types; toBool maps nonzero to 1.
// Floats go to integers as codegen.FloatToInt says: through int32 for the
// widths of 32 bits and fewer but uint32, through int64 for the rest, each
// with its smallest value for what it cannot hold, so that the result does
// not depend on the platform (Go leaves such conversions to it).
func castLoop[S, D num](toBool, toHalf, floatToInt bool) func(d []D, a []S) {
	switch {
	case floatToInt && !toBool && viaInt32[D]():
		return func(d []D, a []S) {
			a = a[:len(d)]
			for i := range d {
				f, v := float64(a[i]), int32(math.MinInt32)
				if f > -1<<31-1 && f < 1<<31 {
					v = int32(f)
				}
				d[i] = D(v)
			}
		}
	case floatToInt && !toBool && isU64[D]():
		return func(d []D, a []S) {
			a = a[:len(d)]
			for i := range d {
				f, v := float64(a[i]), int64(math.MinInt64)
				switch {
				case f >= 1<<63 && f < 1<<64:
					v = int64(uint64(f))
				case f >= -1<<63 && f < 1<<63:
					v = int64(f)
				}
				d[i] = D(v)
			}
		}
	case floatToInt && !toBool:
		return func(d []D, a []S) {
			a = a[:len(d)]
			for i := range d {
				f, v := float64(a[i]), int64(math.MinInt64)
				if f >= -1<<63 && f < 1<<63 {
					v = int64(f)
				}
				d[i] = D(v)
			}
		}
	case toBool:
		return func(d []D, a []S) {
			a = a[:len(d)]
			for i := range d {
				d[i] = D(b2u(a[i] != 0))
			}
		}
	case toHalf:
		return func(d []D, a []S) {
			a = a[:len(d)]
			for i := range d {
				d[i] = D(codegen.HalfToFloat(codegen.Float64ToHalf(float64(a[i]))))
			}
		}
	}
	return func(d []D, a []S) {
		a = a[:len(d)]
		for i := range d {
			d[i] = D(a[i])
		}
	}
}

// viaInt32 reports whether floats convert to T through an int32
// (codegen.FloatToInt): the integer types of 32 bits and fewer but uint32.
func viaInt32[T any]() bool {
	var z T
	switch any(z).(type) {
	case int8, uint8, int16, uint16, int32:
		return true
	}
	return false
}

func isU64[T any]() bool {
	var z T
	_, ok := any(z).(uint64)
	return ok
}

// reduceRun folds a run into one value with op, using several partial
// results so that the adds do not wait on each other. A sum adds pieces of
// at most 64 pairwise, each with four partial sums, so that a float sum's
// error grows like the log of the run's length (codegen/cascade.go).
func reduceRun[T num](op codegen.Op, x []T) T {
	switch op {
	case codegen.OpAdd:
		return pairSum(x)
	}
	return foldRun(op, x)
}

// pairSum returns the sum of x, its halves (at a multiple of 64) added
// pairwise down to pieces of at most 64.
func pairSum[T num](x []T) T {
	if len(x) <= 64 {
		return foldRun(codegen.OpAdd, x)
	}
	h := (len(x)/2 + 63) &^ 63
	return pairSum(x[:h]) + pairSum(x[h:])
}

// foldRun folds a run into one value with op, using four partial results.
func foldRun[T num](op codegen.Op, x []T) T {
	switch op {
	case codegen.OpAdd:
		var s0, s1, s2, s3 T
		i := 0
		for ; i+4 <= len(x); i += 4 {
			s0 += x[i]
			s1 += x[i+1]
			s2 += x[i+2]
			s3 += x[i+3]
		}
		for ; i < len(x); i++ {
			s0 += x[i]
		}
		return (s0 + s1) + (s2 + s3)
	case codegen.OpMul:
		p := T(1)
		for _, v := range x {
			p *= v
		}
		return p
	}
	if m, ok := maxRun(x); ok {
		return m
	}
	m0, m1, m2, m3 := x[0], x[0], x[0], x[0]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		m0 = max(m0, x[i])
		m1 = max(m1, x[i+1])
		m2 = max(m2, x[i+2])
		m3 = max(m3, x[i+3])
	}
	for ; i < len(x); i++ {
		m0 = max(m0, x[i])
	}
	return max(max(m0, m1), max(m2, m3))
}

// maxRun returns the largest element of x with plain comparisons, which
// cost a quarter of the builtin max's NaN and signed-zero handling. It
// reports false, for the caller to use max, when x holds a NaN or an
// infinity (x-x is then NaN) or the result is a zero, whose sign the
// comparisons do not order.
func maxRun[T num](x []T) (T, bool) {
	m0, m1, m2, m3 := x[0], x[0], x[0], x[0]
	var z0, z1 T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		v := x[i : i+4 : i+4]
		a, b, c, d := v[0], v[1], v[2], v[3]
		if a > m0 {
			m0 = a
		}
		if b > m1 {
			m1 = b
		}
		if c > m2 {
			m2 = c
		}
		if d > m3 {
			m3 = d
		}
		z0 += (a - a) + (b - b)
		z1 += (c - c) + (d - d)
	}
	for ; i < len(x); i++ {
		if x[i] > m0 {
			m0 = x[i]
		}
		z0 += x[i] - x[i]
	}
	m := max(max(m0, m1), max(m2, m3))
	z := z0 + z1
	return m, z == z && m != 0
}

// combine returns op(a, b) for a reduce op.
func combine[T num](op codegen.Op, a, b T) T {
	switch op {
	case codegen.OpAdd:
		return a + b
	case codegen.OpMul:
		return a * b
	}
	// A max reduce's zero is +0.0 when any zero is: the sign of a zero
	// maximum is not defined across devices (the order of a reduce is not).
	return max(a, b)
}

// fma returns x*y + z as MULACC computes it: a float rounded once
// (codegen.FMA32, math.FMA), an integer wrapped. The float32 loops below
// (dot32, dotChain32, mulAdd32) inline FMA32's common case instead.
func fma[T num](x, y, z T) T {
	if one := T(1); one/2 == 0 { // an integer type (each is compiled on its own, so this folds)
		return x*y + z
	}
	switch v := any(x).(type) {
	case float32:
		return T(codegen.FMA32(v, float32(y), float32(z)))
	case float64:
		return T(math.FMA(v, float64(y), float64(z)))
	}
	return x*y + z
}

// maxOf is the MAX uop: b when it is larger than a or NaN, else a. NaN on
// either side gives NaN and a tie gives a (so max(-0.0, 0.0) is -0.0), as
// the C and OpenCL renderers' MAX.
func maxOf[T num](a, b T) T {
	if a < b || b != b {
		return b
	}
	return a
}

// mulAdd computes d = x*y + z, a MULACC, the fusion of a MUL into the ADD
// that consumes it; y and z may be scalars (length-1 runs with ys, zs = 0).
func mulAdd[T num](d, x, y []T, ys int, z []T, zs int) {
	if f, ok := any(d).([]float32); ok {
		mulAdd32(f, any(x).([]float32), any(y).([]float32), ys, any(z).([]float32), zs)
		return
	}
	x = x[:len(d)]
	switch {
	case ys == 1 && zs == 1:
		y, z = y[:len(d)], z[:len(d)]
		for i := range d {
			d[i] = fma(x[i], y[i], z[i])
		}
	case ys == 1:
		y = y[:len(d)]
		c := z[0]
		for i := range d {
			d[i] = fma(x[i], y[i], c)
		}
	case zs == 1:
		z = z[:len(d)]
		b := y[0]
		for i := range d {
			d[i] = fma(x[i], b, z[i])
		}
	default:
		b, c := y[0], z[0]
		for i := range d {
			d[i] = fma(x[i], b, c)
		}
	}
}

// dot returns the sum of x[i]*y[i] (y a scalar when ys is 0), in four
// partial sums each folded by multiply-adds.
func dot[T num](x, y []T, ys int) T {
	if f, ok := any(x).([]float32); ok {
		return T(dot32(f, any(y).([]float32), ys))
	}
	if len(x) > 64 { // pairwise, as pairSum
		h := (len(x)/2 + 63) &^ 63
		return dot(x[:h], y, ys) + dot(x[h:], y[h*ys:], ys)
	}
	var s0, s1, s2, s3 T
	i := 0
	if ys == 0 {
		b := y[0]
		for ; i+4 <= len(x); i += 4 {
			s0 = fma(x[i], b, s0)
			s1 = fma(x[i+1], b, s1)
			s2 = fma(x[i+2], b, s2)
			s3 = fma(x[i+3], b, s3)
		}
		for ; i < len(x); i++ {
			s0 = fma(x[i], b, s0)
		}
		return (s0 + s1) + (s2 + s3)
	}
	y = y[:len(x)]
	for ; i+4 <= len(x); i += 4 {
		s0 = fma(x[i], y[i], s0)
		s1 = fma(x[i+1], y[i+1], s1)
		s2 = fma(x[i+2], y[i+2], s2)
		s3 = fma(x[i+3], y[i+3], s3)
	}
	for ; i < len(x); i++ {
		s0 = fma(x[i], y[i], s0)
	}
	return (s0 + s1) + (s2 + s3)
}

// dotChain returns the sum of (x[i]*y[i] + z[i]) * w[i], where y, z and w
// may be scalars (steps 0), with the partial sums of dot: the same roundings
// as mulAdd into a run and then dot over it.
func dotChain[T num](x, y []T, ys int, z []T, zs int, w []T, ws int) T {
	if f, ok := any(x).([]float32); ok {
		return T(dotChain32(f, any(y).([]float32), ys, any(z).([]float32), zs, any(w).([]float32), ws))
	}
	if len(x) > 64 { // pairwise, as pairSum
		h := (len(x)/2 + 63) &^ 63
		return dotChain(x[:h], y, ys, z, zs, w, ws) + dotChain(x[h:], y[h*ys:], ys, z[h*zs:], zs, w[h*ws:], ws)
	}
	var s0, s1, s2, s3 T
	i := 0
	if ys == 0 && zs == 1 && ws == 1 { // ((a*2+b)*c).sum()
		b := y[0]
		z, w = z[:len(x)], w[:len(x)]
		for ; i+4 <= len(x); i += 4 {
			s0 = fma(fma(x[i], b, z[i]), w[i], s0)
			s1 = fma(fma(x[i+1], b, z[i+1]), w[i+1], s1)
			s2 = fma(fma(x[i+2], b, z[i+2]), w[i+2], s2)
			s3 = fma(fma(x[i+3], b, z[i+3]), w[i+3], s3)
		}
		for ; i < len(x); i++ {
			s0 = fma(fma(x[i], b, z[i]), w[i], s0)
		}
		return (s0 + s1) + (s2 + s3)
	}
	for ; i+4 <= len(x); i += 4 {
		s0 = fma(fma(x[i], y[i*ys], z[i*zs]), w[i*ws], s0)
		s1 = fma(fma(x[i+1], y[(i+1)*ys], z[(i+1)*zs]), w[(i+1)*ws], s1)
		s2 = fma(fma(x[i+2], y[(i+2)*ys], z[(i+2)*zs]), w[(i+2)*ws], s2)
		s3 = fma(fma(x[i+3], y[(i+3)*ys], z[(i+3)*zs]), w[(i+3)*ws], s3)
	}
	for ; i < len(x); i++ {
		s0 = fma(fma(x[i], y[i*ys], z[i*zs]), w[i*ws], s0)
	}
	return (s0 + s1) + (s2 + s3)
}

// fast32 reports whether s = p + c, p an exact product of float32s and c a
// float32, rounds to float32 as the exact sum does: the common cases of
// codegen.FMA32 (s is no float32 halfway point, or is exact), inlined into
// the float32 loops.
func fast32(s, p, c float64) bool {
	b := math.Float64bits(s)
	return b&(1<<29-1) != 1<<28 && b&(0x7ff<<52) >= (1023-126)<<52 || s-p == c && s-c == p
}

// fma32 is codegen.FMA32 (the loops below write its common case out).
func fma32(x, y, z float32) float32 {
	p, c := float64(x)*float64(y), float64(z)
	if s := p + c; fast32(s, p, c) {
		return float32(s)
	}
	return codegen.FMA32(x, y, z)
}

// mulAdd32 is mulAdd for float32.
func mulAdd32(d, x, y []float32, ys int, z []float32, zs int) {
	x = x[:len(d)]
	for i := range d {
		d[i] = fma32(x[i], y[i*ys], z[i*zs])
	}
}

// dot32 is dot for float32: four partial sums, each step a multiply-add,
// the four of a pass checked at once for FMA32's rare case. The four-lane
// step is written out here and twice in dotChain32: as a function of four
// lanes Go does not inline it, and the Go loops (no FMA3, or strided y)
// ran 3x slower that way.
func dot32(x, y []float32, ys int) float32 {
	if len(x) > 64 {
		h := (len(x)/2 + 63) &^ 63
		return dot32(x[:h], y, ys) + dot32(x[h:], y[h*ys:], ys)
	}
	var s0, s1, s2, s3 float32
	i := 0
	if n := len(x) &^ 3; useFMA && n > 0 && ys <= 1 {
		var s [4]float32
		dot4FMA(&x[0], &y[0], n, ys, &s[0])
		s0, s1, s2, s3, i = s[0], s[1], s[2], s[3], n
	}
	for ; i+4 <= len(x); i += 4 { // mpK is a step's exact product, npK its addend, pK their sum
		a0, a1, a2, a3 := x[i], x[i+1], x[i+2], x[i+3]
		b0, b1, b2, b3 := y[i*ys], y[(i+1)*ys], y[(i+2)*ys], y[(i+3)*ys]
		mp0, np0 := float64(a0)*float64(b0), float64(s0)
		p0 := mp0 + np0
		mp1, np1 := float64(a1)*float64(b1), float64(s1)
		p1 := mp1 + np1
		mp2, np2 := float64(a2)*float64(b2), float64(s2)
		p2 := mp2 + np2
		mp3, np3 := float64(a3)*float64(b3), float64(s3)
		p3 := mp3 + np3
		if fast32(p0, mp0, np0) && fast32(p1, mp1, np1) && fast32(p2, mp2, np2) && fast32(p3, mp3, np3) {
			s0, s1, s2, s3 = float32(p0), float32(p1), float32(p2), float32(p3)
		} else {
			s0, s1, s2, s3 = codegen.FMA32(a0, b0, s0), codegen.FMA32(a1, b1, s1), codegen.FMA32(a2, b2, s2), codegen.FMA32(a3, b3, s3)
		}
	}
	for ; i < len(x); i++ {
		s0 = fma32(x[i], y[i*ys], s0)
	}
	return (s0 + s1) + (s2 + s3)
}

// dotChain32 is dotChain for float32, each pass as dot32's.
func dotChain32(x, y []float32, ys int, z []float32, zs int, w []float32, ws int) float32 {
	if len(x) > 64 {
		h := (len(x)/2 + 63) &^ 63
		return dotChain32(x[:h], y, ys, z, zs, w, ws) + dotChain32(x[h:], y[h*ys:], ys, z[h*zs:], zs, w[h*ws:], ws)
	}
	var s0, s1, s2, s3 float32
	i := 0
	if n := len(x) &^ 3; useFMA && n > 0 && ys <= 1 && zs == 1 && ws == 1 {
		var s [4]float32
		dotChain4FMA(&x[0], &y[0], &z[0], &w[0], n, ys, &s[0])
		s0, s1, s2, s3, i = s[0], s[1], s[2], s[3], n
	}
	for ; i+4 <= len(x); i += 4 { // m and n: each multiply-add's exact product and addend
		a0, a1, a2, a3 := x[i], x[i+1], x[i+2], x[i+3]
		b0, b1, b2, b3 := y[i*ys], y[(i+1)*ys], y[(i+2)*ys], y[(i+3)*ys]
		c0, c1, c2, c3 := z[i*zs], z[(i+1)*zs], z[(i+2)*zs], z[(i+3)*zs]
		var q0, q1, q2, q3 float32
		mr0, nr0 := float64(a0)*float64(b0), float64(c0)
		r0 := mr0 + nr0
		mr1, nr1 := float64(a1)*float64(b1), float64(c1)
		r1 := mr1 + nr1
		mr2, nr2 := float64(a2)*float64(b2), float64(c2)
		r2 := mr2 + nr2
		mr3, nr3 := float64(a3)*float64(b3), float64(c3)
		r3 := mr3 + nr3
		if fast32(r0, mr0, nr0) && fast32(r1, mr1, nr1) && fast32(r2, mr2, nr2) && fast32(r3, mr3, nr3) {
			q0, q1, q2, q3 = float32(r0), float32(r1), float32(r2), float32(r3)
		} else {
			q0, q1, q2, q3 = codegen.FMA32(a0, b0, c0), codegen.FMA32(a1, b1, c1), codegen.FMA32(a2, b2, c2), codegen.FMA32(a3, b3, c3)
		}
		w0, w1, w2, w3 := w[i*ws], w[(i+1)*ws], w[(i+2)*ws], w[(i+3)*ws]
		mp0, np0 := float64(q0)*float64(w0), float64(s0)
		p0 := mp0 + np0
		mp1, np1 := float64(q1)*float64(w1), float64(s1)
		p1 := mp1 + np1
		mp2, np2 := float64(q2)*float64(w2), float64(s2)
		p2 := mp2 + np2
		mp3, np3 := float64(q3)*float64(w3), float64(s3)
		p3 := mp3 + np3
		if fast32(p0, mp0, np0) && fast32(p1, mp1, np1) && fast32(p2, mp2, np2) && fast32(p3, mp3, np3) {
			s0, s1, s2, s3 = float32(p0), float32(p1), float32(p2), float32(p3)
		} else {
			s0, s1, s2, s3 = codegen.FMA32(q0, w0, s0), codegen.FMA32(q1, w1, s1), codegen.FMA32(q2, w2, s2), codegen.FMA32(q3, w3, s3)
		}
	}
	for ; i < len(x); i++ {
		s0 = fma32(fma32(x[i], y[i*ys], z[i*zs]), w[i*ws], s0)
	}
	return (s0 + s1) + (s2 + s3)
}
