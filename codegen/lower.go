package codegen

import (
	"fmt"
	"maps"
	"slices"

	"tiny/symbolic"
)

// Options choose the optimizations Lower applies. The zero value applies
// them all; tests turn them off one by one to check each against the plain
// lowering.
type Options struct {
	NoMerge   bool // keep every axis: no dropping of size-1 axes, no merging of adjacent ones
	NoReorder bool // reduce loops in axis order, innermost; no output axis inside the reduce
	NoUnroll  bool // never unroll small innermost loops (Skip OptUnroll)
	NoSplit   bool // never split a reduce with no output loops across workers (Skip OptSplit)

	// Skip lists kinds of optimization (opt.go) never to apply.
	Skip []OptOp
	// Replay, when not nil, is the list of optimizations to apply instead
	// of choosing them: a Program's Opts, lowered again with the same
	// options, gives the same Program. An empty, non-nil list applies none.
	Replay Opts

	// Target shapes register tiles, reduce lanes and transpose tiles for
	// the device; nil means DefaultTarget. NoReorder turns them all off.
	Target *Target
}

// Lower turns a kernel into a Program: it merges and orders the kernel's
// axes into a loop nest (see nest), then emits uops for the AST inside it,
// with index and valid expressions from each ShapeTracker.
func Lower(k *Kernel, opts Options) (p *Program, err error) {
	if k.AST != nil && k.AST.Scatters() {
		// A scatter writes at positions computed from data: no streamed
		// store (whose buffer of a row assumes the rows' places), and no
		// transpose tiles (whose blocks copy a load to a store as it is).
		opts.Skip = append(slices.Clone(opts.Skip), OptStream, OptTile)
		if k.AST.ReduceOp != 0 {
			// A folding scatter reads each element before it writes it:
			// its loops stay as the scheduler laid them out (the scattered
			// axis outermost) and none is unrolled, so that each read
			// follows the write before it.
			opts.NoMerge = true
			opts.Skip = append(opts.Skip, OptUnroll)
		}
	} else if k.Cached {
		opts.Skip = append(slices.Clone(opts.Skip), OptStream)
	}
	pl, err := analyze(k)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("codegen: lowering %s: %v", k.Name, r)
		}
	}()
	if !opts.NoMerge {
		pl.refine()
		pl.dropOnes()
		pl.merge()
	}
	if opts.Target == nil {
		opts.Target = &DefaultTarget
	}
	ch := newChooser(opts)
	nt := pl.order(opts, ch)
	e := &emitter{b: newBuilder(), pl: pl, vars: map[string]*bnode{}, syms: map[*symbolic.Node]*bnode{}, memo: map[*Node]*bnode{}}
	e.clips = pl.chooseClips(nt, ch)
	for _, c := range e.clips {
		e.clipped = append(e.clipped, c.clauses...)
	}
	if !pl.emptyOutput() {
		e.emit(nt)
	}
	rw := newRewriter(e.b.linearize())
	ch.rewrite(OptExp2, rw.foldExp2)
	ch.rewrite(OptPow, rw.foldPow)
	ch.rewrite(OptMulAcc, rw.fuseMulAcc)
	p = &Program{Name: k.Name, UOps: rw.compact(), Bufs: k.Bufs, SplitReduce: nt.split, Serial: pl.scatterSerial(nt), Span: pl.globalSpan(nt), Opts: ch.applied, Vector: opts.Target.Vector}
	if p.Name == "" {
		p.Name = pl.name()
	}
	p.estimate()
	listing := newCListing(p, cConst)
	ss := listing.streamStores()
	buf := -1
	for _, s := range ss {
		buf = p.UOps[p.UOps[s].Src[0]].Buf
	}
	if buf < 0 {
		buf = listing.streamTile()
	}
	if buf >= 0 || ch.replays {
		if o, ok := ch.decide(OptStream, func() (Opt, bool) { return Opt{Axis: buf, Arg: 1}, true }); ok {
			check(o.Axis == buf && buf >= 0, o)
		}
		p.Opts = ch.applied
	}
	if packs := packLoads(p); len(packs) > 0 || ch.replays {
		for _, o := range ch.decideEach(OptPack, packs) {
			check(slices.Contains(packs, o), o)
		}
		p.Opts = ch.applied
	}
	if steps := stepLoops(p, opts.Target.Steps); len(steps) > 0 || ch.replays {
		for _, o := range ch.decideEach(OptStep, steps) {
			_, tile := tileAt(p.UOps, o.Axis)
			check(tile && o.Arg >= 2, o)
		}
		p.Opts = ch.applied
	}
	return p, nil
}

