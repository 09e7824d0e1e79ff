package symbolic

// This file defines the rewrite rules of Simplify as a table, in the order
// tinygrad's symbolic rules are tried: identities, constant folding, the
// canonical operand order, combining like terms, folding by bounds, moving
// constants outward, and finally the comparison and division folds of
// fold.go. The first rule that fires on a node wins; its result is then
// simplified again. Patterns on commutative ops match either operand order.
//
// Every rule holds under C's truncating division for all values within the
// bounds. Where tinygrad's rule relies on floor division, the rule here either
// has a guard (the numerator cannot be negative) or is rewritten to its C form;
// the trailing comments give the algebra.

type rule struct {
	op Op // the op the rule applies to; anyOp for every binary op
	fn func(n *Node) *Node
}

// anyOp marks a rule that applies to every binary op.
const anyOp Op = 255

var rules = []rule{
	{OpAdd, addZero},      // x+0 -> x
	{OpMul, mulOne},       // x*1 -> x
	{OpDiv, divSelf},      // x//x -> 1
	{OpDiv, divOne},       // x//1 -> x
	{OpDiv, divNegOne},    // x//-1 -> x*-1
	{OpMod, modMod},       // (x%y)%y -> x%y
	{OpAdd, addModDiv},    // (x%c)+((x//c)*c) -> x, as x == (x/c)*c + x%c in C
	{OpAdd, addDivMod},    // ((x//c1)*c3)+((x%c1)*c2) -> x*c2 when c1*c2 == c3
	{OpAnd, andConst},     // x&True -> x ; x&False -> False
	{OpAnd, andSelf},      // x&x -> x
	{OpNe, notNot},        // ((x!=True)!=True) -> x
	{OpLt, ltSelf},        // x<x -> False
	{OpNe, neSelf},        // x!=x -> False for integers
	{OpMul, mulZero},      // x*0 -> 0
	{anyOp, foldConst},    // c1 op c2 -> c, with C division
	{OpAdd, flip},         // y+x -> x+y when x sorts first (order.go)
	{OpMul, flip},         // y*x -> x*y
	{OpNe, flip},          // y!=x -> x!=y
	{OpAnd, flip},         // y&x -> x&y
	{OpAdd, groupLike},    // (x+y)+(x*c) -> (x+(x*c))+y
	{OpAdd, combineTerms}, // (x*c0)+(x*c1) -> x*(c0+c1)
	{OpAdd, addTimes},     // x+(x*c) -> x*(c+1)
	{OpAdd, addSelf},      // x+x -> x*2
	{OpMul, negSum},       // -1*(x+c) -> (x*-1)+(-c)
	{anyOp, foldBounds},   // x -> c when min(x) == max(x)
	{OpAdd, twoStage},     // (x+c1)+c2 -> x+(c1+c2)
	{OpMul, twoStage},     // (x*c1)*c2 -> x*(c1*c2)
	{OpAnd, twoStage},     // (x&c1)&c2 -> x&(c1&c2)
	{OpLt, ltShift},       // (c0+x)<c1 -> x<(c1-c0)
	{OpDiv, divDiv},       // (x//c1)//c2 -> x//(c1*c2), true for truncation too
	{OpLt, ltMulPos},      // (x*c0)<c1 -> x<ceil(c1/c0) for c0, c1 > 0
	{OpLt, ltMulNeg},      // (x*c0)<c1 -> (x*-1)<-floor(c1/c0) for c0 < -1, c1 <= 0
	{OpLt, ltDiv},         // (x//c0)<c1 -> x<c1*c0 for c0 > 0 and c1 > 0 or x >= 0; else x<(c1-1)*c0+1
	{OpAdd, addConstLast}, // (x+c1)+y -> (x+y)+c1
	{OpMul, mulConstLast}, // (x*c1)*y -> (x*y)*c1
	{OpAdd, unrolledDivs}, // (x//d)+((x+1)//d)+...+((x+d-1)//d) -> x for x >= 0
	{OpLt, ltFold},        // (a*d+b)<c -> a<c/d when d divides the coefficients and c, 0 <= b < d
	{OpNe, simplex},       // ((a*c0+b*c1)<1)!=True -> ((a+b)<1)!=True for a, b >= 0, c0, c1 > 0
	{OpDiv, divAddDiv},    // ((x//c)+a)//d -> (x+a*c)//(c*d) for x >= 0 and (x//c)+a >= 0
	{OpDiv, divFold},      // x//c folded by bounds and remainders (fold.go)
	{OpMod, modFold},      // x%c folded by bounds and remainders (fold.go)
}

// either calls f with the operands of n in order, then swapped, and returns
// the first non-nil result: how a pattern on a commutative op matches.
func either(n *Node, f func(a, b *Node) *Node) *Node {
	if r := f(n.Src[0], n.Src[1]); r != nil {
		return r
	}
	return f(n.Src[1], n.Src[0])
}

// isC reports whether n is an integer constant.
func isC(n *Node) bool { return n.Op == OpConst && !n.IsBool }

func addZero(n *Node) *Node {
	return either(n, func(x, c *Node) *Node { return when(c.IsInt(0), x) })
}

