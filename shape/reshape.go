package shape

import (
	"fmt"

	"tiny/symbolic"
)

// This file defines View.Reshape: merging the view's dims into blocks that
// each have one stride (mergeDims), splitting the blocks into the new dims
// (splitBlocks), and carrying the mask across (reshapeMask), as seed 002
// describes. Merging and splitting work on symbolic dims and strides, where a
// comparison the bounds cannot decide counts as possible (tinygrad's
// resolve); on constants they are plain integer arithmetic.

// Reshape returns the view holding the same elements in shape, and false when
// one view cannot hold them (tinygrad's None); the caller then stacks a new
// view. Reshaping to a different size is the caller's error to check.
func (v View) Reshape(shape []*symbolic.Node) (View, bool) {
	if eqs(v.Shape, shape) {
		return v, true
	}
	for _, s := range shape {
		if s.Min() < 0 {
			return View{}, false
		}
	}
	if !eq(v.Size(), prod(shape)) && allInt(v.Shape) && allInt(shape) {
		return View{}, false // a different size: the caller's error
	}
	if hasZero(v.Shape) {
		return create(shape, nil, nil, nil), hasZero(shape)
	}
	if len(shape) == 0 && v.Mask != nil {
		for _, m := range v.Mask {
			if eq(m[0], m[1]) {
				return View{}, false
			}
		}
	}
	if v.Contiguous {
		return create(shape, nil, nil, nil), true
	}
	if v.Mask == nil {
		if strides, ok := splitBlocks(mergeDims(v.Shape, v.Strides, nil), shape); ok {
			return create(shape, strides, v.Offset, nil), true
		}
	} else if allInt(v.Shape) && allInt(shape) && allInt(v.Strides) && allInt(flatMask(v.Mask)) {
		return v.reshapeMasked(shape)
	}
	// A symbolic masked view reshapes in place only when every dim stays.
	if len(shape) != len(v.Shape) {
		return View{}, false
	}
	for i, s := range v.Shape {
		if !eq(s, shape[i]) {
			return View{}, false
		}
	}
	return View{Shape: simplified(shape), Strides: v.Strides, Offset: v.Offset, Mask: v.Mask, Contiguous: v.Contiguous}, true
}

// known reports whether the boolean b simplifies to the constant want.
func known(b node, want bool) bool {
	s := symbolic.Simplify(b)
	if want {
		return s.IsTrue()
	}
	return s.IsFalse()
}

// reshapeMasked reshapes a view with constant dims, strides and mask: the
// strides come from merging and splitting, the mask from reshapeMask, and
// the offset takes up the difference between where the old mask's first
// element and the new one's lie in memory.
func (v View) reshapeMasked(shape []node) (View, bool) {
	nstrides, ok := splitBlocks(mergeDims(v.Shape, v.Strides, v.Mask), shape)
	if !ok {
		return View{}, false
	}
	mask := make([][2]int64, len(v.Mask))
	for i, m := range v.Mask {
		mask[i] = [2]int64{toInt(m[0]), toInt(m[1])}
	}
	nmask, ok := reshapeMask(mask, toInts(v.Shape), toInts(shape))
	if !ok {
		return View{}, false
	}
	ext := make([]node, len(nmask))
	for i, m := range nmask {
		ext[i] = c(m[1] - m[0])
	}
	nstrides = canonicalStrides(ext, nstrides)
	extra := c(0)
	for i, m := range v.Mask {
		extra = add(extra, mul(m[0], v.Strides[i]))
	}
	out := make([][2]node, len(nmask))
	for i, m := range nmask {
		out[i] = [2]node{c(m[0]), c(m[1])}
		extra = sub(extra, mul(c(m[0]), nstrides[i]))
	}
	return create(shape, nstrides, add(v.Offset, extra), out), true
}

// block is one run of merged dims: its total size, the stride of its
// innermost element, and the size of the part that is not broadcast (0 when
// the whole block has stride 0).
type block struct{ size, stride, real node }