// emitter walks the AST inside the loop nest.
type emitter struct {
	b        *builder
	pl       *plan
	vars     map[string]*bnode         // loop variables by name
	syms     map[*symbolic.Node]*bnode // lowered symbolic nodes
	axes     []*symbolic.Node          // the index expression of each axis in the current copy
	accs     []map[*Node]*bnode        // DEFINE_ACC of each reduce, per upcast copy
	done     []map[*Node]*bnode        // per upcast copy, the folded value of each reduce of a lower level than the one emitted (lanes only)
	level    []*Node                   // the reduces of the level whose loops are emitted
	copy     int                       // the upcast copy being emitted
	comp     []map[*Node]*bnode        // the compensation of each float sum, per upcast copy (cascade.go)
	acc      *bnode                    // the accumulator index, nil when there are none
	accIx    *symbolic.Node            // the same as an expression
	lanes    int                       // accumulators per output element (1: no lanes)
	red      []loop                    // unrolled reduce axes, folded without accumulators
	foldBase []*symbolic.Node          // while fold runs: the axis of each loop of red before it
	loops    int
	skips    []skip // one per shifted loop open

	clips   map[int]*clipAxis // the clipped reduce loops by axis (clip.go)
	clipped []*symbolic.Node  // their mask clauses, true inside them

	// memo holds the value of every AST node lowered since e.axes last
	// changed: a kernel AST is a DAG (x+x repeated), and lowering it as a
	// tree would take time exponential in its depth.
	memo map[*Node]*bnode
}

// skip says where a shifted loop's last tile may store: along axis, only
// from position from on when last (1 on the last tile, else 0) is 1.
type skip struct {
	axis int
	last *symbolic.Node
	from *symbolic.Node
}

// setAxis sets the index expression of axis a and forgets the values that
// depended on the old one.
func (e *emitter) setAxis(a int, v *symbolic.Node) {
	e.axes[a] = v
	clear(e.memo)
}

func (e *emitter) emit(nt nest) {
	pl := e.pl
	e.axes = make([]*symbolic.Node, len(pl.shape))
	for a := range e.axes {
		e.axes[a] = symbolic.C(0)
	}
	e.lanes = nt.laneSize()
	outer := nt.outer
	if len(nt.peel) > 0 {
		outer = outer[:len(outer)-1] // the pieces are opened below
	}
	for _, l := range outer {
		e.open(l)
	}
	gUnroll := nt.upcast
	for _, l := range nt.unroll {
		if pl.red[l.axis] {
			e.red = append(e.red, l)
		} else {
			gUnroll = append(gUnroll, l)
		}
	}
	if len(nt.red) > 0 {
		e.accumulate(nt)
	}
	root := pl.k.AST
	body := func() {
		e.copies(gUnroll, func() {
			v := e.value(root.Src[0])
			v = e.cast(v, pl.k.Bufs[root.Buf].DType)
			idx, valid := e.index(root)
			if idx != nil && root.Scatters() {
				// The position along the scattered axis is data: in
				// [0, Bound) it moves the index by Stride per step, and
				// elsewhere nothing is written.
				w := e.cast(e.value(root.Src[1]), Index)
				idx = e.b.pure(UOp{Op: OpAdd, DType: Index}, idx, e.b.pure(UOp{Op: OpMul, DType: Index}, w, e.konst(float64(root.Stride), Index)))
				lo := e.b.pure(UOp{Op: OpCmpLt, DType: Bool}, e.konst(-1, Index), w)
				hi := e.b.pure(UOp{Op: OpCmpLt, DType: Bool}, w, e.konst(float64(root.Bound), Index))
				valid = e.and(valid, e.b.pure(UOp{Op: OpAnd, DType: Bool}, lo, hi))
				if root.ReduceOp != 0 {
					// Fold into the element: its LOAD is ordered, not
					// pure, so that it stays between the writes before
					// and after it instead of being merged or hoisted.
					src := []*bnode{e.global(root.Buf), idx}
					if valid != nil {
						src = append(src, valid)
					}
					old := e.b.ordered(UOp{Op: OpLoad, DType: v.u.DType}, src...)
					v = e.b.pure(UOp{Op: root.ReduceOp, DType: v.u.DType}, old, v)
				}
			}
			valid = e.and(valid, e.storeValid())
			src := []*bnode{e.global(root.Buf), idx, v}
			if valid != nil {
				src = append(src, valid)
			}
			e.b.ordered(UOp{Op: OpStore, DType: v.u.DType}, src...)
		})
	}
	if len(nt.peel) > 0 {
		e.pieces(nt.outer[len(nt.outer)-1], nt.peel, body)
	} else {
		body()
	}
	for range nt.inner {
		e.b.close()
	}
	for range outer {
		e.b.close()
	}
}

