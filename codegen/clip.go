package codegen

import (
	"fmt"
	"slices"

	"tiny/symbolic"
)

// This file clips reduce loops to where their terms can be nonzero
// (OptClip). A sum of products one of whose factors is read through a mask
// (a padded view) adds 0 wherever the mask is off: the input gradient of a
// convolution without padding convolves the output's gradient padded by the
// kernel's extent, and at the border most of the kernel window reads the
// padding (31% of beautiful_mnist's 5x5 layer's multiply-adds). When a
// clause of the mask bounds a reduce axis by the outer loops' variables
// alone (y + ky >= 4, y + ky < 24), the loop over that axis runs from
// max(0, lo) to min(n, hi), computed before it, and the loads inside drop
// the clause from their gate: it holds wherever the loop runs.
//
// Each term skipped is ±0 times a finite value, ±0, and adding ±0 to a
// sum that started at +0 changes no bit (x + ±0 is x, +0 + -0 is +0), so
// the sum is the same bits as over the whole loop, in the same order,
// unless the other factor is an infinity or NaN (whose product with the
// padding's 0 was NaN). No loop is clipped in a nest with compensated
// blocks (cascade.go), where a block of zeros still moves the sum by the
// last error, nor the innermost reduce loop (lanes, blocks and the devices'
// vector loops assume it starts at 0). The RANGE's bounds are uops (MAX of
// index values) and its Val is the axis's extent, so every device runs the
// same loops.

// clipAxis is a reduce loop that can be clipped.
type clipAxis struct {
	axis    int
	los     []*symbolic.Node // lower bounds (inclusive) over the abstract axis variables
	his     []*symbolic.Node // upper bounds (exclusive)
	clauses []*symbolic.Node // the mask clauses they come from, which hold inside the clipped loop
}

// axisVar is the name of the variable standing for axis a in the abstract
// index and valid expressions (absExpr).
func axisVar(a int) string { return fmt.Sprintf("_ax%d", a) }

// absExpr returns leaf n's index and valid expressions over one variable
// per axis (axisVar, bounded by the axis's size), computed once: they
// simplify better than those over loop variables, whose bounds the shifted
// last tile of a loop widens.
func (pl *plan) absExpr(n *Node) (idx, valid *symbolic.Node) {
	if e, ok := pl.abs[n]; ok {
		return e[0], e[1]
	}
	st := pl.sts[n]
	idxs := make([]*symbolic.Node, len(pl.shape))
	for a, d := range st.IntShape() {
		idxs[a] = symbolic.C(0)
		if d > 1 {
			idxs[a] = symbolic.Var(axisVar(a), 0, int64(d-1))
		}
	}
	idx, valid = st.IndexExpr(idxs)
	if pl.abs == nil {
		pl.abs = map[*Node][2]*symbolic.Node{}
	}
	pl.abs[n] = [2]*symbolic.Node{idx, valid}
	return idx, valid
}

// conjuncts returns the clauses of a conjunction (none for true).
func conjuncts(v *symbolic.Node) []*symbolic.Node {
	if v.Op == symbolic.OpAnd {
		return append(conjuncts(v.Src[0]), conjuncts(v.Src[1])...)
	}
	if v.IsTrue() {
		return nil
	}
	return []*symbolic.Node{v}
}

// zeroClauses returns clauses of the masks under which n reads: where any
// of them is false, n is ±0 (or NaN, from an infinity times 0).
func (pl *plan) zeroClauses(n *Node) []*symbolic.Node {
	switch n.Op {
	case OpLoad, OpConst:
		if pl.never[n] {
			return nil
		}
		_, v := pl.absExpr(n)
		return conjuncts(v)
	case OpMul:
		return append(pl.zeroClauses(n.Src[0]), pl.zeroClauses(n.Src[1])...)
	case OpCast:
		return pl.zeroClauses(n.Src[0])
	}
	return nil
}

// linear returns n as sum(coef[v]*v) + k, or false when it is not linear.
func linear(n *symbolic.Node) (coef map[string]int64, k int64, ok bool) {
	switch n.Op {
	case symbolic.OpConst:
		if n.IsBool {
			return nil, 0, false
		}
		return map[string]int64{}, n.Val, true
	case symbolic.OpVar:
		return map[string]int64{n.Name: 1}, 0, true
	case symbolic.OpAdd:
		a, ka, ok1 := linear(n.Src[0])
		b, kb, ok2 := linear(n.Src[1])
		if !ok1 || !ok2 {
			return nil, 0, false
		}
		for v, c := range b {
			a[v] += c
		}
		return a, ka + kb, true
	case symbolic.OpMul:
		for i := range 2 {
			if c, isK := n.Src[1-i].Int(); isK && !n.Src[1-i].IsBool {
				a, ka, ok := linear(n.Src[i])
				if !ok {
					return nil, 0, false
				}
				for v := range a {
					a[v] *= c
				}
				return a, ka * c, true
			}
		}
	}
	return nil, 0, false
}

