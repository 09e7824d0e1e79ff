package tensor

import (
	"cmp"
	"fmt"
	"slices"

	"tiny/codegen"
	"tiny/shape"
)

// The scheduler cuts the lazy graph under some target nodes into kernels,
// following tinygrad's graph scheduler in spirit:
//
//   - a base becomes a buffer ("is realized") when it is a target, a
//     contiguous copy, a computed value seen through an expanding view (an
//     expand would recompute it for every copy), or a reduce that is padded
//     or cannot fuse into the kernel that consumes it;
//   - every other computed base is inlined into each kernel that reads it,
//     its view composed into the trackers of its loads and constants; a
//     padded view of it becomes where(valid, value, 0), since ops like exp
//     would turn the padding's zeros into ones;
//   - a kernel holds at most one reduce: its input side (elementwise ops over
//     the full shape) and its output side (elementwise ops over the keepdim
//     shape), which needs the views from the kernel's output to the reduce
//     to keep its layout or permute its elements (fuseReduces); the one
//     exception is argmax's max over rows, which stays inside the reduce
//     that searches for its position (nestReduces).
//
// Kernels come out in dependency order, each with the base it computes and
// the bases it reads.

// item is one scheduled kernel.
type item struct {
	out    *lazy   // the base the kernel computes into buffer 0
	inputs []*lazy // the bases read as buffers 1..n
	kernel *codegen.Kernel
	key    string // the engine's cache key of kernel, once computed (item.cacheKey)
}

type scheduler struct {
	order   []*lazy                 // unrealized computed bases, dependencies first
	seen    map[*lazy]bool          // visited bases
	realize map[*lazy]bool          // bases that get a buffer
	stores  map[*lazy]shape.Tracker // a kernel's store through its reduce's axes, where not row-major (fuseReduces)
	// scatterCopy marks the copies scatters write into (codegen.Kernel.Cached).
	scatterCopy map[*lazy]bool
}

// schedule returns the kernels that realize the bases of targets, in order.
func schedule(targets []*lazy) []*item {
	s := &scheduler{seen: map[*lazy]bool{}, realize: map[*lazy]bool{}, stores: map[*lazy]shape.Tracker{}, scatterCopy: map[*lazy]bool{}}
	for _, t := range targets {
		b := t.baseOf()
		if b.kind == kBuffer || b.kind == kConst {
			// A constant needs no kernel (and gets none: collect skips
			// it); marked, it would be loaded as a buffer by the kernels
			// that read it, such as a step's update from a gradient of
			// ones realized with it.
			continue
		}
		s.realize[b] = true
		s.collect(b)
	}
	s.boundDepth()
	for s.fuseReduces() {
	}
	s.nestReduces(targets)
	var items []*item
	for _, b := range s.order {
		if s.realize[b] {
			items = append(items, s.build(b))
		}
	}
	return items
}

// collect visits the computed bases under b, marking the ones that must be
// realized because of how they are viewed. The walk keeps its own stack:
// a graph may be a million ops deep (a loop without a realize).
func (s *scheduler) collect(root *lazy) {
	type frame struct {
		b    *lazy
		next int // the next source to visit
	}
	enter := func(b *lazy) bool {
		if s.seen[b] || b.kind == kBuffer || b.kind == kConst {
			return false
		}
		s.seen[b] = true
		if b.kind == kContiguous || b.kind == kScatter {
			s.realize[b] = true
		}
		if b.kind == kScatter {
			s.scatterCopy[b.src[0]] = true
		}
		if b.kind == kGather {
			// The gathered tensor is read from memory at computed positions.
			if c := b.src[0].baseOf(); c.kind != kBuffer {
				s.realize[c] = true
			}
		}
		return true
	}
	if !enter(root) {
		return
	}
	stack := []frame{{b: root}}
	for steps := 0; len(stack) > 0; steps++ {
		if steps%4096 == 4095 {
			root.eng.checkInterrupt() // a large graph takes a while to walk
		}
		f := &stack[len(stack)-1]
		b := f.b
		if f.next == len(b.src) {
			s.order = append(s.order, b)
			stack = stack[:len(stack)-1]
			continue
		}
		i, src := f.next, b.src[f.next]
		f.next++
		c := src.baseOf()
		// A gather's positions are broadcast along the axes they do not
		// index; an elementwise computation of them (negative positions
		// wrapped) is cheap enough to inline, so that X[idx] is one kernel.
		cheap := b.kind == kGather && i == 1 && c.kind == kElementwise
		if src.kind == kView && c.kind != kBuffer && c.kind != kConst && !cheap {
			if expands(src) || masked(src.st) && c.kind == kReduce {
				s.realize[c] = true
			}
		}
		if enter(c) {
			stack = append(stack, frame{b: c})
		}
	}
}