// pieces emits loop l as one loop per piece between its cuts, each running
// f with l's axis offset by the piece's start: each loop variable's range is
// its piece's, so the index and valid expressions simplify for it.
func (e *emitter) pieces(l loop, cuts []int, f func()) {
	base := e.axes[l.axis]
	at := append(append([]int{0}, cuts...), l.size)
	for i := 0; i+1 < len(at); i++ {
		e.setAxis(l.axis, symbolic.Simplify(symbolic.Add(base, symbolic.C(int64(at[i])))))
		e.open(loop{axis: l.axis, size: at[i+1] - at[i], mul: 1, kind: l.kind})
		f()
		e.b.close()
	}
	e.setAxis(l.axis, base)
}

// accumulate emits the accumulators and the reduce loops that fill them,
// then reopens the inner loops for the code after the reduce. Each upcast
// copy has its own accumulators. A float sum also gets the accumulators of
// its compensation (cascade.go), added in after the reduce loops.
func (e *emitter) accumulate(nt nest) {
	size := e.lanes
	for _, l := range nt.inner {
		size *= l.size
	}
	saved := append([]*symbolic.Node{}, e.axes...)
	// A reduce inside another (argmax's max, inside the search for its
	// first position) is folded by reduce loops of its own before the
	// loops of the reduce that reads it: one level after the other.
	for lv := 0; lv <= e.pl.top; lv++ {
		e.level = e.level[:0]
		for _, r := range e.pl.reduces {
			if e.pl.level[r] == lv {
				e.level = append(e.level, r)
			}
		}
		if lv > 0 {
			e.foldLevel(nt)
		}
		e.accs = e.defineAccs(nt, size, func(*Node) bool { return true })
		e.comp = nil
		if len(nt.red) > 1 && !nt.oneBlock && slices.ContainsFunc(e.level, cascades) {
			e.comp = e.defineAccs(nt, size, cascades)
		}
		e.reduceFrom(nt, 0, size)
		if e.comp != nil {
			e.overAccs(size, func(idx *bnode) {
				for c, accs := range e.comp {
					for _, r := range e.level {
						if !cascades(r) {
							continue
						}
						// Take the last error out, unless the sum is an infinity
						// or NaN.
						s := e.b.ordered(UOp{Op: OpLoad, DType: r.DType}, e.accs[c][r], idx)
						v := e.b.pure(UOp{Op: OpNeg, DType: r.DType}, e.b.ordered(UOp{Op: OpLoad, DType: r.DType}, accs[r], idx))
						finite := e.b.pure(UOp{Op: OpCmpEq, DType: Bool}, e.b.pure(UOp{Op: OpSub, DType: r.DType}, s, s), e.konst(0, r.DType))
						v = e.b.pure(UOp{Op: OpWhere, DType: r.DType}, finite, v, e.konst(0, r.DType))
						e.b.ordered(UOp{Op: OpAccum, DType: r.DType, ReduceOp: OpAdd}, e.accs[c][r], idx, v)
					}
				}
			})
		}
		copy(e.axes, saved)
		clear(e.memo)
	}
	e.openInner(nt.inner, false)
}

