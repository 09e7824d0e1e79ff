package symbolic

// This file defines the rewrite rules of Simplify as a table. Each rule names
// the op it applies to and a function that returns the rewritten node, or nil
// when it does not fire. The algebra is in the trailing comment; every rewrite
// must hold under C's truncating division for all values within bounds.

type rule struct {
	op Op
	fn func(n *Node) *Node
}

// anyOp marks a rule that applies to every op.
const anyOp Op = 255

var rules = []rule{
	{anyOp, foldBounds},   // x -> c when min(x) == max(x)
	{OpAdd, constLeft},    // c+x -> x+c
	{OpMul, constLeft},    // c*x -> x*c
	{OpAnd, constLeft},    // c&x -> x&c
	{OpAdd, addZero},      // x+0 -> x
	{OpMul, mulOne},       // x*1 -> x
	{OpAnd, andTrue},      // x&True -> x ; x&False -> False
	{OpAdd, addConstPair}, // (x+c1)+c2 -> x+(c1+c2)
	{OpMul, mulConstPair}, // (x*c1)*c2 -> x*(c1*c2)
	{OpDiv, divOne},       // x//1 -> x
	{OpMod, modSmall},     // x%c -> x when 0 <= x < c
}

// foldBounds replaces any non-constant node whose bounds meet by a constant.
func foldBounds(n *Node) *Node {
	if n.Op == OpConst || n.min != n.max {
		return nil
	}
	if n.IsBool {
		return Bool(n.min != 0)
	}
	return C(n.min)
}

func constLeft(n *Node) *Node {
	if n.Src[0].Op == OpConst && n.Src[1].Op != OpConst {
		return rebuild(n.Op, n.Src[1], n.Src[0])
	}
	return nil
}

func addZero(n *Node) *Node {
	if n.Src[1].IsInt(0) {
		return n.Src[0]
	}
	return nil
}

func mulOne(n *Node) *Node {
	if n.Src[1].IsInt(1) {
		return n.Src[0]
	}
	return nil
}

func andTrue(n *Node) *Node {
	switch {
	case n.Src[1].IsTrue():
		return n.Src[0]
	case n.Src[1].IsFalse():
		return Bool(false)
	}
	return nil
}

func addConstPair(n *Node) *Node {
	x, c2 := n.Src[0], n.Src[1]
	if c2.Op != OpConst || x.Op != OpAdd || x.Src[1].Op != OpConst {
		return nil
	}
	return Add(x.Src[0], C(x.Src[1].Val+c2.Val))
}

func mulConstPair(n *Node) *Node {
	x, c2 := n.Src[0], n.Src[1]
	if c2.Op != OpConst || x.Op != OpMul || x.Src[1].Op != OpConst {
		return nil
	}
	return Mul(x.Src[0], C(x.Src[1].Val*c2.Val))
}

func divOne(n *Node) *Node {
	if n.Src[1].IsInt(1) {
		return n.Src[0]
	}
	return nil
}

func modSmall(n *Node) *Node {
	x, c := n.Src[0], n.Src[1]
	if c.Op == OpConst && x.min >= 0 && x.max < c.Val {
		return x
	}
	return nil
}