// maxFusedDepth bounds the depth of the ops one kernel computes: a base
// deeper than that in its kernel is realized, so that a long chain of
// elementwise ops becomes several kernels the compiler builds quickly
// (3,000 fused steps took CLANG a minute or more), and walks of a kernel's
// AST stay shallow.
const maxFusedDepth = 256

// boundDepth realizes the bases whose depth in their kernel passes
// maxFusedDepth, in dependency order.
func (s *scheduler) boundDepth() {
	depth := map[*lazy]int{}
	for _, b := range s.order {
		d := 0
		for _, src := range b.src {
			c := src.baseOf()
			if !s.realize[c] {
				d = max(d, depth[c])
			}
		}
		depth[b] = d + 1
		if d+1 > maxFusedDepth {
			s.realize[b] = true
		}
	}
}

// expands reports whether view n may read an element of its base more than
// once: with one view, a stride-0 axis that is valid at more than one index;
// with several, a size larger than the base's.
func expands(n *lazy) bool {
	if len(n.st.Views) > 1 {
		return prod(n.shape) > prod(n.base.shape)
	}
	v := n.st.Views[0]
	for i, d := range n.shape {
		lo, hi := 0, d
		if v.Mask != nil {
			l, _ := v.Mask[i][0].Int()
			h, _ := v.Mask[i][1].Int()
			lo, hi = int(l), int(h)
		}
		if v.Strides[i].IsInt(0) && hi-lo > 1 {
			return true
		}
	}
	return false
}

// masked reports whether some view of st has a mask (padding).
func masked(st shape.Tracker) bool {
	for _, v := range st.Views {
		if v.Mask != nil {
			return true
		}
	}
	return false
}

// keepsLayout reports whether view node n reads its base element for
// element, in order: a reshape at most.
func keepsLayout(n *lazy) bool {
	return n.kind != kView || (n.st.Contiguous() && prod(n.shape) == prod(n.base.shape))
}

// fuseReduces gives each kernel at most one reduce, realizing reduces that
// cannot fuse, and reports whether it changed anything.
//
// A kernel's output side reads its reduce through views that either keep
// the layout, or together permute its elements: x.sum(axis=0).T,
// relu(conv + bias) copied to the layout the next convolution reads.
// The kernel then loops over the reduce's axes and stores through the
// inverse permutation (stores), where realizing the reduce would write it
// and copy it once more. Each path from the output to the reduce must
// come out the same permutation.
func (s *scheduler) fuseReduces() bool {
	claimed := map[*lazy]*lazy{}
	for _, o := range s.order {
		if !s.realize[o] {
			continue
		}
		var red *lazy
		var store *shape.Tracker // the store through red's axes, once a path found it
		type visit struct {
			n    *lazy
			post bool
			path string
		}
		done := map[visit]bool{}
		var walk func(n *lazy, post bool, path *shape.Tracker) bool
		// path is the composed view from o's layout to n's (nil while
		// every view so far kept the layout).
		walk = func(n *lazy, post bool, path *shape.Tracker) bool {
			b := n.baseOf()
			if b.kind == kBuffer || b.kind == kConst || (b != o && s.realize[b]) {
				return false
			}
			// Below the reduce (post false) a path decides nothing: the
			// input side's views are not composed.
			if n.kind == kView && post && path != brokenPath && (path != nil || !keepsLayout(n)) {
				if path == nil {
					id := shape.FromInts(o.shape...)
					path = &id
				}
				c := n.st.Compose(*path)
				path = &c
				if _, ok := permutation(c, o.shape); !ok {
					// No later view makes it one again (as far as
					// fusing goes): one state for all such paths keeps
					// the walk as short as with layouts kept or not.
					path = brokenPath
				}
			}
			key := visit{n: n, post: post}
			switch {
			case path == brokenPath:
				key.path = "broken"
			case path != nil:
				key.path = path.String()
			}
			if done[key] {
				return false
			}
			done[key] = true
			if b.kind == kReduce {
				if post && (b == red || red == nil && (claimed[b] == nil || claimed[b] == o)) {
					st, ok := storeThrough(path, o.shape, b.shape)
					switch {
					case !ok:
					case b == red:
						if st.String() == store.String() {
							return false
						}
					default:
						red, store = b, &st
						claimed[b] = o
						return walk(b.src[0], false, nil)
					}
				}
				s.realize[b] = true
				return true
			}
			for _, src := range b.src {
				if walk(src, post, path) {
					return true
				}
			}
			return false
		}
		if walk(o, true, nil) {
			return true
		}
		delete(s.stores, o)
		if store != nil && !store.Contiguous() {
			s.stores[o] = *store
		}
	}
	return false
}