// foldLevel folds the lanes of the reduces emitted so far, for the loops
// of the next level to read: outside the loops, at the first lane, so that
// no load of an accumulator sits in them (the CPU device runs a loop
// without one as a run). With an output axis walked inside the reduce (no
// lanes), those loops read the accumulators at its position.
func (e *emitter) foldLevel(nt nest) {
	if len(nt.inner) > 0 {
		return
	}
	if len(e.done) == 0 {
		e.done = make([]map[*Node]*bnode, len(e.accs))
		for c := range e.done {
			e.done[c] = map[*Node]*bnode{}
		}
	}
	e.accIx = symbolic.C(0)
	e.acc = e.sym(e.accIx)
	e.copies(nt.upcast, func() {
		for _, r := range e.pl.reduces {
			if _, ok := e.done[e.copy][r]; !ok && e.accs[e.copy][r] != nil {
				e.done[e.copy][r] = e.foldLanes(r)
			}
		}
	})
	clear(e.memo)
}

// defineAccs emits, for each upcast copy, an accumulator of size for each
// reduce that level selects, and returns them with the current ones for
// the others.
func (e *emitter) defineAccs(nt nest, size int, level func(*Node) bool) []map[*Node]*bnode {
	var out []map[*Node]*bnode
	e.copies(nt.upcast, func() {
		accs := map[*Node]*bnode{}
		if e.accs != nil {
			maps.Copy(accs, e.accs[e.copy])
		}
		for _, r := range e.level {
			if level(r) {
				accs[r] = e.b.ordered(UOp{Op: OpDefineAcc, DType: r.DType, Val: identity(r.ReduceOp, r.DType), Size: size, ReduceOp: r.ReduceOp})
			}
		}
		out = append(out, accs)
	})
	return out
}

// reduceFrom emits reduce loops k... of nt and what they enclose, folding
// into e.accs. With a float sum among the reduces and more than one reduce
// loop, the innermost loop is a block (cascade.go), and so are its rest and
// the lane tail.
func (e *emitter) reduceFrom(nt nest, k, size int) {
	if k == len(nt.red) {
		e.openInner(append(append([]loop{}, nt.inner...), nt.lanes...), true)
		e.accumulateBody(nt)
		for range len(nt.inner) + len(nt.lanes) {
			e.b.close()
		}
		return
	}
	l := nt.red[k]
	before := e.axes[l.axis]
	block := e.comp != nil && len(nt.red) > 1
	e.reduceLoop(nt, l, k+1, size, block && k == len(nt.red)-1)
	end := int64(l.size * l.mul)
	if l.rest > 0 {
		// The positions past the last whole block, a loop in place of the
		// one restSkip levels in.
		e.setAxis(l.axis, symbolic.Simplify(symbolic.Add(before, symbolic.C(end))))
		from := k + l.restSkip + 1
		e.reduceLoop(nt, loop{axis: l.axis, size: l.rest, mul: l.restMul, kind: RangeReduce}, from, size, block && from == len(nt.red))
		end += int64(l.rest * l.restMul)
	}
	if k == nt.tailAt && nt.tail > 0 {
		// The lane axis's positions past the last whole group, each into
		// its own lane.
		e.setAxis(l.axis, symbolic.Simplify(symbolic.Add(before, symbolic.C(end))))
		e.inBlock(nt, size, block, func() {
			e.accIx = e.open(loop{axis: l.axis, size: nt.tail, mul: 1, kind: RangeReduce})
			e.acc = e.sym(e.accIx)
			e.accumulateBody(nt)
			e.b.close()
		})
	}
	e.setAxis(l.axis, before)
}

