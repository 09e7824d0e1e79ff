package interp

import (
	"tiny/lang"
	"tiny/tensor"
)

// indexTensor implements t[...]: ints pick (and drop) an axis, slices with
// any step keep it, none inserts a new axis of size 1, and ... stands for
// the axes not otherwise named. Everything is a movement op: shrink, flip,
// and for steps beyond 1 a pad and reshape that keeps every k-th element.
func (it *Interp) indexTensor(pos lang.Pos, v *TensorValue, idx []Value) Value {
	t := v.t
	shp := t.Shape()
	idx = it.expandEllipsis(pos, idx, len(shp))
	var final []int
	axis := 0
	for _, x := range idx {
		if x == None {
			final = append(final, 1)
			continue
		}
		n := shp[axis]
		var start, step, count int
		drop := false
		switch s := x.(type) {
		case sliceVal:
			start, _, step, count = it.sliceIndices(pos, s, n)
		default:
			if _, isT := x.(*TensorValue); isT {
				it.failf(pos, "indexing a tensor by a tensor is not supported")
			}
			start, step, count, drop = it.seqIndex(pos, v, x, n), 1, 1, true
		}
		t = takeAxis(t, axis, start, step, count)
		if !drop {
			final = append(final, count)
		}
		axis++
	}
	return &TensorValue{t.Reshape(final...)}
}

// expandEllipsis replaces ... by full slices and pads idx with full slices
// up to rank n.
func (it *Interp) expandEllipsis(pos lang.Pos, idx []Value, n int) []Value {
	used, ell := 0, -1
	for i, x := range idx {
		switch x.(type) {
		case NoneType:
		case ellipsisVal:
			if ell >= 0 {
				it.failf(pos, "an index can only have a single ...")
			}
			ell = i
		default:
			used++
		}
	}
	if used > n {
		it.failf(pos, "too many indices for tensor of rank %d: got %d", n, used)
	}
	full := make([]Value, n-used)
	for i := range full {
		full[i] = sliceVal{None, None, None}
	}
	if ell < 0 {
		return append(append([]Value{}, idx...), full...)
	}
	out := append(append([]Value{}, idx[:ell]...), full...)
	return append(out, idx[ell+1:]...)
}

// takeAxis keeps count elements start, start+step, ... of axis.
func takeAxis(t *tensor.Tensor, axis, start, step, count int) *tensor.Tensor {
	shp := t.Shape()
	if count == 0 {
		return t.Shrink(window(shp, axis, 0, 0))
	}
	last := start + (count-1)*step
	lo, hi := min(start, last), max(start, last)+1
	if lo != 0 || hi != shp[axis] {
		t = t.Shrink(window(shp, axis, lo, hi))
	}
	if step < 0 {
		t = t.Flip(axis)
		step = -step
	}
	if step == 1 {
		return t
	}
	// Pad the axis to count*step, split it into (count, step), keep column 0.
	shp = t.Shape()
	p := make([][2]int, len(shp))
	p[axis] = [2]int{0, count*step - shp[axis]}
	t = t.Pad(p)
	split := append(append(append([]int{}, shp[:axis]...), count, step), shp[axis+1:]...)
	t = t.Reshape(split...)
	w := make([][2]int, len(split))
	for i, d := range split {
		w[i] = [2]int{0, d}
	}
	w[axis+1] = [2]int{0, 1}
	t = t.Shrink(w)
	return t.Reshape(append(append(append([]int{}, shp[:axis]...), count), shp[axis+1:]...)...)
}

func window(shp []int, axis, lo, hi int) [][2]int {
	w := make([][2]int, len(shp))
	for i, d := range shp {
		w[i] = [2]int{0, d}
	}
	w[axis] = [2]int{lo, hi}
	return w
}
