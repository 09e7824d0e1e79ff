package tensor

import (
	"fmt"
	"math"
	"slices"
	"weak"

	"tiny/codegen"
	"tiny/shape"
)

// Reverse-mode autograd on the lazy graph itself, as tinygrad's
// compute_gradient: a walk from the loss back to the targets, with one rule
// per kind of node. The rules build ordinary lazy tensors, so a gradient is
// as lazy as any other value: nothing runs until it is read, and its kernels
// fuse like the forward pass's.
//
// A view keeps the node it was made from and the movement that made it
// (lazy.parent, lazy.mv), so the walk goes through movements one at a time
// even though the view itself looks at its base directly. Realize makes a
// leaf; a read realizes too but keeps the node's history when its graph
// reaches a tensor that requires grad, so a marked model's loss can be
// printed before Backward. A target that is not reached because the walk
// met a leaf made by realizing is an error, not zeros.

// Gradient returns the gradients of t, which must hold one element (a scalar
// loss), with respect to each target: a tensor of the target's shape and
// dtype, zeros where t does not depend on the target. The gradients are
// lazy. It panics with a *Error when t has more than one element, when t or
// a target is not a float tensor, when a target is a constant (Full, Zeros,
// Ones: ops fold constants away, so mark it with SetRequiresGrad first,
// which gives it a buffer), or when t depends on a target through a tensor
// realized since without its history (see Realize): its gradient would be
// lost.
func (t *Tensor) Gradient(targets ...*Tensor) []*Tensor {
	t.checkLoss("gradient")
	want := map[*lazy]bool{}
	for i, x := range targets {
		if x == nil {
			fail("gradient: target %d is nil", i+1)
		}
		checkTarget("gradient", i+1, x.n)
		want[x.n] = true
	}
	grads, _, stale := backward(t.n, func(n *lazy) bool { return want[n] })
	if stale != nil {
		fail("gradient: the loss depends on a target through a tensor that was realized (read, or realize()) before the gradient and forgot how it was computed: take gradients before reading values, or mark the targets with requires_grad_() so that reads keep the graph")
	}
	out := make([]*Tensor, len(targets))
	for i, x := range targets {
		out[i] = grads[x.n]
		if out[i] == nil {
			out[i] = x.ZerosLike()
		}
	}
	return out
}

// Backward computes the gradient of t, a scalar loss, with respect to every
// tensor in its graph marked with SetRequiresGrad, and adds it to what that
// tensor's Grad returns (tinygrad accumulates too). It returns t. It panics
// with a *Error as Gradient does.
func (t *Tensor) Backward() *Tensor {
	t.checkLoss("backward")
	grads, reached, stale := backward(t.n, func(n *lazy) bool { return n.requiresGrad })
	if stale != nil {
		fail("backward: the loss depends on a tensor that requires grad through a tensor that realize() made a leaf: call backward before realizing")
	}
	if len(grads) == 0 {
		fail("backward: the loss depends on no tensor that requires grad")
	}
	pend := []*lazy{t.n}
	for _, n := range reached {
		g := grads[n]
		if n.grad != nil {
			g = (&Tensor{n.grad}).Add(g)
		}
		n.grad = g.n
		pend = append(pend, g.n)
	}
	t.n.eng.addPending(pend...)
	return t
}

// SetRequiresGrad marks t so that Backward stores its gradient, or unmarks
// it, and returns t. A constant (Full, Zeros, Ones) becomes a contiguous copy
// first, so that ops cannot fold it away: that is the one case where t's
// node changes.
func (t *Tensor) SetRequiresGrad(on bool) *Tensor {
	if on {
		checkTarget("requires_grad", -1, t.n)
		if t.n.baseOf().kind == kConst {
			t.n = &lazy{kind: kContiguous, dtype: t.n.dtype, shape: t.n.shape, src: []*lazy{t.n}, eng: t.n.eng}
		}
	}
	t.n.requiresGrad, t.n.gradSet = on, true
	return t
}