// reduceLoop emits loop l around reduce loops from... of nt, as a block
// when block is set.
func (e *emitter) reduceLoop(nt nest, l loop, from, size int, block bool) {
	before := e.axes[l.axis]
	e.inBlock(nt, size, block, func() {
		e.open(l)
		e.reduceFrom(nt, from, size)
		e.b.close()
	})
	e.setAxis(l.axis, before)
}

// inBlock runs f, which emits loops folding into e.accs, as a block when
// block is set: f folds into new accumulators for the float sums, whose
// values are then added into the current ones with Kahan's compensated
// addition, the rounding error of each kept in e.comp.
func (e *emitter) inBlock(nt nest, size int, block bool, f func()) {
	if !block {
		f()
		return
	}
	outer := e.accs
	e.accs = e.defineAccs(nt, size, cascades)
	f()
	inner := e.accs
	e.accs = outer
	e.overAccs(size, func(idx *bnode) {
		for c, accs := range inner {
			for _, r := range e.level {
				if !cascades(r) {
					continue
				}
				d := r.DType
				op := func(o Op, a, b *bnode) *bnode { return e.b.pure(UOp{Op: o, DType: d}, a, b) }
				x := e.b.ordered(UOp{Op: OpLoad, DType: d}, accs[r], idx)
				s := e.b.ordered(UOp{Op: OpLoad, DType: d}, e.accs[c][r], idx)
				k := e.b.ordered(UOp{Op: OpLoad, DType: d}, e.comp[c][r], idx)
				// Kahan: y is x corrected by the error of the last addition,
				// t = s+y, and the new error (t-s)-y, kept 0 once t is an
				// infinity or NaN (it would be NaN, and turn the sum NaN).
				y := op(OpSub, x, k)
				t := op(OpAdd, s, y)
				finite := e.b.pure(UOp{Op: OpCmpEq, DType: Bool}, op(OpSub, t, t), e.konst(0, d))
				kn := e.b.pure(UOp{Op: OpWhere, DType: d}, finite, op(OpSub, op(OpSub, t, s), y), e.konst(0, d))
				e.b.ordered(UOp{Op: OpAccum, DType: d, ReduceOp: OpAdd}, e.accs[c][r], idx, y) // s+y: t again
				// k + (kn-k) is kn up to a rounding of the error's error.
				e.b.ordered(UOp{Op: OpAccum, DType: d, ReduceOp: OpAdd}, e.comp[c][r], idx, op(OpSub, kn, k))
			}
		}
	})
}

// overAccs calls f inside a loop over the positions of accumulators of
// size, with the position's index.
func (e *emitter) overAccs(size int, f func(idx *bnode)) {
	if size <= 1 {
		f(e.konst(0, Index))
		return
	}
	name := fmt.Sprintf("ridx%d", e.loops)
	e.loops++
	f(e.b.open(name, size, RangeInner))
	e.b.close()
}

// accumulateBody folds the reduces' values at the current position into
// the accumulators, in every upcast copy.
func (e *emitter) accumulateBody(nt nest) {
	e.copies(nt.upcast, func() {
		for _, r := range e.level {
			v := e.fold(r)
			e.b.ordered(UOp{Op: OpAccum, DType: r.DType, ReduceOp: r.ReduceOp}, e.accs[e.copy][r], e.acc, v)
		}
	})
}

// openInner opens the inner loops and sets the accumulator index to their
// flattened position; when withLanes is false the lane loop is not among
// them and the index is that of an element's first lane.
func (e *emitter) openInner(inner []loop, withLanes bool) {
	var idx *symbolic.Node = symbolic.C(0)
	for _, l := range inner {
		v := e.open(l)
		idx = symbolic.Add(symbolic.Mul(idx, symbolic.C(int64(l.size))), v)
	}
	if !withLanes {
		idx = symbolic.Mul(idx, symbolic.C(int64(e.lanes)))
	}
	e.accIx = symbolic.Simplify(idx)
	e.acc = e.sym(e.accIx)
}

