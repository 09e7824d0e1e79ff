package tensor

import (
	"slices"

	"tiny/codegen"
	"tiny/shape"
)

// This file holds the gather primitive: reading a tensor along one axis at
// positions held by an integer tensor. It is one kernel with one gated load
// per element (codegen's OpGather), not tinygrad's one-hot reduce over the
// indexed axis: X[idx] for 512 indices into 60000 rows reads 512 rows.

// take returns out with out[..., i, ...] = t[..., idx[..., i, ...], ...]
// along axis, where idx (any integer dtype) has t's shape except on axis and
// out has idx's shape. Positions outside [0, t.shape[axis]) read 0. The
// gradient goes back to t as a scatter-add.
func (t *Tensor) take(axis int, idx *Tensor) *Tensor {
	if !idx.DType().IsInt() {
		fail("gather: index dtype %s is not supported", idx.DType())
	}
	for a, d := range idx.n.shape {
		if a != axis && d != t.n.shape[a] {
			panic("internal error: take: index shape " + FormatShape(idx.n.shape) + " against " + FormatShape(t.n.shape))
		}
	}
	if !simpleView(t.n) {
		t = t.Contiguous()
	}
	shp := slices.Clone(idx.n.shape)
	n := &lazy{kind: kGather, dtype: t.n.dtype, shape: shp, src: []*lazy{t.n, idx.n}, axes: []int{axis}, eng: t.n.eng}
	return &Tensor{n}
}

// simpleView reports whether n reads its base through one unmasked view,
// so that a position along an axis is a constant stride apart: what a
// gather needs of the tensor it reads. Constants have no buffer to read.
func simpleView(n *lazy) bool {
	if n.baseOf().kind == kConst {
		return false
	}
	return n.kind != kView || (len(n.st.Views) == 1 && n.st.Views[0].Mask == nil)
}

// emitGather returns the OpGather reading gather node b's source through
// st, a tracker from the kernel's space onto b's layout.
func (bd *astWriter) emitGather(b *lazy, st shape.Tracker) *codegen.Node {
	x, axis := b.src[0], b.axes[0]
	xst := shape.FromInts(x.shape...)
	if x.kind == kView {
		xst = x.st
	}
	stride, ok := xst.Views[0].Strides[axis].Int()
	if !ok {
		panic("internal error: gather: symbolic stride")
	}
	bounds := make([][2]int, len(x.shape))
	for a, d := range x.shape {
		bounds[a] = [2]int{0, d}
	}
	bounds[axis] = [2]int{0, 1}
	var g shape.Tracker
	if x.shape[axis] == 0 {
		// Nothing to read: every position reads 0 through an empty mask.
		g = zeroST(st.IntShape())
	} else {
		at, err := xst.ShrinkInts(bounds)
		if err == nil {
			at, err = at.ExpandInts(b.shape)
		}
		if err != nil {
			panic("internal error: gather: " + err.Error())
		}
		g = at.Compose(st)
	}
	return &codegen.Node{Op: codegen.OpGather, DType: b.dtype, Buf: bd.input(x.baseOf()), ST: g,
		Src: []*codegen.Node{bd.emit(b.src[1], st)}, Stride: int(stride), Bound: x.shape[axis]}
}

// gatherGrad is the rule of take: the gradient of each read position adds
// into the position it read (out-of-range positions add nothing): a
// folding scatter into zeros, or, where the gradient's own gradient is
// tracked, a reduce over the index axis of a one-hot comparison.
func gatherGrad(n *lazy, g *Tensor) *Tensor {
	x, idx, axis := n.src[0], &Tensor{n.src[1]}, n.axes[0]
	if !reachesMarked(g.n, map[*lazy]bool{}) {
		// Each read position's gradient added into the row it read, in
		// order, by a folding scatter (an embedding's backward: the
		// one-hot below compares every row with every position).
		return n.eng.Full(x.shape, 0, g.DType()).scatterStore(axis, idx, g, codegen.OpAdd)
	}
	size := x.shape[axis]
	wide := slices.Insert(slices.Clone(n.shape), axis, size) // (..., size, m, ...)
	pos := n.eng.Arange(0, float64(size), 1, idx.DType()).Reshape(axisShape(len(wide), axis, size)...).Expand(wide...)
	hit := idx.Unsqueeze(axis).Expand(wide...).Eq(pos)
	zero := n.eng.Scalar(0, g.DType())
	return hit.Where(g.Unsqueeze(axis).Expand(wide...), zero).Sum([]int{axis + 1}, false)
}
