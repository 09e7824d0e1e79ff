package symbolic

import "strings"

// This file defines the canonical order of nodes, which decides the order
// of the operands of commutative ops after Simplify. It is tinygrad's order
// (UOp.tuplize): first the kind, with variables before arithmetic before
// comparisons before loop indices before constants; then the constant value,
// the axis of a loop index or the name and bounds of a variable; booleans
// before integers; then the sources, left to right.

// rank gives each kind its place; the gaps follow tinygrad's Ops enum.
func (n *Node) rank() int {
	switch n.Op {
	case OpVar:
		if n.IsRange() {
			return 90
		}
		return 10
	case OpAdd:
		return 40
	case OpMul:
		return 41
	case OpDiv:
		return 42
	case OpMod:
		return 44
	case OpLt:
		return 45
	case OpNe:
		return 46
	case OpAnd:
		return 51
	}
	return 99 // OpConst
}

// Compare returns -1, 0 or 1 as a sorts before, equal to or after b in the
// canonical order.
func Compare(a, b *Node) int {
	if a == b {
		return 0
	}
	if c := cmpInt(int64(a.rank()), int64(b.rank())); c != 0 {
		return c
	}
	switch a.Op {
	case OpConst:
		if c := cmpInt(a.Val, b.Val); c != 0 {
			return c
		}
	case OpVar:
		if a.IsRange() {
			if c := cmpInt(int64(a.axis), int64(b.axis)); c != 0 {
				return c
			}
		} else if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := cmpInt(a.min, b.min); c != 0 {
			return c
		}
		return cmpInt(a.max, b.max)
	}
	if a.IsBool != b.IsBool {
		if a.IsBool {
			return -1
		}
		return 1
	}
	for i := 0; i < len(a.Src) && i < len(b.Src); i++ {
		if c := Compare(a.Src[i], b.Src[i]); c != 0 {
			return c
		}
	}
	return cmpInt(int64(len(a.Src)), int64(len(b.Src)))
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