// open starts loop l and adds its variable to the axis it walks. A shifted
// loop adds v*mul - shift*(v//(size-1)): the last tile starts shift early.
func (e *emitter) open(l loop) *symbolic.Node {
	if c := e.clips[l.axis]; c != nil && l.kind == RangeReduce {
		return e.openClipped(l, c)
	}
	name := fmt.Sprintf("ridx%d", e.loops)
	e.loops++
	v := symbolic.Var(name, 0, int64(max(l.size-1, 0)))
	e.vars[name] = e.b.open(name, l.size, l.kind)
	step := symbolic.Mul(v, symbolic.C(int64(l.mul)))
	if l.shift > 0 {
		last := symbolic.Div(v, symbolic.C(int64(l.size-1))) // 1 on the last tile, else 0
		step = symbolic.Sub(step, symbolic.Mul(last, symbolic.C(int64(l.shift))))
		// From the last tile's start in an unshifted walk, past the
		// position outer loops on the same axis reached.
		from := symbolic.Add(e.axes[l.axis], symbolic.C(int64((l.size-1)*l.mul)))
		e.skips = append(e.skips, skip{axis: l.axis, last: last, from: from})
	}
	e.setAxis(l.axis, symbolic.Simplify(symbolic.Add(e.axes[l.axis], step)))
	return v
}

// storeValid returns the condition under which the current copy stores, nil
// when it always does: on the last tile of a shifted loop, only the
// positions past the tile before it.
func (e *emitter) storeValid() *bnode {
	var cond *symbolic.Node
	for _, s := range e.skips {
		c := symbolic.Ge(e.axes[s.axis], symbolic.Mul(s.last, s.from))
		if cond == nil {
			cond = c
		} else {
			cond = symbolic.And(cond, c)
		}
	}
	if cond == nil {
		return nil
	}
	if cond = symbolic.Simplify(cond); cond.IsTrue() {
		return nil
	}
	return e.sym(cond)
}

// and returns a&b for validity conditions, where nil means always true.
func (e *emitter) and(a, b *bnode) *bnode {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return e.b.pure(UOp{Op: OpAnd, DType: Bool}, a, b)
}

// copies calls f once for every combination of values of the unrolled or
// upcast loops, with each loop's axis advanced by its value times its mul,
// and e.copy numbering the calls from 0 (restored afterwards).
func (e *emitter) copies(ls []loop, f func()) {
	n, outer := 0, e.copy
	var rec func(ls []loop)
	rec = func(ls []loop) {
		if len(ls) == 0 {
			e.copy = n
			f()
			n++
			return
		}
		l := ls[0]
		saved := e.axes[l.axis]
		for i := 0; i < l.size; i++ {
			e.setAxis(l.axis, symbolic.Simplify(symbolic.Add(saved, symbolic.C(int64(i*l.mul)))))
			rec(ls[1:])
		}
		e.setAxis(l.axis, saved)
	}
	rec(ls)
	e.copy = outer
}

// fold returns the value of reduce r over its unrolled axes (the whole
// reduce when no reduce loop is left).
func (e *emitter) fold(r *Node) *bnode {
	var acc *bnode
	c := e.copy
	if e.foldBase == nil {
		e.foldBase = make([]*symbolic.Node, len(e.red))
		for k, l := range e.red {
			e.foldBase[k] = e.axes[l.axis]
		}
		defer func() { e.foldBase = nil }()
	} else {
		// A reduce inside the one being folded (argmax's max) folds the
		// same positions, from the first.
		at := make([]*symbolic.Node, len(e.red))
		for k, l := range e.red {
			at[k] = e.axes[l.axis]
		}
		for k, l := range e.red {
			e.setAxis(l.axis, e.foldBase[k])
		}
		defer func() {
			for k, l := range e.red {
				e.setAxis(l.axis, at[k])
			}
		}()
	}
	e.copies(e.red, func() {
		e.copy = c // the upcast copy: a reduce inside reads its accumulators
		v := e.value(r.Src[0])
		if acc == nil {
			acc = v
		} else {
			acc = e.alu(r.ReduceOp, r.DType, acc, v)
		}
	})
	return acc
}