// mergeDims merges runs of dims that are contiguous with each other, size-1
// dims, and dims after one whose mask (nil for none) admits a single index.
func mergeDims(shape, strides []node, mask [][2]node) []block {
	if len(shape) == 0 {
		return nil
	}
	realOf := func(s, st node) node {
		if isInt(st, 0) {
			return c(0)
		}
		return s
	}
	single := func(i int) bool {
		if mask == nil {
			return i == 0 && isInt(shape[0], 1)
		}
		return isInt(sub(mask[i][1], mask[i][0]), 1)
	}
	ret := []block{{shape[0], strides[0], realOf(shape[0], strides[0])}}
	merging := single(0)
	for i := 1; i < len(shape); i++ {
		s, st := shape[i], strides[i]
		if isInt(s, 1) {
			continue
		}
		last := ret[len(ret)-1]
		if merging || eq(last.stride, mul(s, st)) {
			r := mul(last.real, s)
			if merging {
				r = s
			}
			ret[len(ret)-1] = block{mul(last.size, s), st, realOf(r, st)}
		} else {
			ret = append(ret, block{s, st, realOf(s, st)})
		}
		merging = single(i)
	}
	return ret
}

// splitBlocks splits the merged blocks, innermost first, into the dims of
// shape; it fails when a new dim would straddle two blocks, and the final
// sizes must be provably equal.
func splitBlocks(blocks []block, shape []node) ([]node, bool) {
	var rev []node
	j := len(shape) - 1
	for b := len(blocks) - 1; b >= 0; b-- {
		blk := blocks[b]
		acc, stride := c(1), blk.stride
		for !known(symbolic.Lt(blk.size, acc), true) && !eq(acc, blk.size) && j >= 0 && !known(symbolic.Lt(c(0), shape[j]), false) {
			d := shape[j]
			j--
			rev = append(rev, mul(stride, acc))
			acc = mul(acc, d)
			if known(symbolic.Lt(acc, blk.real), false) {
				stride = c(0)
			}
		}
		if !eq(acc, blk.size) {
			return nil, false
		}
	}
	out := make([]node, len(shape))
	for i := range out {
		out[i] = c(0)
	}
	for i := range rev {
		out[len(shape)-1-i] = rev[i]
	}
	return out, true
}

// reshapeMask carries mask from old to shape, walking both from the
// innermost dim: a dim split keeps the mask only if it does not cut across
// it, and merged dims keep it only if it unfolds into one range. It returns
// nil and true when there is no mask, and false when the reshape is not
// possible.
func reshapeMask(mask [][2]int64, old, shape []int64) ([][2]int64, bool) {
	if mask == nil {
		return nil, true
	}
	for _, m := range mask {
		if m[1]-m[0] < 1 {
			// Nothing is valid: nothing to carry, so any reshape is one
			// fully masked view of the new shape.
			return make([][2]int64, len(shape)), true
		}
	}
	ri, rj := len(old)-1, len(shape)-1
	nextOld := func() int64 {
		if ri < 0 {
			return 1
		}
		ri--
		return old[ri+1]
	}
	nextNew := func() int64 {
		if rj < 0 {
			return 1
		}
		rj--
		return shape[rj+1]
	}
	mi := len(mask) - 1
	nextMask := func() [2]int64 {
		if mi < 0 {
			return [2]int64{0, 1}
		}
		mi--
		return mask[mi+1]
	}
	var rev [][2]int64
	curr, oldDim, newDim, m := int64(1), nextOld(), nextNew(), nextMask()
	for steps := 0; len(rev) < len(shape); steps++ {
		if steps > 2*(len(old)+len(shape))+2 {
			return nil, false // cannot happen for equal sizes; never loop
		}
		l, r := m[0], m[1]
		nextStride := newDim * curr
		switch {
		case oldDim == nextStride:
			rev = append(rev, [2]int64{fdiv(l, curr), fdiv(r-1, curr) + 1})
			curr, oldDim, newDim, m = 1, nextOld(), nextNew(), nextMask()
		case oldDim > nextStride:
			if ((fmod(l, nextStride) != 0 || fmod(r, nextStride) != 0) && fdiv(l, nextStride) != fdiv(r-1, nextStride)) || fmod(oldDim, nextStride) != 0 {
				return nil, false
			}
			rev = append(rev, [2]int64{fdiv(fmod(l, nextStride), curr), fdiv(fmod(r-1, nextStride), curr) + 1})
			curr, newDim = nextStride, nextNew()
		default:
			nm := nextMask()
			if (m[0] != 0 || m[1] != oldDim) && l != r && nm[1]-nm[0] != 1 {
				return nil, false
			}
			m = [2]int64{nm[0]*oldDim + l, (nm[1]-1)*oldDim + r}
			oldDim *= nextOld()
		}
	}
	for ; mi >= 0; mi-- {
		if mask[mi] != [2]int64{0, 1} {
			empty := make([][2]int64, len(shape))
			return empty, true
		}
	}
	out := make([][2]int64, len(rev))
	for i := range rev {
		out[len(rev)-1-i] = rev[i]
	}
	return out, true
}

