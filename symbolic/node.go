package symbolic

import (
	"fmt"
	"sync/atomic"
)

// Op is the kind of a Node.
type Op uint8

// The node kinds. OpDiv and OpMod truncate toward zero like C's / and %.
const (
	OpConst Op = iota // an integer or boolean constant in Val
	OpVar             // a named variable with inclusive bounds
	OpAdd             // Src[0] + Src[1]
	OpMul             // Src[0] * Src[1]
	OpDiv             // Src[0] / Src[1], truncating
	OpMod             // Src[0] % Src[1], with the sign of Src[0]
	OpLt              // Src[0] < Src[1], a boolean
	OpAnd             // Src[0] && Src[1], both booleans
	OpNe              // Src[0] != Src[1], a boolean
)

var opNames = [...]string{"const", "var", "add", "mul", "div", "mod", "lt", "and", "ne"}

// String returns the lowercase name of the op.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", o)
}

// Node is an immutable integer or boolean expression with known bounds.
// Build nodes with C, Bool, Var and the operator functions; never modify one.
type Node struct {
	Op     Op
	Val    int64  // the value of an OpConst (0 or 1 for booleans)
	Name   string // the name of an OpVar
	Src    []*Node
	IsBool bool // results of Lt, And, Ne and boolean constants

	min, max int64
	axis     int // for a loop index made by Range, its axis; -1 for other variables
}

// Min returns the smallest value n can take.
func (n *Node) Min() int64 { return n.min }

// Max returns the largest value n can take.
func (n *Node) Max() int64 { return n.max }

// C returns the integer constant v.
func C(v int64) *Node {
	if v < minShared || v > maxShared {
		return &Node{Op: OpConst, Val: v, min: v, max: v}
	}
	p := &shared[v-minShared]
	if n := p.Load(); n != nil {
		return n
	}
	p.CompareAndSwap(nil, &Node{Op: OpConst, Val: v, min: v, max: v})
	return p.Load()
}

// The constants from minShared to maxShared are made once, on first use,
// and shared (a Node is immutable): a view's dims, strides and offsets are
// nearly always such constants, and building a 4096x1024 argmax's graph
// allocated a node for each (231 allocations and 25 us a graph, 119 and
// 15-18 us shared).
const minShared, maxShared = -64, 4096

var shared [maxShared - minShared + 1]atomic.Pointer[Node]

// Bool returns the boolean constant True or False.
func Bool(b bool) *Node {
	v := int64(0)
	if b {
		v = 1
	}
	return &Node{Op: OpConst, Val: v, IsBool: true, min: v, max: v}
}

// Var returns the variable name with the inclusive bounds [lo, hi].
// It panics if lo > hi, which is a programming error.
func Var(name string, lo, hi int64) *Node {
	if lo > hi {
		panic(fmt.Sprintf("internal error: symbolic.Var(%q, %d, %d): empty range", name, lo, hi))
	}
	return &Node{Op: OpVar, Name: name, min: lo, max: hi, axis: -1}
}

// Range returns the loop index of output axis axis, named name (ridx0,
// ridx1, ... by default), running over [0, hi]. It is a variable like those
// of Var, but Simplify orders it after every other kind of node, as tinygrad
// orders its RANGE uops, so that renders read ((ridx0*2)+ridx1).
func Range(name string, axis int, hi int64) *Node {
	if hi < 0 || axis < 0 {
		panic(fmt.Sprintf("internal error: symbolic.Range(%q, %d, %d): bad range", name, axis, hi))
	}
	return &Node{Op: OpVar, Name: name, max: hi, axis: axis}
}

// IsRange reports whether n is a loop index made by Range.
func (n *Node) IsRange() bool { return n.Op == OpVar && n.axis >= 0 }

// IsConst reports whether n is a constant (integer or boolean).
func (n *Node) IsConst() bool { return n.Op == OpConst }

// Int returns the value of n and true if n is a constant, or 0 and false.
func (n *Node) Int() (int64, bool) {
	if n.Op == OpConst {
		return n.Val, true
	}
	return 0, false
}

// IsInt reports whether n is the integer constant v.
func (n *Node) IsInt(v int64) bool { return n.Op == OpConst && !n.IsBool && n.Val == v }

// IsTrue reports whether n is the boolean constant True.
func (n *Node) IsTrue() bool { return n.Op == OpConst && n.IsBool && n.Val == 1 }

// IsFalse reports whether n is the boolean constant False.
func (n *Node) IsFalse() bool { return n.Op == OpConst && n.IsBool && n.Val == 0 }

// Equal reports whether a and b are the same expression, structurally.
// Variables are equal when their names and bounds are.
func Equal(a, b *Node) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Op != b.Op || a.IsBool != b.IsBool || len(a.Src) != len(b.Src) {
		return false
	}
	switch a.Op {
	case OpConst:
		return a.Val == b.Val
	case OpVar:
		return a.Name == b.Name && a.min == b.min && a.max == b.max && a.axis == b.axis
	}
	for i := range a.Src {
		if !Equal(a.Src[i], b.Src[i]) {
			return false
		}
	}
	return true
}

// Vars returns the variables of n, each once, in the order they first appear.
func (n *Node) Vars() []*Node {
	var out []*Node
	seen := map[string]bool{}
	var walk func(*Node)
	walk = func(x *Node) {
		if x.Op == OpVar && !seen[x.Name] {
			seen[x.Name] = true
			out = append(out, x)
		}
		for _, s := range x.Src {
			walk(s)
		}
	}
	walk(n)
	return out
}

// Restrict returns the variable n with its bounds narrowed to [lo, hi]
// (intersected with its own); other nodes, and empty intersections, are
// returned unchanged. It serves to simplify an expression under a known
// condition, such as an index under its validity.
func (n *Node) Restrict(lo, hi int64) *Node {
	lo, hi = max(lo, n.min), min(hi, n.max)
	if n.Op != OpVar || lo > hi || (lo == n.min && hi == n.max) {
		return n
	}
	r := *n
	r.min, r.max = lo, hi
	return &r
}