// value returns the uop computing AST node n in the current copy.
func (e *emitter) value(n *Node) *bnode {
	if v, ok := e.memo[n]; ok {
		return v
	}
	v := e.lowerNode(n)
	e.memo[n] = v
	return v
}

// lowerNode lowers n, its operands through value.
func (e *emitter) lowerNode(n *Node) *bnode {
	if e.pl.never[n] {
		return e.konst(0, n.DType)
	}
	switch n.Op {
	case OpLoad:
		idx, valid := e.index(n)
		if idx == nil {
			return e.konst(0, n.DType)
		}
		src := []*bnode{e.global(n.Buf), idx}
		if valid != nil {
			src = append(src, valid)
		}
		v := e.b.pure(UOp{Op: OpLoad, DType: e.pl.k.Bufs[n.Buf].DType}, src...)
		return e.cast(v, n.DType)
	case OpGather:
		return e.gather(n)
	case OpConst:
		c := e.konst(n.Val, n.DType)
		idx, valid := e.index(n)
		if idx == nil {
			return e.konst(0, n.DType)
		}
		if valid != nil {
			return e.b.pure(UOp{Op: OpWhere, DType: n.DType}, valid, c, e.konst(0, n.DType))
		}
		return c
	case OpReduce:
		if e.pl.emptyReduce() {
			return e.konst(identity(n.ReduceOp, n.DType), n.DType)
		}
		if e.accs == nil {
			return e.fold(n)
		}
		if len(e.done) > 0 {
			if v, ok := e.done[e.copy][n]; ok {
				return v
			}
		}
		return e.foldLanes(n)
	case OpCast:
		return e.cast(e.value(n.Src[0]), n.DType)
	}
	if !n.Op.IsElementwise() {
		panic(fmt.Sprintf("unexpected %s in kernel AST", n.Op))
	}
	src := make([]*bnode, len(n.Src))
	for i, s := range n.Src {
		src[i] = e.value(s)
	}
	return e.alu(n.Op, n.DType, src...)
}

// foldLanes returns reduce n's value at the current output position: its
// accumulator's lanes from e.acc on, folded pairwise ((l0+l1)+(l2+l3))+...
func (e *emitter) foldLanes(n *Node) *bnode {
	acc := e.accs[e.copy][n]
	vs := []*bnode{e.b.ordered(UOp{Op: OpLoad, DType: n.DType}, acc, e.acc)}
	for l := 1; l < e.lanes; l++ {
		idx := e.sym(symbolic.Simplify(symbolic.Add(e.accIx, symbolic.C(int64(l)))))
		vs = append(vs, e.b.ordered(UOp{Op: OpLoad, DType: n.DType}, acc, idx))
	}
	for len(vs) > 1 {
		var next []*bnode
		for i := 0; i+1 < len(vs); i += 2 {
			next = append(next, e.alu(n.ReduceOp, n.DType, vs[i], vs[i+1]))
		}
		if len(vs)%2 == 1 {
			next = append(next, vs[len(vs)-1])
		}
		vs = next
	}
	return vs[0]
}

// alu returns the uop of ALU op over src, or an operand when the op does
// nothing to it: a WHERE whose condition is a constant (a mask that the
// indices of an unrolled copy decide, as a scan's triangle), and a MAX
// with the lowest value of its dtype (what a masked-out term of a max
// reads). Both hold for every value, NaN and -0.0 included; an ADD of 0.0
// does not (-0.0 + 0.0 is 0.0) and stays.
func (e *emitter) alu(op Op, d DType, src ...*bnode) *bnode {
	switch {
	case op == OpWhere && src[0].u.Op == OpConst:
		if src[0].u.Val != 0 {
			return src[1]
		}
		return src[2]
	case op == OpMax:
		lo, _ := d.MinMax()
		for i, s := range src {
			if s.u.Op == OpConst && s.u.Val == lo {
				return src[1-i]
			}
		}
	}
	return e.b.pure(UOp{Op: op, DType: d}, src...)
}