// Detach returns t's values as a tensor no gradient flows through, as
// tinygrad's detach: a view of t's data that does not remember t. Nothing
// is copied or computed.
func (t *Tensor) Detach() *Tensor {
	n := t.n
	if n.kind == kView {
		return &Tensor{&lazy{kind: kView, dtype: n.dtype, shape: n.shape, base: n.base, st: n.st, eng: n.eng}}
	}
	return &Tensor{&lazy{kind: kView, dtype: n.dtype, shape: n.shape, base: n, st: shape.FromInts(n.shape...), eng: n.eng}}
}

// RequiresGrad reports whether t is marked with SetRequiresGrad.
func (t *Tensor) RequiresGrad() bool { return t.n.requiresGrad }

// RequiresGradSet reports whether SetRequiresGrad was called on t, with
// true or false: tinygrad's requires_grad is None until then, and an
// optimizer marks only its parameters that are still None.
func (t *Tensor) RequiresGradSet() bool { return t.n.gradSet }

// Grad returns the gradient Backward stored for t, or nil before Backward.
func (t *Tensor) Grad() *Tensor {
	if t.n.grad == nil {
		return nil
	}
	return &Tensor{t.n.grad}
}

// checkLoss panics unless t is a float tensor of one element.
func (t *Tensor) checkLoss(op string) {
	if t.Numel() != 1 {
		fail("%s of a tensor of shape %s: call it on a scalar (one element)", op, FormatShape(t.n.shape))
	}
	if !t.n.dtype.IsFloat() {
		fail("%s of a tensor of dtype %s: only float tensors have gradients", op, t.n.dtype)
	}
}

// checkTarget panics unless n can have a gradient; i numbers the target in
// the message from 1 (-1: not a target of a list).
func checkTarget(op string, i int, n *lazy) {
	what := "tensor"
	if i >= 0 {
		what = fmt.Sprintf("target %d", i)
	}
	if !n.dtype.IsFloat() {
		fail("%s: %s has dtype %s: only float tensors have gradients", op, what, n.dtype)
	}
	if op == "gradient" && n.baseOf().kind == kConst {
		fail("%s: %s is a constant, which ops fold away: call requires_grad_() on it before using it", op, what)
	}
}

// gradSrcs returns the nodes a gradient flows to from n: a view's parent,
// the operands of a computed base (or of what a realized base was, when it
// kept its history), nothing for data and constants.
func gradSrcs(n *lazy) []*lazy {
	if n.custom != nil {
		return n.custom.srcs
	}
	if n.kind == kView {
		if n.parent == nil {
			return nil
		}
		return []*lazy{n.parent}
	}
	if n.history != nil {
		return n.history.src
	}
	return n.src
}

// reachesMarked reports whether the graph below n, through the nodes
// gradients flow to, holds a tensor that requires grad; memo keeps the
// answers of one walk.
func reachesMarked(n *lazy, memo map[*lazy]bool) bool {
	if r, ok := memo[n]; ok {
		return r
	}
	memo[n] = false // a DAG: no cycles, but shared nodes are visited once
	r := n.requiresGrad
	for _, s := range gradSrcs(n) {
		r = reachesMarked(s, memo) || r
	}
	memo[n] = r
	return r
}

// hides reports whether n is a realized leaf that was computed from a
// target: the gradient through it is lost.
func hides(n *lazy, isTarget func(*lazy) bool) bool {
	for _, p := range n.cut {
		if q := p.Value(); q != nil && isTarget(q) {
			return true
		}
	}
	return false
}