// bound reads clause as a bound on axis variable x: a lower bound
// (x >= lo) or an upper one (x < hi), as an expression over the variables
// in allowed, or false when the clause is not one (x's coefficient must
// be ±1).
func bound(clause *symbolic.Node, x string, allowed map[string]*symbolic.Node) (b *symbolic.Node, lower, ok bool) {
	ge := false // the clause is L >= 0, else L < 0
	c := clause
	if c.Op == symbolic.OpNe && c.Src[1].IsTrue() {
		ge, c = true, c.Src[0]
	}
	if c.Op != symbolic.OpLt {
		return nil, false, false
	}
	l, lk, ok1 := linear(c.Src[0])
	r, rk, ok2 := linear(c.Src[1])
	if !ok1 || !ok2 {
		return nil, false, false
	}
	for v, k := range r {
		l[v] -= k
	}
	k := lk - rk // the clause is cx*x + rest + k < 0 (or >= 0)
	cx := l[x]
	if cx != 1 && cx != -1 {
		return nil, false, false
	}
	rest := symbolic.C(k)
	for v, m := range l {
		if v == x || m == 0 {
			continue
		}
		if allowed[v] == nil {
			return nil, false, false
		}
		rest = symbolic.Add(rest, symbolic.Mul(allowed[v], symbolic.C(m)))
	}
	// x + rest < 0: x < -rest; x + rest >= 0: x >= -rest;
	// -x + rest < 0: x >= rest+1; -x + rest >= 0: x < rest+1.
	if cx == 1 {
		return symbolic.Mul(rest, symbolic.C(-1)), ge, true
	}
	return symbolic.Add(rest, symbolic.C(1)), !ge, true
}

// clipCandidates returns the reduce loops of nt that can be clipped, outer
// first, each with its bounds.
func (pl *plan) clipCandidates(nt nest) []clipAxis {
	if len(pl.reduces) == 0 || len(nt.red) < 2 || pl.top > 0 {
		return nil
	}
	if !nt.oneBlock && slices.ContainsFunc(pl.reduces, cascades) {
		return nil // compensated blocks: a skipped block would still move the sum
	}
	for _, r := range pl.reduces {
		if r.ReduceOp != OpAdd {
			return nil
		}
	}
	// The clauses every reduce's terms are 0 without.
	var zero []*symbolic.Node
	for i, r := range pl.reduces {
		z := pl.zeroClauses(r.Src[0])
		if i > 0 {
			z = slices.DeleteFunc(z, func(c *symbolic.Node) bool {
				return !slices.ContainsFunc(zero, func(d *symbolic.Node) bool { return symbolic.Equal(c, d) })
			})
		}
		zero = z
	}
	if len(zero) == 0 {
		return nil
	}
	loops := map[int]int{} // loops per axis
	for _, ls := range [][]loop{nt.outer, nt.red, nt.inner, nt.lanes, nt.upcast, nt.unroll} {
		for _, l := range ls {
			loops[l.axis]++
		}
	}
	// Variables a bound may read: output axes walked only by outer loops
	// (or by none), and reduce axes of a single loop further out.
	allowed := map[string]*symbolic.Node{}
	axVar := func(a int) *symbolic.Node { return symbolic.Var(axisVar(a), 0, int64(max(pl.shape[a]-1, 0))) }
	for a := range pl.shape {
		if pl.red[a] {
			continue
		}
		only := true
		for _, ls := range [][]loop{nt.inner, nt.lanes, nt.upcast, nt.unroll} {
			for _, l := range ls {
				only = only && l.axis != a
			}
		}
		if only {
			allowed[axisVar(a)] = axVar(a)
		}
	}
	var out []clipAxis
	for k, l := range nt.red[:len(nt.red)-1] {
		ok := loops[l.axis] == 1 && l.size == pl.shape[l.axis] && l.mul == 1 && l.rest == 0 && l.shift == 0 && !(nt.split && k == 0)
		if ok {
			c := clipAxis{axis: l.axis}
			x := axisVar(l.axis)
			for _, cl := range zero {
				b, lower, isBound := bound(cl, x, allowed)
				if !isBound {
					continue
				}
				switch {
				case lower && symbolic.Simplify(b).Max() > 0:
					c.los = append(c.los, b)
				case !lower && symbolic.Simplify(b).Min() < int64(l.size):
					c.his = append(c.his, b)
				default:
					continue // never cuts
				}
				c.clauses = append(c.clauses, cl)
			}
			if len(c.clauses) > 0 {
				out = append(out, c)
			}
		}
		if loops[l.axis] == 1 && l.size == pl.shape[l.axis] && l.mul == 1 {
			allowed[axisVar(l.axis)] = axVar(l.axis)
		}
	}
	return out
}

