package shape

import (
	"fmt"

	"tiny/symbolic"
)

// This file defines the composition of views (tinygrad's View.__add__) and
// the tracker simplification built on it. Composing v with u gives the one
// view that reads, for each index of u, the element of v that u's flat
// index selects, when such a view exists.

// Compose returns the one view equivalent to indexing v with u (u's flat
// indices read v's elements), and false when one view cannot express it.
// Only views with constant shapes, strides, offsets and masks compose, apart
// from the trivial cases.
func (v View) Compose(u View) (View, bool) {
	if v.Contiguous {
		return u, true
	}
	if hasZero(u.Shape) {
		return create(u.Shape, nil, nil, nil), true // no elements to read
	}
	if u.Contiguous && eqs(u.Shape, v.Shape) {
		return v, true
	}
	if u.Contiguous && eq(u.Size(), v.Size()) {
		if r, ok := v.Reshape(u.Shape); ok {
			return r, true
		}
	}
	if !v.allInt() || !u.allInt() {
		return View{}, false
	}
	if u.Mask != nil {
		return v.composeMasked(u)
	}
	return v.composeInts(u)
}

func (v View) allInt() bool {
	return allInt(v.Shape) && allInt(v.Strides) && v.Offset.IsConst() && (v.Mask == nil || allInt(flatMask(v.Mask)))
}

// composeMasked composes with a masked u: an empty mask gives the view of no
// valid elements; otherwise compose with u shrunk to its mask, then pad back.
func (v View) composeMasked(u View) (View, bool) {
	for _, m := range u.Mask {
		if m[0].Val >= m[1].Val {
			empty := make([][2]node, len(u.Shape))
			for i := range empty {
				empty[i] = [2]node{c(0), c(0)}
			}
			return create(u.Shape, zeros(len(u.Shape)), c(0), empty), true
		}
	}
	shrunk, err := u.Shrink(u.Mask)
	if err != nil {
		return View{}, false
	}
	merged, ok := v.Compose(shrunk)
	if !ok {
		return View{}, false
	}
	pad := make([][2]node, len(u.Mask))
	for i, m := range u.Mask {
		pad[i] = [2]node{m[0], c(u.Shape[i].Val - m[1].Val)}
	}
	out, err := merged.Pad(pad)
	return out, err == nil
}

// composeInts projects u's offset and strides onto v's dims, merging v's dims
// where u's steps carry across them, and projects v's mask back onto u.
func (v View) composeInts(u View) (View, bool) {
	vshape, vstrides := toInts(v.Shape), toInts(v.Strides)
	ushape, ustrides := toInts(u.Shape), toInts(u.Strides)
	origin := unravel(vshape, u.Offset.Val)
	terms := make([][][2]int64, len(vshape)) // per v dim: (u dim, step)
	strides := make([]int64, len(ushape))
	for d1, st := range ustrides {
		if st == 0 {
			continue
		}
		for d2, s := range unravel(vshape, u.Offset.Val+st) {
			if s1 := s - origin[d2]; s1 != 0 {
				terms[d2] = append(terms[d2], [2]int64{int64(d1), s1})
				strides[d1] += s1 * vstrides[d2]
			}
		}
	}
	extents, ok := mergeExtents(terms, vshape, ushape, origin)
	if !ok {
		return View{}, false
	}
	if len(extents) != len(vshape) || !sameSizes(extents, vshape) {
		shape := make([]node, len(extents))
		for i, e := range extents {
			shape[len(extents)-1-i] = c(e.size)
		}
		rv, ok := v.Reshape(shape)
		if !ok || eqs(rv.Shape, v.Shape) {
			return View{}, false
		}
		return rv.Compose(u)
	}
	if v.Mask != nil {
		if nu, changed, ok := v.projectMask(u, origin, terms, extents); !ok {
			return View{}, false
		} else if changed {
			return v.Compose(nu)
		}
	}
	offset := v.Offset.Val
	for i, o := range origin {
		offset += o * vstrides[i]
	}
	return create(u.Shape, ints(strides), c(offset), nil), true
}

// extent is a run of v's dims, innermost first, that u's index expression
// stays within: its size and that expression.
type extent struct {
	size int64
	term *symbolic.Node
}