// cutLeaves returns what a base realized without its history was computed
// from: the buffers and marked tensors below it, and what the realized
// leaves among them were computed from in turn, as weak pointers (they must
// not keep a loop's earlier values alive). memo is shared by one
// realization's targets.
func cutLeaves(n *lazy, memo map[*lazy][]*lazy) []weak.Pointer[lazy] {
	walkAfter(n, gradSrcs, func(n *lazy) bool { _, ok := memo[n]; return !ok }, func(n *lazy) {
		var out []*lazy
		if n.kind == kBuffer || n.requiresGrad {
			out = append(out, n)
		}
		for _, p := range n.cut {
			if q := p.Value(); q != nil {
				out = append(out, q)
			}
		}
		for _, s := range gradSrcs(n) {
			out = append(out, memo[s]...)
		}
		// Shared subgraphs (x + x, sixty deep) would repeat leaves without
		// end: keep each once.
		memo[n] = dedupe(out)
	})
	var ps []weak.Pointer[lazy]
	for _, l := range memo[n] {
		if l != n {
			ps = append(ps, weak.Make(l))
		}
	}
	return ps
}

// dedupe removes the repeats from ls, keeping the first of each, in place:
// by comparing with the ones kept while they are few (a node's leaves
// usually are: a map per node was most of cutLeaves' cost for x + 1), by a
// set past that.
func dedupe(ls []*lazy) []*lazy {
	if len(ls) > 16 {
		seen := map[*lazy]bool{}
		return slices.DeleteFunc(ls, func(l *lazy) bool {
			dup := seen[l]
			seen[l] = true
			return dup
		})
	}
	out := ls[:0]
	for _, l := range ls {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// walkAfter calls after(n) for each node under root that enter accepts
// (enter is asked once per node), after calling it for the node's
// sources, in order. It keeps its own stack: a graph may be a million ops
// deep (a loop without a realize), too deep for recursion.
func walkAfter(root *lazy, srcs func(*lazy) []*lazy, enter func(*lazy) bool, after func(*lazy)) {
	type frame struct {
		n    *lazy
		srcs []*lazy
		next int
	}
	asked := map[*lazy]bool{}
	accept := func(n *lazy) bool {
		if asked[n] {
			return false
		}
		asked[n] = true
		return enter(n)
	}
	if !accept(root) {
		return
	}
	stack := []frame{{n: root, srcs: srcs(root)}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.srcs) {
			after(f.n)
			stack = stack[:len(stack)-1]
			continue
		}
		s := f.srcs[f.next]
		f.next++
		if accept(s) {
			stack = append(stack, frame{n: s, srcs: srcs(s)})
		}
	}
}

// backward returns the gradient of root with respect to every target (a
// node for which isTarget is true) that root depends on through float
// values, and a realized leaf of the graph computed from a target, if there
// is one: the gradient through it is lost, so the result would be wrong.
func backward(root *lazy, isTarget func(*lazy) bool) (grads map[*lazy]*Tensor, reached []*lazy, stale *lazy) {
	// Topological order, sources first, of the nodes on a path to a target.
	var order, targets []*lazy
	reaches := map[*lazy]bool{}
	walkAfter(root, gradSrcs, func(n *lazy) bool {
		if isTarget(n) {
			targets = append(targets, n)
		} else if stale == nil && hides(n, isTarget) {
			stale = n
		}
		return true
	}, func(n *lazy) {
		r := isTarget(n)
		for _, s := range gradSrcs(n) {
			r = r || reaches[s]
		}
		if r {
			reaches[n] = true
			order = append(order, n)
		}
	})
	if !reaches[root] {
		return nil, nil, stale
	}
	grads = map[*lazy]*Tensor{root: root.eng.Full(root.shape, 1, root.dtype)}
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i]
		g := grads[n]
		srcs := gradSrcs(n)
		if g == nil || !n.dtype.IsFloat() || len(srcs) == 0 {
			continue // a leaf: a target, or a detached view marked as one
		}
		for j, sg := range gradRule(n, g) {
			s := srcs[j]
			if sg == nil || !reaches[s] || !s.dtype.IsFloat() {
				continue
			}
			if old := grads[s]; old != nil {
				sg = old.Add(sg)
			}
			grads[s] = sg
		}
	}
	out := map[*lazy]*Tensor{}
	for _, n := range targets {
		if g := grads[n]; g != nil {
			out[n] = g
			reached = append(reached, n)
		}
	}
	return out, reached, stale
}