func mulOne(n *Node) *Node {
	return either(n, func(x, c *Node) *Node { return when(c.IsInt(1), x) })
}

func mulZero(n *Node) *Node {
	return either(n, func(x, c *Node) *Node { return when(c.IsInt(0), C(0)) })
}

func when(ok bool, n *Node) *Node {
	if ok {
		return n
	}
	return nil
}

func divSelf(n *Node) *Node { return when(Equal(n.Src[0], n.Src[1]), C(1)) }
func divOne(n *Node) *Node  { return when(n.Src[1].IsInt(1), n.Src[0]) }

func divNegOne(n *Node) *Node {
	if n.Src[1].IsInt(-1) {
		return Mul(n.Src[0], C(-1))
	}
	return nil
}

func modMod(n *Node) *Node {
	x := n.Src[0]
	return when(x.Op == OpMod && Equal(x.Src[1], n.Src[1]), x)
}

// mulBy matches m as x*c in either order with c an integer constant.
func mulBy(m *Node) (x, c *Node) {
	if m.Op != OpMul {
		return nil, nil
	}
	if isC(m.Src[1]) {
		return m.Src[0], m.Src[1]
	}
	if isC(m.Src[0]) {
		return m.Src[1], m.Src[0]
	}
	return nil, nil
}

func addModDiv(n *Node) *Node {
	return either(n, func(a, b *Node) *Node {
		if a.Op != OpMod || !isC(a.Src[1]) {
			return nil
		}
		x, c := a.Src[0], a.Src[1]
		d, c2 := mulBy(b)
		if d == nil || !Equal(c2, c) || d.Op != OpDiv || !Equal(d.Src[0], x) || !Equal(d.Src[1], c) {
			return nil
		}
		return x
	})
}

func addDivMod(n *Node) *Node {
	return either(n, func(a, b *Node) *Node {
		d, c3 := mulBy(a)
		m, c2 := mulBy(b)
		if d == nil || m == nil || d.Op != OpDiv || m.Op != OpMod || !isC(d.Src[1]) {
			return nil
		}
		if !Equal(d.Src[0], m.Src[0]) || !Equal(d.Src[1], m.Src[1]) || d.Src[1].Val*c2.Val != c3.Val {
			return nil
		}
		return Mul(d.Src[0], c2)
	})
}

func andConst(n *Node) *Node {
	return either(n, func(x, c *Node) *Node {
		if c.Op != OpConst {
			return nil
		}
		if c.Val != 0 {
			return x
		}
		return c
	})
}

func andSelf(n *Node) *Node { return when(Equal(n.Src[0], n.Src[1]), n.Src[0]) }
func ltSelf(n *Node) *Node  { return when(Equal(n.Src[0], n.Src[1]), Bool(false)) }

func neSelf(n *Node) *Node {
	return when(!n.Src[0].IsBool && Equal(n.Src[0], n.Src[1]), Bool(false))
}

// notOf matches n as (x!=True) in either order and returns x.
func notOf(n *Node) *Node {
	if n.Op != OpNe {
		return nil
	}
	if n.Src[1].IsTrue() {
		return n.Src[0]
	}
	if n.Src[0].IsTrue() {
		return n.Src[1]
	}
	return nil
}

func notNot(n *Node) *Node {
	if x := notOf(n); x != nil && x.Op == OpNe {
		if y := notOf(x); y != nil && y.IsBool {
			return y
		}
	}
	return nil
}

func foldConst(n *Node) *Node {
	a, b := n.Src[0], n.Src[1]
	if a.Op != OpConst || b.Op != OpConst {
		return nil
	}
	if (n.Op == OpDiv || n.Op == OpMod) && b.Val == 0 {
		return nil
	}
	v := apply(n.Op, a.Val, b.Val)
	if n.IsBool {
		return Bool(v != 0)
	}
	return C(v)
}

func flip(n *Node) *Node {
	if Compare(n.Src[1], n.Src[0]) < 0 {
		return rebuild(n.Op, n.Src[1], n.Src[0])
	}
	return nil
}

func groupLike(n *Node) *Node {
	return either(n, func(s, m *Node) *Node {
		x, c := mulBy(m)
		if s.Op != OpAdd || x == nil {
			return nil
		}
		return either(s, func(x2, y *Node) *Node {
			if !Equal(x, x2) {
				return nil
			}
			return Add(Add(x2, Mul(x2, c)), y)
		})
	})
}

func combineTerms(n *Node) *Node {
	return either(n, func(a, b *Node) *Node {
		x0, c0 := mulBy(a)
		x1, c1 := mulBy(b)
		if x0 == nil || x1 == nil || !Equal(x0, x1) {
			return nil
		}
		return Mul(x0, Add(c0, c1))
	})
}

func addTimes(n *Node) *Node {
	return either(n, func(x, m *Node) *Node {
		y, c := mulBy(m)
		if y == nil || !Equal(x, y) {
			return nil
		}
		return Mul(x, Add(c, C(1)))
	})
}