// brokenPath stands for every path of views that does not permute the
// elements it reads (fuseReduces).
var brokenPath = &shape.Tracker{}

// storeThrough returns the tracker through which a kernel whose loops are
// the axes of a reduce's keepdim shape red stores into an output of shape
// out, when path, the composed view from the output's layout to the
// reduce's (nil: row-major, element for element), is a permutation of its
// elements: the inverse of path, reshaped to red. ok is false for any
// other view (an expand, a pad, a shrink, a symbolic shape).
func storeThrough(path *shape.Tracker, out, red []int) (st shape.Tracker, ok bool) {
	if prod(out) != prod(red) || path == brokenPath {
		return st, false
	}
	if path == nil || path.Contiguous() {
		return shape.FromInts(red...), true
	}
	order, ok := permutation(*path, out)
	if !ok {
		return st, false
	}
	p, err := shape.FromInts(out...).Permute(order)
	if err != nil {
		return st, false
	}
	if p, err = p.ReshapeInts(red); err != nil {
		return st, false
	}
	return p, true
}

// permutation returns the axes of out ordered from the largest stride of
// path to the smallest, when path, a view from out's layout, reads each
// element of a layout of out's size once: one view without a mask or an
// offset, whose integer strides step through that layout as the digits of
// a mixed-radix number.
func permutation(path shape.Tracker, out []int) ([]int, bool) {
	if len(path.Views) != 1 || path.Views[0].Mask != nil || !path.Views[0].Offset.IsInt(0) {
		return nil, false
	}
	v := path.Views[0]
	strides := make([]int64, len(out))
	for i, x := range v.Strides {
		c, isInt := x.Int()
		if !isInt || c < 0 || c == 0 && out[i] > 1 {
			return nil, false
		}
		strides[i] = c
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(strides[b], strides[a]) })
	step := int64(1)
	for i := len(order) - 1; i >= 0; i-- {
		if a := order[i]; out[a] > 1 {
			if strides[a] != step {
				return nil, false
			}
			step *= int64(out[a])
		}
	}
	return order, true
}

// nestReduces keeps argmax's max over rows inside the kernel that
// searches for its first position: a max reduce read only through an
// expand along its axes, by the elementwise source of another max reduce
// over the same axes, the innermost ones of a kernel whose loads walk
// them contiguously, is not realized; codegen folds it by loops of its
// own before the outer reduce's (a reduce inside another), so that each
// row is read from memory once and again from the cache, in place of two
// kernels reading it from memory. A single output stays two kernels (a
// reduce inside another is not split across workers), and so do reduces
// over outer axes (whose kernels split the reduce to use every worker).
func (s *scheduler) nestReduces(targets []*lazy) {
	refs := map[*lazy]int{}
	for _, b := range s.order {
		for _, src := range b.src {
			refs[src.baseOf()]++
		}
	}
	for _, t := range targets {
		refs[t.baseOf()] += 2
	}
	for _, o := range s.order {
		if !s.realize[o] {
			continue
		}
		red := s.kernelReduce(o)
		if red == nil || red.op != codegen.OpMax || prod(red.shape) < 2 || !s.rowReduce(red) {
			continue
		}
		if c := s.nestable(red); c != nil && refs[c] == 1 && s.rowReduce(c) {
			s.realize[c] = false
		}
	}
}

