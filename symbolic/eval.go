package symbolic

import "fmt"

// This file defines evaluation under C semantics and substitution.

// Eval returns the value of n with each variable taken from env, using C
// semantics (truncating division); booleans are 0 or 1. A variable missing
// from env, or a division by zero, panics: both are programming errors.
func (n *Node) Eval(env map[string]int64) int64 {
	switch n.Op {
	case OpConst:
		return n.Val
	case OpVar:
		v, ok := env[n.Name]
		if !ok {
			panic(fmt.Sprintf("internal error: symbolic: no value for %s", n.Name))
		}
		return v
	}
	a := n.Src[0].Eval(env)
	if n.Op == OpAnd && a == 0 {
		return 0
	}
	return apply(n.Op, a, n.Src[1].Eval(env))
}

// apply computes one binary op on two values under C semantics.
func apply(op Op, a, b int64) int64 {
	switch op {
	case OpAdd:
		return a + b
	case OpMul:
		return a * b
	case OpDiv:
		if b == 0 {
			panic("internal error: symbolic: division by zero")
		}
		return a / b
	case OpMod:
		if b == 0 {
			panic("internal error: symbolic: modulo by zero")
		}
		return a % b
	case OpLt:
		return b2i(a < b)
	case OpAnd:
		return b2i(a != 0 && b != 0)
	case OpNe:
		return b2i(a != b)
	}
	panic(fmt.Sprintf("internal error: symbolic: cannot apply %v", op))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Substitute returns n with every variable named in m replaced by its node.
// The result is rebuilt with fresh bounds but not simplified.
func Substitute(n *Node, m map[string]*Node) *Node {
	switch n.Op {
	case OpConst:
		return n
	case OpVar:
		if r, ok := m[n.Name]; ok {
			return r
		}
		return n
	}
	a, b := Substitute(n.Src[0], m), Substitute(n.Src[1], m)
	if a == n.Src[0] && b == n.Src[1] {
		return n
	}
	return rebuild(n.Op, a, b)
}

// rebuild returns a fresh node of kind op over a and b, with new bounds.
func rebuild(op Op, a, b *Node) *Node {
	switch op {
	case OpAdd:
		return Add(a, b)
	case OpMul:
		return Mul(a, b)
	case OpDiv:
		return Div(a, b)
	case OpMod:
		return Mod(a, b)
	case OpLt:
		return Lt(a, b)
	case OpAnd:
		return And(a, b)
	case OpNe:
		return Ne(a, b)
	}
	panic(fmt.Sprintf("internal error: symbolic: cannot rebuild %v", op))
}