func addSelf(n *Node) *Node {
	if !Equal(n.Src[0], n.Src[1]) {
		return nil
	}
	return Mul(n.Src[0], C(2))
}

func negSum(n *Node) *Node {
	return either(n, func(m, s *Node) *Node {
		if !m.IsInt(-1) || s.Op != OpAdd {
			return nil
		}
		return either(s, func(x, c *Node) *Node {
			if !isC(c) {
				return nil
			}
			return Add(Mul(x, C(-1)), C(-c.Val))
		})
	})
}

func foldBounds(n *Node) *Node {
	if n.Op == OpConst || n.Op == OpVar || n.min != n.max {
		return nil
	}
	if n.IsBool {
		return Bool(n.min != 0)
	}
	return C(n.min)
}

func twoStage(n *Node) *Node {
	return either(n, func(in, c2 *Node) *Node {
		if in.Op != n.Op || c2.Op != OpConst {
			return nil
		}
		return either(in, func(x, c1 *Node) *Node {
			if c1.Op != OpConst {
				return nil
			}
			return rebuild(n.Op, x, rebuild(n.Op, c1, c2))
		})
	})
}

func ltShift(n *Node) *Node {
	s, c1 := n.Src[0], n.Src[1]
	if s.Op != OpAdd || !isC(c1) {
		return nil
	}
	return either(s, func(c0, x *Node) *Node {
		if !isC(c0) {
			return nil
		}
		return Lt(x, C(c1.Val-c0.Val))
	})
}

func divDiv(n *Node) *Node {
	in, c2 := n.Src[0], n.Src[1]
	if in.Op != OpDiv || !isC(in.Src[1]) || !isC(c2) || in.Src[1].Val == 0 || c2.Val == 0 {
		return nil
	}
	return Div(in.Src[0], C(in.Src[1].Val*c2.Val))
}

func ltMulPos(n *Node) *Node {
	x, c0 := mulBy(n.Src[0])
	c1 := n.Src[1]
	if x == nil || !isC(c1) || c0.Val <= 0 || c1.Val <= 0 {
		return nil
	}
	return Lt(x, C((c1.Val+c0.Val-1)/c0.Val))
}

func ltMulNeg(n *Node) *Node {
	x, c0 := mulBy(n.Src[0])
	c1 := n.Src[1]
	if x == nil || !isC(c1) || c0.Val >= -1 || c1.Val > 0 {
		return nil
	}
	return Lt(Mul(x, C(-1)), C(-(c1.Val / c0.Val)))
}

func ltDiv(n *Node) *Node {
	d, c1 := n.Src[0], n.Src[1]
	if d.Op != OpDiv || !isC(d.Src[1]) || !isC(c1) || d.Src[1].Val <= 0 {
		return nil
	}
	x, c0 := d.Src[0], d.Src[1].Val
	if c1.Val > 0 || x.min >= 0 {
		return Lt(x, C(c1.Val*c0))
	}
	return Lt(x, C((c1.Val-1)*c0+1)) // NOTE: C truncates: x/c0 < c1 <= 0 iff x <= (c1-1)*c0
}

func addConstLast(n *Node) *Node {
	return either(n, func(in, y *Node) *Node {
		if in.Op != OpAdd || !isC(in.Src[1]) {
			return nil
		}
		return Add(Add(in.Src[0], y), in.Src[1])
	})
}

func mulConstLast(n *Node) *Node {
	return either(n, func(in, y *Node) *Node {
		if in.Op != OpMul || !isC(in.Src[1]) {
			return nil
		}
		return Mul(Mul(in.Src[0], y), in.Src[1])
	})
}

func ltFold(n *Node) *Node {
	if c := n.Src[1]; isC(c) && c.Val > 0 && !n.Src[0].IsBool {
		return ltFolding(n.Src[0], c.Val)
	}
	return nil
}

func simplex(n *Node) *Node {
	return either(n, func(lt, t *Node) *Node {
		if !t.IsTrue() || lt.Op != OpLt || !lt.Src[1].IsInt(1) {
			return nil
		}
		if x := canonicalSimplex(lt.Src[0]); x != nil {
			return Not(Lt(x, C(1)))
		}
		return nil
	})
}

func divAddDiv(n *Node) *Node {
	s, d := n.Src[0], n.Src[1]
	if s.Op != OpAdd || !isC(d) || d.Val <= 0 || s.min < 0 {
		return nil
	}
	return either(s, func(q, a *Node) *Node {
		if q.Op != OpDiv || !isC(q.Src[1]) || q.Src[1].Val <= 0 || !isC(a) || q.Src[0].min < 0 {
			return nil
		}
		c := q.Src[1].Val
		return Div(Add(q.Src[0], C(a.Val*c)), C(c*d.Val))
	})
}

func divFold(n *Node) *Node {
	if c := n.Src[1]; isC(c) && c.Val > 0 {
		return divModFold(n.Src[0], c.Val, false)
	}
	return nil
}

func modFold(n *Node) *Node {
	if c := n.Src[1]; isC(c) && c.Val > 0 {
		return divModFold(n.Src[0], c.Val, true)
	}
	return nil
}