func toInts(ns []node) []int64 {
	out := make([]int64, len(ns))
	for i, n := range ns {
		out[i] = toInt(n)
	}
	return out
}

// toInt returns the value of a node the caller knows is a constant.
func toInt(n node) int64 {
	v, ok := ival(n)
	if !ok {
		panic(fmt.Sprintf("internal error: shape: %s is not a constant", n.Render()))
	}
	return v
}

func ints(xs []int64) []node {
	out := make([]node, len(xs))
	for i, x := range xs {
		out[i] = c(x)
	}
	return out
}

// fdiv and fmod are Python's floor division and modulo, which the mask
// arithmetic of reshape relies on for empty ranges (r-1 = -1).
func fdiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func fmod(a, b int64) int64 { return a - fdiv(a, b)*b }

// InferShape resolves one -1 in shape, the target of a reshape from a view
// or tracker of shape from: the -1 becomes the size of from divided by the
// product of the other dims. Dims equal in both shapes cancel first, so a
// symbolic -1 resolves where the rest is a constant that divides, e.g. (k, 6)
// to (k, -1, 2). It returns shape unchanged when it holds no -1, and an error
// for more than one -1 or a size the other dims do not divide.
func InferShape(from, shape []*symbolic.Node) ([]*symbolic.Node, error) {
	at := -1
	var rest []node
	for i, s := range shape {
		if !isInt(s, -1) {
			rest = append(rest, s)
			continue
		}
		if at >= 0 {
			return nil, fmt.Errorf("reshape: can only specify one unknown dimension in %s", Tuple(shape))
		}
		at = i
	}
	if at < 0 {
		return shape, nil
	}
	bad := func() ([]*symbolic.Node, error) {
		return nil, fmt.Errorf("reshape: cannot reshape %s to %s", Tuple(from), Tuple(shape))
	}
	if hasNegative(rest) {
		return bad()
	}
	left := append([]node(nil), from...)
	var others []node
	for _, s := range rest {
		found := false
		for j, f := range left {
			if !s.IsConst() && eq(f, s) {
				left = append(left[:j], left[j+1:]...)
				found = true
				break
			}
		}
		if !found {
			others = append(others, s)
		}
	}
	size, d := prod(left), prod(others)
	dv, ok := ival(d)
	if !ok {
		return nil, fmt.Errorf("reshape: cannot infer the -1 in %s from the size %s of %s", Tuple(shape), size.Render(), Tuple(from))
	}
	if dv <= 0 {
		return bad()
	}
	q := symbolic.Simplify(symbolic.Div(size, c(dv)))
	if !eq(mul(q, c(dv)), size) {
		if !size.IsConst() {
			return nil, fmt.Errorf("reshape: cannot infer the -1 in %s: %d does not divide %s", Tuple(shape), dv, size.Render())
		}
		return bad()
	}
	out := append([]*symbolic.Node(nil), shape...)
	out[at] = q
	return out, nil
}
