package tensor

import "fmt"

// IndexItem is one entry of a basic index: an integer, a slice, a new axis
// or an ellipsis. Build them with Int, Slice, NewAxis and Ellipsis.
type IndexItem struct {
	kind        int // itemInt, itemSlice, itemNewAxis, itemEllipsis
	i           int
	start, stop *int
	step        int
	idx         *Tensor // itemTensor: the integer positions (advindex.go)
}

const (
	itemInt = iota
	itemSlice
	itemNewAxis
	itemEllipsis
	itemTensor
)

// Int indexes one position of an axis (negative counts from the end) and
// drops the axis.
func Int(i int) IndexItem { return IndexItem{kind: itemInt, i: i} }

// Slice selects start:stop:step of an axis as Python does; start and stop
// are ints or nil (the default for the step's direction), step is nonzero.
func Slice(start, stop any, step int) IndexItem {
	it := IndexItem{kind: itemSlice, step: step}
	it.start, it.stop = optInt(start), optInt(stop)
	return it
}

func optInt(v any) *int {
	switch x := v.(type) {
	case nil:
		return nil
	case int:
		return &x
	case int64:
		i := int(x)
		return &i
	case *int:
		return x
	}
	panic(&Error{Msg: fmt.Sprintf("slice: bound of type %T, want an int or nil", v)})
}

// NewAxis inserts an axis of size 1 (none in the language).
var NewAxis = IndexItem{kind: itemNewAxis}

// Ellipsis stands for as many full slices as the other items leave.
var Ellipsis = IndexItem{kind: itemEllipsis}

// Index returns the view of t that a basic index selects, as NumPy does:
// integers drop their axis, slices (negative steps too) keep it, NewAxis adds
// one, and missing trailing items select everything. No data moves. It
// panics with a *Error on too many indices, an index out of bounds, a zero
// step or two ellipses.
func (t *Tensor) Index(items ...IndexItem) *Tensor {
	for _, it := range items {
		if it.kind == itemTensor {
			return t.advIndex(items)
		}
	}
	n := t.Ndim()
	used, ell := 0, -1
	for k, it := range items {
		switch it.kind {
		case itemInt, itemSlice:
			used++
		case itemEllipsis:
			if ell >= 0 {
				fail("index: an index can only have a single ellipsis")
			}
			ell = k
		}
	}
	if used > n {
		fail("index: too many indices for tensor of shape %s: %d", FormatShape(t.n.shape), used)
	}
	var expanded []IndexItem
	for k, it := range items {
		if k == ell {
			for i := 0; i < n-used; i++ {
				expanded = append(expanded, Slice(nil, nil, 1))
			}
			continue
		}
		expanded = append(expanded, it)
	}
	for used < n && ell < 0 {
		expanded = append(expanded, Slice(nil, nil, 1))
		used++
	}
	bounds := make([][2]int, n)
	flip := []int{}
	strides := make([]int, n)
	var final []int
	axis := 0
	for _, it := range expanded {
		if it.kind == itemNewAxis {
			final = append(final, 1)
			continue
		}
		size := t.n.shape[axis]
		strides[axis] = 1
		switch it.kind {
		case itemInt:
			i := it.i
			if i < 0 {
				i += size
			}
			if i < 0 || i >= size {
				fail("index: index %d is out of bounds for axis %d with size %d", it.i, axis, size)
			}
			bounds[axis] = [2]int{i, i + 1}
		case itemSlice:
			start, step, count := sliceIndices(it, size)
			switch {
			case count == 0:
				bounds[axis] = [2]int{0, 0}
			case step > 0:
				bounds[axis] = [2]int{start, start + (count-1)*step + 1}
				strides[axis] = step
			default:
				bounds[axis] = [2]int{start + (count-1)*step, start + 1}
				strides[axis] = -step
				flip = append(flip, axis)
			}
			final = append(final, count)
		}
		axis++
	}
	out := t.Shrink(bounds)
	if len(flip) > 0 {
		out = out.Flip(flip...)
	}
	for _, s := range strides {
		if s != 1 {
			out = out.stride(strides)
			break
		}
	}
	if final == nil {
		final = []int{}
	}
	return out.Reshape(final...)
}

// sliceIndices resolves a slice against an axis of size n as Python's
// slice.indices: the first index, the step and the number of items.
func sliceIndices(it IndexItem, n int) (start, step, count int) {
	step = it.step
	if step == 0 {
		fail("index: slice step cannot be zero")
	}
	clamp := func(v *int, def, lo, hi int) int {
		if v == nil {
			return def
		}
		x := *v
		if x < 0 {
			x += n
		}
		return min(max(x, lo), hi)
	}
	if step > 0 {
		start = clamp(it.start, 0, 0, n)
		stop := clamp(it.stop, n, 0, n)
		count = max(0, (stop-start+step-1)/step)
	} else {
		start = clamp(it.start, n-1, -1, n-1)
		stop := clamp(it.stop, -1, -1, n-1)
		count = max(0, (start-stop-step-1)/(-step))
	}
	return start, step, count
}
