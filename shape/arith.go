package shape

import (
	"fmt"
	"strings"

	"tiny/symbolic"
)

// This file defines the small integer-or-symbolic arithmetic that views do on
// their dims, strides and offsets. Every result is simplified, so constant
// arguments give constant results.

type node = *symbolic.Node

func c(v int64) node { return symbolic.C(v) }

// Two constants fold at once, as Simplify would fold them: a view's
// dims and strides are nearly always constants, and a Simplify costs a map
// and a node or two (a 512x512 matmul's graph did 570 allocations).
func add(a, b node) node {
	if x, y, ok := consts(a, b); ok {
		return c(x + y)
	}
	return symbolic.Simplify(symbolic.Add(a, b))
}

func sub(a, b node) node {
	if x, y, ok := consts(a, b); ok {
		return c(x - y)
	}
	return symbolic.Simplify(symbolic.Sub(a, b))
}

func mul(a, b node) node {
	if x, y, ok := consts(a, b); ok {
		return c(x * y)
	}
	return symbolic.Simplify(symbolic.Mul(a, b))
}

// consts returns the values of a and b when both are integer constants.
func consts(a, b node) (x, y int64, ok bool) {
	if a.IsBool || b.IsBool {
		return 0, 0, false
	}
	x, okA := a.Int()
	y, okB := b.Int()
	return x, y, okA && okB
}

// isInt reports whether n is the integer constant v.
func isInt(n node, v int64) bool { return n.IsInt(v) }

// eq reports whether a and b are known to be equal.
func eq(a, b node) bool { return symbolic.Equal(a, b) }

// ival returns the value of a constant node and whether it is one.
func ival(n node) (int64, bool) { return n.Int() }

// allInt reports whether every node of ns is a constant.
func allInt(ns []node) bool {
	for _, n := range ns {
		if !n.IsConst() {
			return false
		}
	}
	return true
}

// prod returns the product of ns (1 for none).
func prod(ns []node) node {
	p := c(1)
	for _, n := range ns {
		p = mul(p, n)
	}
	return p
}

// Ints returns constant nodes for xs, the usual way to write a shape.
func Ints(xs ...int) []*symbolic.Node {
	out := make([]*symbolic.Node, len(xs))
	for i, x := range xs {
		out[i] = symbolic.C(int64(x))
	}
	return out
}

// Tuple returns ns in Python tuple form, "(2, 3)", "(3,)" or "()"; symbolic
// entries print as rendered, so a variable dim prints by name.
func Tuple(ns []*symbolic.Node) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = n.Render()
	}
	return tuple(parts)
}

func tuple(parts []string) string {
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// pairs returns a mask or pad argument in tuple form, "((0, 2), (1, 3))".
func pairs(ps [][2]node) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = Tuple(p[:])
	}
	return tuple(parts)
}

func intsTuple(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return tuple(parts)
}

// rowMajor returns the row-major strides of shape, 0 for size-1 dims.
func rowMajor(shape []node) []node {
	st := make([]node, len(shape))
	acc := c(1)
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		if isInt(shape[i], 1) {
			st[i] = c(0)
		}
		acc = mul(acc, shape[i])
	}
	return st
}

func eqs(a, b []node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !eq(a[i], b[i]) {
			return false
		}
	}
	return true
}

// minN and maxN return the smaller and the larger of a and b, and false
// when their bounds do not decide which it is (a symbolic mask).
func minN(a, b node) (node, bool) {
	if a.Max() <= b.Min() {
		return a, true
	}
	if b.Max() <= a.Min() {
		return b, true
	}
	return a, false
}

func maxN(a, b node) (node, bool) {
	if a.Min() >= b.Max() {
		return a, true
	}
	if b.Min() >= a.Max() {
		return b, true
	}
	return a, false
}
