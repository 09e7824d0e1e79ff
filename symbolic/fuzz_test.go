package symbolic

import (
	"math/rand"
	"testing"
)

// This file checks Simplify by brute force, as tinygrad's fuzz_symbolic.py
// does: build an expression, simplify it, and evaluate both over every
// assignment of the variables within their bounds. They must agree, and every
// value must lie within the bounds each claims.

// gen builds expressions from a byte stream (a fuzz input or random bytes).
type gen struct {
	data []byte
	vars []*Node
}

func (g *gen) byte() byte {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return b
}

// small returns a constant in [-12, 12].
func (g *gen) small() int64 { return int64(g.byte()%25) - 12 }

// nonzero returns a divisor in [-8, 8] \ {0}, mostly positive as in shapes.
func (g *gen) nonzero() int64 {
	d := int64(g.byte()%8) + 1
	if g.byte()%4 == 0 {
		return -d
	}
	return d
}

func (g *gen) intExpr(depth int) *Node {
	b := g.byte()
	if depth <= 0 || len(g.data) == 0 {
		if b%5 == 0 {
			return C(g.small())
		}
		return g.vars[int(b/5)%len(g.vars)]
	}
	switch b % 8 {
	case 0, 1:
		return Add(g.intExpr(depth-1), g.intExpr(depth-1))
	case 2:
		return mulSmall(g.intExpr(depth-1), C(g.small()))
	case 3:
		return mulSmall(g.intExpr(depth-1), g.intExpr(depth-1))
	case 4:
		return Div(g.intExpr(depth-1), C(g.nonzero()))
	case 5:
		return Mod(g.intExpr(depth-1), C(g.nonzero()))
	case 6:
		return Sum(mulSmall(g.intExpr(0), C(g.small())), g.intExpr(depth-1), C(g.small()))
	}
	return g.intExpr(depth - 1)
}

// mulSmall returns a*b, or a when the product could leave the int32 range
// that index expressions live in (bounds would overflow long before int64).
func mulSmall(a, b *Node) *Node {
	m := func(n *Node) int64 { return max(abs(n.Min()), abs(n.Max())) }
	if m(a) != 0 && m(b) > (1<<31)/m(a) {
		return a
	}
	return Mul(a, b)
}

func (g *gen) boolExpr(depth int) *Node {
	switch g.byte() % 5 {
	case 0:
		return Lt(g.intExpr(depth), C(g.small()))
	case 1:
		return Ge(g.intExpr(depth), C(g.small()))
	case 2:
		return Ne(g.intExpr(depth), g.intExpr(depth))
	case 3:
		if depth > 0 {
			return And(g.boolExpr(depth-1), g.boolExpr(depth-1))
		}
	}
	return Lt(g.intExpr(depth), g.intExpr(depth))
}

// expr builds an expression over three variables whose bounds come from the
// input too: loop indices from 0, and variables that may be negative.
func (g *gen) expr() *Node {
	lo := func() int64 { return int64(g.byte()%7) - 3 }
	v0lo := lo()
	g.vars = []*Node{
		Range("r0", 0, int64(g.byte()%12)),
		Range("r1", 1, int64(g.byte()%9)),
		Var("v", v0lo, v0lo+int64(g.byte()%10)),
	}
	depth := int(g.byte() % 6)
	if g.byte()%4 == 0 {
		return g.boolExpr(depth)
	}
	return g.intExpr(depth)
}

// checkSimplify evaluates n and Simplify(n) at every assignment.
func checkSimplify(t *testing.T, n *Node) {
	t.Helper()
	s := Simplify(n)
	vars := n.Vars()
	env := map[string]int64{}
	var walk func(i int)
	walk = func(i int) {
		if i == len(vars) {
			want, got := n.Eval(env), s.Eval(env)
			if want != got {
				t.Fatalf("%s = %d but simplified %s = %d at %v", n, want, s, got, env)
			}
			if want < n.Min() || want > n.Max() || got < s.Min() || got > s.Max() {
				t.Fatalf("%s = %d outside [%d, %d] or simplified %s outside [%d, %d] at %v", n, want, n.Min(), n.Max(), s, s.Min(), s.Max(), env)
			}
			return
		}
		for v := vars[i].Min(); v <= vars[i].Max(); v++ {
			env[vars[i].Name] = v
			walk(i + 1)
		}
	}
	walk(0)
}

func TestSimplifyProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		data := make([]byte, 64)
		rng.Read(data)
		checkSimplify(t, (&gen{data: data}).expr())
	}
}

// TestIndexPatterns checks the shapes of expressions the shape package
// produces: unravelled sums and masked offsets, including negative offsets.
func TestIndexPatterns(t *testing.T) {
	r0, r1 := Range("ridx0", 0, 9), Range("ridx1", 0, 3)
	for off := int64(-12); off <= 12; off++ {
		idx := Add(Add(C(off), Mul(r0, C(2))), Mul(r1, C(1)))
		for _, d := range []int64{1, 2, 3, 4, 6, 9} {
			checkSimplify(t, Mod(Div(idx, C(d)), C(3)))
			checkSimplify(t, Add(Mul(Mod(idx, C(d)), C(5)), Div(idx, C(d))))
			checkSimplify(t, Lt(Mod(idx, C(d)), C(2)))
			checkSimplify(t, Div(Add(Mul(r0, C(-1)), C(off)), C(d)))
		}
	}
}

func FuzzSimplify(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{3, 4, 5, 1, 4, 4, 0, 2, 6, 1, 7, 250, 9, 5, 5, 3, 2})
	f.Add([]byte("simplify (ridx0*2+ridx1)%3"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 256 {
			return
		}
		checkSimplify(t, (&gen{data: data}).expr())
	})
}