// chooseClips decides which candidate loops to clip (OptClip, Arg the
// number of mask clauses each is clipped by).
func (pl *plan) chooseClips(nt nest, ch *chooser) map[int]*clipAxis {
	cands := pl.clipCandidates(nt)
	if len(cands) == 0 && !ch.replays {
		return nil
	}
	out := map[int]*clipAxis{}
	opts := make([]Opt, len(cands))
	for k, c := range cands {
		opts[k] = Opt{Axis: c.axis, Arg: len(c.clauses)}
	}
	for _, o := range ch.decideEach(OptClip, opts) {
		i := slices.IndexFunc(cands, func(c clipAxis) bool { return c.axis == o.Axis && len(c.clauses) == o.Arg })
		check(i >= 0 && out[o.Axis] == nil, o)
		out[o.Axis] = &cands[i]
	}
	return out
}

// axisMap maps each abstract axis variable to the axis's current index
// expression.
func (e *emitter) axisMap() map[string]*symbolic.Node {
	m := make(map[string]*symbolic.Node, len(e.axes))
	for a, x := range e.axes {
		m[axisVar(a)] = x
	}
	return m
}

// openClipped starts loop l over a clipped axis: from the largest lower
// bound (at least 0) to the smallest upper one (at most the size), each
// computed from the outer loops' variables before the loop.
func (e *emitter) openClipped(l loop, c *clipAxis) *symbolic.Node {
	name := fmt.Sprintf("ridx%d", e.loops)
	e.loops++
	m := e.axisMap()
	lo := e.konst(0, Index)
	for _, b := range c.los {
		lo = e.b.pure(UOp{Op: OpMax, DType: Index}, lo, e.sym(symbolic.Simplify(symbolic.Substitute(b, m))))
	}
	// min(n, hi...) = -max(-n, -hi...)
	negHi := e.konst(-float64(l.size), Index)
	for _, b := range c.his {
		negHi = e.b.pure(UOp{Op: OpMax, DType: Index}, negHi, e.sym(symbolic.Simplify(symbolic.Mul(symbolic.Substitute(b, m), symbolic.C(-1)))))
	}
	hi := e.b.pure(UOp{Op: OpMul, DType: Index}, negHi, e.konst(-1, Index))
	v := symbolic.Var(name, 0, int64(max(l.size-1, 0)))
	e.vars[name] = e.b.openClipped(name, lo, hi, l.size, l.kind)
	e.setAxis(l.axis, symbolic.Simplify(symbolic.Add(e.axes[l.axis], v)))
	return v
}

// divMods counts the divisions and remainders in n.
func divMods(n *symbolic.Node) int {
	if n.Op == symbolic.OpConst || n.Op == symbolic.OpVar {
		return 0
	}
	c := divMods(n.Src[0]) + divMods(n.Src[1])
	if n.Op == symbolic.OpDiv || n.Op == symbolic.OpMod {
		c++
	}
	return c
}

// refine returns leaf n's index and valid expressions i and v improved
// from its abstract ones: the abstract index (or valid) substituted when
// it has fewer divisions (a view over a padded view, whose direct index
// the bounds of a shifted tile's loop variable keep from simplifying), and
// the valid without the clauses of clipped loops, which hold inside them.
func (e *emitter) refine(n *Node, i, v *symbolic.Node) (*symbolic.Node, *symbolic.Node) {
	multi := len(e.pl.sts[n].Views) > 1
	if !multi && len(e.clipped) == 0 {
		return i, v
	}
	ai, av := e.pl.absExpr(n)
	var m map[string]*symbolic.Node
	if multi && divMods(i) > 0 {
		m = e.axisMap()
		if si := symbolic.Simplify(symbolic.Substitute(ai, m)); divMods(si) < divMods(i) {
			i = si
		}
	}
	cs := conjuncts(av)
	kept := slices.DeleteFunc(slices.Clone(cs), func(c *symbolic.Node) bool {
		return slices.ContainsFunc(e.clipped, func(d *symbolic.Node) bool { return symbolic.Equal(c, d) })
	})
	if len(kept) == len(cs) && !(multi && divMods(v) > 0) {
		return i, v
	}
	if m == nil {
		m = e.axisMap()
	}
	sv := symbolic.Simplify(symbolic.Substitute(symbolic.Ands(kept...), m))
	if len(kept) < len(cs) || divMods(sv) < divMods(v) {
		v = sv
	}
	return i, v
}