// index returns the buffer index and validity of leaf n in the current copy.
// valid is nil when always true; idx is nil when never valid.
func (e *emitter) index(n *Node) (idx, valid *bnode) {
	st := e.pl.sts[n]
	idxs := make([]*symbolic.Node, len(e.axes))
	for a, d := range st.IntShape() {
		idxs[a] = e.axes[a]
		if d == 1 {
			idxs[a] = symbolic.C(0)
		}
	}
	i, v := st.IndexExpr(idxs)
	i, v = e.refine(n, i, v)
	if v.IsFalse() {
		return nil, nil
	}
	if !v.IsTrue() {
		valid = e.sym(v)
	}
	return e.sym(i), valid
}

func (e *emitter) global(buf int) *bnode {
	return e.b.pure(UOp{Op: OpDefineGlobal, DType: e.pl.k.Bufs[buf].DType, Buf: buf})
}

func (e *emitter) konst(v float64, d DType) *bnode {
	return e.b.pure(UOp{Op: OpConst, DType: d, Val: v})
}

func (e *emitter) cast(v *bnode, d DType) *bnode {
	if v.u.DType == d {
		return v
	}
	return e.b.pure(UOp{Op: OpCast, DType: d}, v)
}

var symOps = map[symbolic.Op]Op{
	symbolic.OpAdd: OpAdd, symbolic.OpMul: OpMul, symbolic.OpDiv: OpIDiv, symbolic.OpMod: OpMod,
	symbolic.OpLt: OpCmpLt, symbolic.OpAnd: OpAnd, symbolic.OpNe: OpCmpNe,
}

// sym lowers a symbolic expression to index uops.
func (e *emitter) sym(n *symbolic.Node) *bnode {
	if u, ok := e.syms[n]; ok {
		return u
	}
	var u *bnode
	switch n.Op {
	case symbolic.OpConst:
		d := Index
		if n.IsBool {
			d = Bool
		}
		u = e.konst(float64(n.Val), d)
	case symbolic.OpVar:
		if r, ok := e.vars[n.Name]; ok {
			u = r
		} else {
			u = e.b.pure(UOp{Op: OpDefineVar, DType: Index, Name: n.Name})
		}
	default:
		d := Index
		if n.IsBool {
			d = Bool
		}
		u = e.b.pure(UOp{Op: symOps[n.Op], DType: d}, e.sym(n.Src[0]), e.sym(n.Src[1]))
	}
	e.syms[n] = u
	return u
}

// identity returns the starting value of an accumulator for op.
func identity(op Op, d DType) float64 {
	switch op {
	case OpAdd:
		return 0
	case OpMul:
		return 1
	}
	lo, _ := d.MinMax()
	return lo
}

// gather lowers an OpGather: the tracker's index plus the operand's value
// times the stride, loaded where the tracker is valid and the value lies in
// [0, Bound), 0 elsewhere.
func (e *emitter) gather(n *Node) *bnode {
	idx, valid := e.index(n)
	if idx == nil || n.Bound <= 0 {
		return e.konst(0, n.DType)
	}
	v := e.cast(e.value(n.Src[0]), Index)
	idx = e.b.pure(UOp{Op: OpAdd, DType: Index}, idx, e.b.pure(UOp{Op: OpMul, DType: Index}, v, e.konst(float64(n.Stride), Index)))
	lo := e.b.pure(UOp{Op: OpCmpLt, DType: Bool}, e.konst(-1, Index), v)
	hi := e.b.pure(UOp{Op: OpCmpLt, DType: Bool}, v, e.konst(float64(n.Bound), Index))
	valid = e.and(valid, e.b.pure(UOp{Op: OpAnd, DType: Bool}, lo, hi))
	ld := e.b.pure(UOp{Op: OpLoad, DType: e.pl.k.Bufs[n.Buf].DType}, e.global(n.Buf), idx, valid)
	return e.cast(ld, n.DType)
}