// nestable returns the realized max reduce that red's elementwise source
// reads through an expand along red's axes, or nil when there is none or
// more than one.
func (s *scheduler) nestable(red *lazy) *lazy {
	var found *lazy
	many := false
	seen := map[*lazy]bool{}
	var walk func(n *lazy)
	walk = func(n *lazy) {
		b := n.baseOf()
		switch {
		case b.kind == kBuffer || b.kind == kConst:
		case n.kind == kView:
			if b.kind == kReduce && s.realize[b] && b.op == codegen.OpMax && slices.Equal(b.axes, red.axes) &&
				slices.Equal(b.src[0].shape, red.src[0].shape) && isExpand(n, b) {
				many = many || (found != nil && found != b)
				found = b
			}
		case s.realize[b] || seen[b] || b.kind != kElementwise:
		default:
			seen[b] = true
			for _, src := range b.src {
				walk(src)
			}
		}
	}
	walk(red.src[0])
	if many {
		return nil
	}
	return found
}

// isExpand reports whether view n shows the keepdim result of reduce b
// broadcast along its folded axes onto its input's shape.
func isExpand(n, b *lazy) bool {
	want, err := shape.FromInts(b.shape...).ExpandInts(b.src[0].shape)
	return err == nil && slices.Equal(n.shape, b.src[0].shape) && n.st.String() == want.String()
}

// rowReduce reports whether reduce r folds the innermost axes of its input
// and every buffer its kernel loads walks the last one contiguously (or
// not at all).
func (s *scheduler) rowReduce(r *lazy) bool {
	n := len(r.src[0].shape)
	for i, a := range r.axes {
		if a != n-len(r.axes)+i {
			return false
		}
	}
	bd := &astWriter{s: s, out: r, red: r, bufIdx: map[*lazy]int{}, memo: map[string]*codegen.Node{}}
	x := bd.emit(r.src[0], shape.FromInts(r.src[0].shape...))
	ok := true
	seen := map[*codegen.Node]bool{}
	var walk func(x *codegen.Node)
	walk = func(x *codegen.Node) {
		if seen[x] {
			return
		}
		seen[x] = true
		if x.Op == codegen.OpLoad || x.Op == codegen.OpGather {
			vs := x.ST.Views
			st := vs[0].Strides
			ok = ok && len(vs) == 1 && (len(st) == 0 || st[len(st)-1].IsInt(0) || st[len(st)-1].IsInt(1))
		}
		for _, c := range x.Src {
			walk(c)
		}
	}
	walk(x)
	return ok
}

// kernelReduce returns the reduce fused into o's kernel, if any.
func (s *scheduler) kernelReduce(o *lazy) *lazy {
	done := map[*lazy]bool{}
	var find func(n *lazy) *lazy
	find = func(n *lazy) *lazy {
		b := n.baseOf()
		if b.kind == kBuffer || b.kind == kConst || (b != o && s.realize[b]) || done[b] {
			return nil
		}
		done[b] = true
		if b.kind == kReduce {
			return b
		}
		for _, src := range b.src {
			if r := find(src); r != nil {
				return r
			}
		}
		return nil
	}
	return find(o)
}

// astWriter emits one kernel's AST.
type astWriter struct {
	s      *scheduler
	out    *lazy
	red    *lazy
	inputs []*lazy
	bufIdx map[*lazy]int
	memo   map[string]*codegen.Node
}