func sameSizes(extents []extent, shape []int64) bool {
	for i, e := range extents {
		if e.size != shape[len(shape)-1-i] {
			return false
		}
	}
	return true
}

// mergeExtents walks v's dims from the innermost, accumulating u's index
// expression, and closes a run whenever the expression provably stays
// within the run's size.
func mergeExtents(terms [][][2]int64, vshape, ushape, origin []int64) ([]extent, bool) {
	idxs := make([]*symbolic.Node, len(ushape))
	for i, s := range ushape {
		idxs[i] = symbolic.Var(fmt.Sprintf("idx%d", i), 0, max(s-1, 0))
	}
	var extents []extent
	size, mt := int64(1), c(0)
	for d := len(vshape) - 1; d >= 0; d-- {
		sum := c(0)
		for _, t := range terms[d] {
			sum = symbolic.Add(sum, symbolic.Mul(idxs[t[0]], c(t[1])))
		}
		mt = symbolic.Add(mt, symbolic.Mul(symbolic.Add(sum, c(origin[d])), c(size)))
		size *= vshape[d]
		below := symbolic.Simplify(symbolic.Lt(mt, c(size))).IsTrue()
		nonneg := symbolic.Simplify(symbolic.Ge(mt, c(0))).IsTrue()
		if below && nonneg {
			extents = append(extents, extent{size, mt})
			size, mt = 1, c(0)
		}
	}
	return extents, symbolic.Simplify(mt).IsInt(0)
}

// projectMask maps v's mask onto u's dims. It returns the new u (masked) and
// true when that restricts u, or false when v's mask cannot be expressed.
func (v View) projectMask(u View, origin []int64, terms [][][2]int64, extents []extent) (View, bool, bool) {
	ushape := toInts(u.Shape)
	newb, newe := make([]int64, len(ushape)), append([]int64{}, ushape...)
	bad := false
	for i, m := range v.Mask {
		b, e, o := m[0].Val, m[1].Val, origin[i]
		t := extents[len(extents)-1-i].term
		if b <= t.Min() && t.Max() < e {
			continue
		}
		if len(terms[i]) != 1 {
			if len(terms[i]) == 0 && len(newe) > 0 {
				newe[0] = 0
			} else {
				bad = true
			}
			continue
		}
		d1, s1 := terms[i][0][0], terms[i][0][1]
		if s1 > 0 {
			newb[d1] = max(newb[d1], -fdiv(-(b-o), s1))
			newe[d1] = min(newe[d1], fdiv(e-o-1, s1)+1)
		} else {
			newb[d1] = max(newb[d1], -fdiv(-(e-o-1), s1))
			newe[d1] = min(newe[d1], fdiv(b-o, s1)+1)
		}
	}
	for i, s := range ushape {
		if newb[i] != 0 || newe[i] != s {
			mask := make([][2]node, len(ushape))
			for j := range mask {
				mask[j] = [2]node{c(newb[j]), c(newe[j])}
			}
			return create(u.Shape, u.Strides, u.Offset, mask), true, true
		}
	}
	return u, false, !bad
}

// unravel returns the row-major position of offset in shape, with Python's
// floor semantics for negative offsets (the outermost position wraps).
func unravel(shape []int64, offset int64) []int64 {
	out := make([]int64, len(shape))
	acc := int64(1)
	for i := len(shape) - 1; i >= 0; i-- {
		out[i] = fmod(fdiv(offset, acc), shape[i])
		acc *= shape[i]
	}
	return out
}

// Simplify returns the tracker with its last two views replaced by their
// composition, repeatedly, while one view can express them.
func (st Tracker) Simplify() Tracker {
	for len(st.Views) >= 2 {
		n := len(st.Views)
		v, ok := st.Views[n-2].Compose(st.Views[n-1])
		if !ok {
			break
		}
		st = Tracker{Views: append(append([]View{}, st.Views[:n-2]...), v)}
	}
	return st
}

// Compose returns tinygrad's st + u: the views of u stacked on t one at a
// time, simplifying after each, so u's first view indexes t's shape.
func (st Tracker) Compose(u Tracker) Tracker {
	for _, v := range u.Views {
		st = Tracker{Views: append(append([]View{}, st.Views...), v)}.Simplify()
	}
	return st
}