// gradRule returns the gradients of n's sources (gradSrcs) given g, the
// gradient of n; a nil entry means none flows there. A realized base with a
// history follows the rule of what it was, reading its own buffer where the
// rule needs the result.
func gradRule(n *lazy, g *Tensor) []*Tensor {
	if n.custom != nil {
		return n.custom.rule(g)
	}
	was := n
	if n.history != nil {
		was = n.history
	}
	switch was.kind {
	case kContiguous:
		return []*Tensor{g}
	case kView:
		return []*Tensor{unmove(n.mv, n.parent.shape, g)}
	case kReduce:
		return []*Tensor{reduceGrad(was, n, g)}
	case kElementwise:
		return aluGrad(was, n, g)
	case kGather:
		return []*Tensor{gatherGrad(was, g), nil}
	}
	return nil
}

// aluGrad is the rule of each elementwise op n, whose result is result.
// Comparisons, bitwise ops and integer arithmetic give no gradient.
func aluGrad(n, result *lazy, g *Tensor) []*Tensor {
	out := &Tensor{result}
	src := make([]*Tensor, len(n.src))
	for i, s := range n.src {
		src[i] = &Tensor{s}
	}
	switch n.op {
	case codegen.OpAdd:
		return []*Tensor{g, g}
	case codegen.OpSub:
		return []*Tensor{g, g.Neg()}
	case codegen.OpMul:
		return []*Tensor{g.Mul(src[1]), g.Mul(src[0])}
	case codegen.OpDiv: // d(a/b) = da/b - a*db/b²
		return []*Tensor{g.Div(src[1]), g.Neg().Mul(src[0]).Div(src[1].Mul(src[1]))}
	case codegen.OpNeg:
		return []*Tensor{g.Neg()}
	case codegen.OpRecip: // d(1/x) = -1/x² = -out²
		return []*Tensor{g.Neg().Mul(out).Mul(out)}
	case codegen.OpExp2: // d(2**x) = 2**x * ln 2
		return []*Tensor{g.Mul(out).Mul(math.Ln2)}
	case codegen.OpLog2: // d(log2 x) = 1/(x ln 2)
		return []*Tensor{g.Div(src[0].Mul(math.Ln2))}
	case codegen.OpSin: // cos x = sin(pi/2 - x)
		return []*Tensor{g.Mul(src[0].RSub(math.Pi / 2).Sin())}
	case codegen.OpSqrt: // d(sqrt x) = 1/(2 sqrt x)
		return []*Tensor{g.Div(out.Mul(2))}
	case codegen.OpMax:
		// The larger operand takes the gradient; where they are equal each
		// takes half, so that max(x, x) has gradient 1 as x does. As
		// torch's, an operand gets none only where it is the smaller: a NaN
		// on either side gives both the whole gradient.
		a, b := src[0], src[1]
		share := func(x, y *Tensor) *Tensor {
			return x.Lt(y).Where(0, x.Eq(y).Where(g.Mul(0.5), g))
		}
		return []*Tensor{share(a, b), share(b, a)}
	case codegen.OpMod: // fmod(a, b) = a - b*trunc(a/b)
		if !n.dtype.IsFloat() {
			return []*Tensor{nil, nil}
		}
		return []*Tensor{g, g.Neg().Mul(src[0].Div(src[1]).trunc())}
	case codegen.OpWhere:
		c := src[0]
		return []*Tensor{nil, c.Where(g, 0), c.Where(0, g)}
	case codegen.OpCast:
		if !n.src[0].dtype.IsFloat() {
			return []*Tensor{nil}
		}
		return []*Tensor{g.Cast(n.src[0].dtype)}
	}
	return make([]*Tensor, len(n.src))
}