// build returns the kernel that computes base o.
func (s *scheduler) build(o *lazy) *item {
	if o.kind == kScatter {
		return s.buildScatter(o)
	}
	bd := &astWriter{s: s, out: o, red: s.kernelReduce(o), bufIdx: map[*lazy]int{}, memo: map[string]*codegen.Node{}}
	space := o.shape
	if bd.red != nil {
		space = bd.red.shape
	}
	st := shape.FromInts(space...)
	if p, ok := s.stores[o]; ok && bd.red != nil {
		st = p
	}
	root := &codegen.Node{Op: codegen.OpStore, DType: o.dtype, ST: st, Src: []*codegen.Node{bd.emit(o, st)}}
	return bd.item(root, s.scatterCopy[o])
}

// item returns the scheduled kernel that stores root into bd's output,
// reading the inputs bd's loads named; cached is codegen.Kernel.Cached.
func (bd *astWriter) item(root *codegen.Node, cached bool) *item {
	o := bd.out
	bufs := []codegen.BufSpec{{DType: o.dtype, Size: prod(o.shape)}}
	for _, in := range bd.inputs {
		bufs = append(bufs, codegen.BufSpec{DType: in.dtype, Size: prod(in.shape)})
	}
	k := &codegen.Kernel{AST: root, Bufs: bufs, Cached: cached}
	k.Name = codegen.KernelName(k)
	return &item{out: o, inputs: bd.inputs, kernel: k}
}

// buildScatter returns the kernel of scatter o: over the positions of its
// indices, a scattering store (codegen.Node) into the buffer of o's copy
// (src[0], realized by the item before, which realize hands to this one),
// at the output's row-major place of every axis but the scattered one, and
// along it at the index's value.
//
// A folding scatter (o.op ADD or MUL) reads each element before it writes
// it, so no two writes to one element may be in flight at once: its kernel
// walks the scattered axis outermost (a serial global loop) and keeps every
// axis (codegen.Lower), so that a device running the innermost loop as a
// vector of iterations (the CPU device) meets distinct elements in it.
func (s *scheduler) buildScatter(o *lazy) *item {
	bd := &astWriter{s: s, out: o, bufIdx: map[*lazy]int{}, memo: map[string]*codegen.Node{}}
	idx, vals, d := o.src[1], o.src[2], o.axes[0]
	strides := make([]int, len(o.shape))
	for a, st := len(o.shape)-1, 1; a >= 0; a-- {
		strides[a], st = st, st*o.shape[a]
	}
	along := strides[d]
	strides[d] = 0
	v, err := shape.NewView(shape.Ints(idx.shape...), shape.Ints(strides...), nil, nil)
	if err != nil {
		panic("internal error: scatter: " + err.Error())
	}
	space, store := shape.FromInts(idx.shape...), shape.Tracker{Views: []shape.View{v}}
	if o.op != 0 {
		order := []int{d}
		for a := range o.shape {
			if a != d {
				order = append(order, a)
			}
		}
		space, err = space.Permute(order)
		if err == nil {
			store, err = store.Permute(order)
		}
		if len(order) == 1 && err == nil {
			space, err = space.ReshapeInts([]int{idx.shape[0], 1})
			if err == nil {
				store, err = store.ReshapeInts([]int{idx.shape[0], 1})
			}
		}
		if err != nil {
			panic("internal error: scatter: " + err.Error())
		}
	}
	root := &codegen.Node{Op: codegen.OpStore, DType: o.dtype, ST: store, ReduceOp: o.op,
		Src: []*codegen.Node{bd.emit(vals, space), bd.emit(idx, space)}, Stride: along, Bound: o.shape[d]}
	return bd.item(root, false)
}

