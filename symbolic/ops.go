package symbolic

// This file defines the node builders and the bounds each of them computes.
// The builders do no rewriting: Add(C(1), C(2)) is an add node with bounds
// [3, 3]. Simplify does the rewriting.

func binary(op Op, a, b *Node, lo, hi int64, isBool bool) *Node {
	return &Node{Op: op, Src: []*Node{a, b}, IsBool: isBool, min: lo, max: hi}
}

// Add returns a+b.
func Add(a, b *Node) *Node { return binary(OpAdd, a, b, a.min+b.min, a.max+b.max, false) }

// Sub returns a+(b*-1), the form in which tinygrad writes a-b.
func Sub(a, b *Node) *Node { return Add(a, Mul(b, C(-1))) }

// Mul returns a*b.
func Mul(a, b *Node) *Node {
	lo, hi := corners(a, b, func(x, y int64) int64 { return x * y })
	return binary(OpMul, a, b, lo, hi, false)
}

// Div returns a/b, truncating toward zero as C does.
func Div(a, b *Node) *Node {
	lo, hi := divBounds(a, b)
	return binary(OpDiv, a, b, lo, hi, false)
}

// Mod returns a%b, whose sign is the sign of a as in C.
func Mod(a, b *Node) *Node {
	lo, hi := modBounds(a, b)
	return binary(OpMod, a, b, lo, hi, false)
}

// Lt returns the boolean a<b.
func Lt(a, b *Node) *Node {
	lo, hi := int64(0), int64(1)
	if a.max < b.min {
		lo = 1
	}
	if a.min >= b.max {
		hi = 0
	}
	return binary(OpLt, a, b, lo, hi, true)
}

// Ne returns the boolean a!=b.
func Ne(a, b *Node) *Node {
	lo, hi := int64(0), int64(1)
	if a.max < b.min || b.max < a.min {
		lo = 1
	}
	if a.min == a.max && b.min == b.max && a.min == b.min {
		hi = 0
	}
	return binary(OpNe, a, b, lo, hi, true)
}

// And returns the boolean a&b; a and b are booleans.
func And(a, b *Node) *Node {
	return binary(OpAnd, a, b, min(a.min, b.min), min(a.max, b.max), true)
}

// Not returns (a!=True), the boolean negation of a.
func Not(a *Node) *Node { return Ne(a, Bool(true)) }

// Ge returns the boolean a>=b, written ((a<b)!=True) as tinygrad does.
func Ge(a, b *Node) *Node { return Not(Lt(a, b)) }

// Sum returns the left-nested sum of ns, or the constant 0 for no nodes.
func Sum(ns ...*Node) *Node {
	if len(ns) == 0 {
		return C(0)
	}
	acc := ns[0]
	for _, n := range ns[1:] {
		acc = Add(acc, n)
	}
	return acc
}

// Ands returns the left-nested conjunction of ns, or True for no nodes.
func Ands(ns ...*Node) *Node {
	if len(ns) == 0 {
		return Bool(true)
	}
	acc := ns[0]
	for _, n := range ns[1:] {
		acc = And(acc, n)
	}
	return acc
}

// corners returns the least and greatest of f over the corners of the box
// [a.min, a.max] x [b.min, b.max]; f must be monotonic in each argument.
func corners(a, b *Node, f func(x, y int64) int64) (lo, hi int64) {
	vs := [4]int64{f(a.min, b.min), f(a.min, b.max), f(a.max, b.min), f(a.max, b.max)}
	lo, hi = vs[0], vs[0]
	for _, v := range vs[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// divBounds bounds the truncating quotient. For a divisor of one sign the
// quotient is monotonic in each argument, so the corners bound it.
func divBounds(a, b *Node) (lo, hi int64) {
	if b.min > 0 || b.max < 0 {
		return corners(a, b, func(x, y int64) int64 { return x / y })
	}
	// The divisor may be zero (undefined); any nonzero divisor has |b|>=1.
	m := max(abs(a.min), abs(a.max))
	return -m, m
}

// modBounds bounds the C remainder, which has the sign of the numerator and
// is smaller in magnitude than the divisor.
func modBounds(a, b *Node) (lo, hi int64) {
	m := max(abs(b.min), abs(b.max)) - 1
	if b.min == b.max && m >= 0 && b.min != 0 && a.max-a.min <= m {
		// a stays within one period: exact when it does not wrap.
		c := abs(b.min)
		if a.min >= 0 && a.min%c <= a.max%c {
			return a.min % c, a.max % c
		}
		if a.max <= 0 && a.min%c <= a.max%c {
			return a.min % c, a.max % c
		}
	}
	lo, hi = -m, m
	if a.min >= 0 {
		lo = 0
	}
	if a.max <= 0 {
		hi = 0
	}
	return max(lo, min(a.min, 0)), min(hi, max(a.max, 0))
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