// reduceGrad spreads g, of the reduce's keepdim shape, over its input: a sum
// copies it to every element, a max gives it to the elements equal to the
// maximum, shared evenly among ties, and a product gives out/x (undefined
// where x is 0).
func reduceGrad(n, result *lazy, g *Tensor) *Tensor {
	x := &Tensor{n.src[0]}
	shp := x.Shape()
	ge := g.Expand(shp...)
	switch n.op {
	case codegen.OpMax:
		// g is divided by the number of ties at the reduce's shape (the
		// count's kernel does it once per maximum) and the mask selects
		// it: a select, not a cast of the comparison, so that the C
		// compiler vectorizes the loop that reads it.
		e := x.n.eng
		hit := x.Eq((&Tensor{result}).Expand(shp...)).Where(e.Scalar(1, n.dtype), e.Scalar(0, n.dtype))
		return hit.Mul(g.Div(hit.Sum(n.axes, true)).Expand(shp...))
	case codegen.OpMul:
		return ge.Mul((&Tensor{result}).Expand(shp...)).Div(x)
	}
	return ge
}

// customGrad is the gradient rule of an op that knows a better backward
// than its primitives' (a convolution's is another convolution, not the
// transpose of its window views): the gradient flows from the node straight
// to srcs through rule.
type customGrad struct {
	srcs []*lazy
	rule func(g *Tensor) []*Tensor
}

// withGrad returns a view of out's data whose gradient goes to srcs through
// rule (rule gets the gradient of out and returns one per src, nil for
// none) instead of through the graph that computed out. The forward graph
// is unchanged: the scheduler sees an ordinary view.
func withGrad(out *Tensor, srcs []*Tensor, rule func(g *Tensor) []*Tensor) *Tensor {
	n := out.n
	base, st := n, shape.FromInts(n.shape...)
	if n.kind == kView {
		base, st = n.base, n.st
	}
	ls := make([]*lazy, len(srcs))
	for i, s := range srcs {
		ls[i] = s.n
	}
	return &Tensor{&lazy{kind: kView, dtype: n.dtype, shape: n.shape, base: base, st: st, eng: n.eng,
		custom: &customGrad{srcs: ls, rule: rule}}}
}

// unmove turns g, the gradient of a view made by m, into the gradient of
// the node m was applied to, whose shape is shp.
func unmove(m move, shp []int, g *Tensor) *Tensor {
	switch m.op {
	case mvReshape:
		return g.Reshape(shp...)
	case mvPermute:
		inv := make([]int, len(m.order))
		for i, a := range m.order {
			inv[a] = i
		}
		return g.Permute(inv...)
	case mvExpand:
		var axes []int
		for i, d := range shp {
			if d != m.shape[i] {
				axes = append(axes, i)
			}
		}
		if axes == nil {
			return g
		}
		return g.Sum(axes, true)
	case mvPad:
		b := make([][2]int, len(shp))
		for i, p := range m.bounds {
			b[i] = [2]int{p[0], p[0] + shp[i]}
		}
		return g.Shrink(b)
	case mvShrink:
		p := make([][2]int, len(shp))
		for i, b := range m.bounds {
			p[i] = [2]int{b[0], shp[i] - b[1]}
		}
		return g.Pad(p)
	case mvFlip:
		var axes []int
		for i, f := range m.flip {
			if f {
				axes = append(axes, i)
			}
		}
		return g.Flip(axes...)
	}
	// Stride: put each kept element back at every steps[i]-th place, zeros
	// between, and cut to the original length.
	for i, k := range m.steps {
		if k == 1 {
			continue
		}
		gs := g.Shape()
		cnt := gs[i]
		grown := append(append(append([]int{}, gs[:i]...), cnt, 1), gs[i+1:]...)
		pad := make([][2]int, len(grown))
		pad[i+1] = [2]int{0, k - 1}
		flat := append(append(append([]int{}, gs[:i]...), cnt*k), gs[i+1:]...)
		g = g.Reshape(grown...).Pad(pad).Reshape(flat...)
		cut := make([][2]int, len(flat))
		for j, d := range flat {
			cut[j] = [2]int{0, d}
		}
		cut[i] = [2]int{0, shp[i]}
		g = g.Shrink(cut)
	}
	return g
}