// emit returns the AST of node n read through st, a tracker from the
// kernel's current space (full shape below the reduce, keepdim shape above)
// onto n's row-major layout.
func (bd *astWriter) emit(n *lazy, st shape.Tracker) *codegen.Node {
	b := n.baseOf()
	if n.kind == kView {
		st = n.st.Compose(st)
	}
	key := ptrKey(b) + st.String()
	if n.kind == kView && masked(n.st) {
		key += "|padded"
	}
	if x, ok := bd.memo[key]; ok {
		return x
	}
	var x *codegen.Node
	switch {
	case b != bd.red && empty(st):
		x = &codegen.Node{Op: codegen.OpConst, DType: b.dtype, ST: zeroST(st.IntShape())}
	case b.kind == kBuffer || (b != bd.out && bd.s.realize[b]):
		x = &codegen.Node{Op: codegen.OpLoad, DType: b.dtype, Buf: bd.input(b), ST: st}
	case b.kind == kConst:
		x = &codegen.Node{Op: codegen.OpConst, DType: b.dtype, Val: b.val, ST: st}
	case b.kind == kReduce:
		full := shape.FromInts(b.src[0].shape...)
		x = &codegen.Node{Op: codegen.OpReduce, DType: b.dtype, ReduceOp: b.op, Axes: b.axes,
			Src: []*codegen.Node{bd.emit(b.src[0], full)}}
	case n.kind == kView && masked(n.st):
		// Padding around a computed value: compute it where the view is
		// valid and give 0 elsewhere, whatever the ops make of the zeros
		// their padded loads read.
		valid := &codegen.Node{Op: codegen.OpConst, DType: codegen.Bool, Val: 1, ST: st}
		zero := &codegen.Node{Op: codegen.OpConst, DType: b.dtype, ST: st}
		x = &codegen.Node{Op: codegen.OpWhere, DType: b.dtype, Src: []*codegen.Node{valid, bd.emitBase(b, st), zero}}
	default:
		x = bd.emitBase(b, st)
	}
	bd.memo[key] = x
	return x
}

// emitBase returns the AST of computed base b read through st.
func (bd *astWriter) emitBase(b *lazy, st shape.Tracker) *codegen.Node {
	var x *codegen.Node
	switch b.kind {
	case kContiguous:
		x = bd.emit(b.src[0], st)
	case kGather:
		x = bd.emitGather(b, st)
	default:
		srcs := make([]*codegen.Node, len(b.src))
		for i, src := range b.src {
			srcs[i] = bd.emit(src, st)
		}
		x = &codegen.Node{Op: b.op, DType: b.dtype, Src: srcs}
		if b.op == codegen.OpMul {
			x = gateMul(x)
		}
	}
	return x
}

// input returns the kernel buffer index of realized base b, adding it to
// the kernel's inputs on first use.
func (bd *astWriter) input(b *lazy) int {
	i, ok := bd.bufIdx[b]
	if !ok {
		bd.inputs = append(bd.inputs, b)
		i = len(bd.inputs)
		bd.bufIdx[b] = i
	}
	return i
}

func ptrKey(b *lazy) string { return fmt.Sprintf("%p|", b) }

// gateMul rewrites x * c, c a padded constant 1, as where(valid, x, 0), the
// form tinygrad's rewrites give (so 0 * -1 is 0, not -0).
func gateMul(x *codegen.Node) *codegen.Node {
	for i, c := range x.Src {
		if c.Op == codegen.OpConst && c.Val == 1 && masked(c.ST) {
			valid := &codegen.Node{Op: codegen.OpConst, DType: codegen.Bool, Val: 1, ST: c.ST}
			zero := &codegen.Node{Op: codegen.OpConst, DType: x.DType, Val: 0, ST: c.ST}
			return &codegen.Node{Op: codegen.OpWhere, DType: x.DType, Src: []*codegen.Node{valid, x.Src[1-i], zero}}
		}
	}
	return x
}

// empty reports whether st's last view is never valid (a mask dimension is
// empty), so that whatever it reads is 0.
func empty(st shape.Tracker) bool {
	v := st.Views[len(st.Views)-1]
	for _, m := range v.Mask {
		lo, _ := m[0].Int()
		hi, _ := m[1].Int()
		if m[0].IsConst() && m[1].IsConst() && lo >= hi {
			return true
		}
	}
	return false
}

// zeroST returns a stride-0 tracker of shape shp, for constants.
func zeroST(shp []int) shape.Tracker {
	st, err := shape.FromInts(padLeft(nil, len(shp))...).ExpandInts(shp)
	if err != nil {
		panic("internal error: " + err.Error())
	}
	return st
}
