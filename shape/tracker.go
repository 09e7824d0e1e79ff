package shape

import (
	"fmt"
	"strings"

	"tiny/symbolic"
)

// Tracker is tinygrad's ShapeTracker: a stack of views, the last of which
// has the tracker's shape. Each earlier view is indexed by the flattened
// (row-major) index that the view after it computes. Movement ops change only
// the last view, except a Reshape that one view cannot hold, which stacks a
// new contiguous view. Trackers are values; every method returns a new one.
type Tracker struct{ Views []View }

// FromShape returns the tracker of one contiguous view of shape. A dim that
// may be negative is a caller's bug, and FromShape panics on it rather than
// build a tracker no buffer has; NewTracker returns it as an error.
func FromShape(shape ...*symbolic.Node) Tracker {
	st, err := NewTracker(shape...)
	if err != nil {
		panic("shape: FromShape: " + err.Error())
	}
	return st
}

// NewTracker returns the tracker of one contiguous view of shape, or an error
// for a dim that may be negative.
func NewTracker(shape ...*symbolic.Node) (Tracker, error) {
	for _, s := range shape {
		if s.Min() < 0 {
			return Tracker{}, fmt.Errorf("shapetracker: negative dimension %s in %s", s.Render(), Tuple(shape))
		}
	}
	return Tracker{Views: []View{create(shape, nil, nil, nil)}}, nil
}

// FromInts returns the tracker of one contiguous view of an integer shape;
// like FromShape, it panics on a negative dim.
func FromInts(shape ...int) Tracker { return FromShape(Ints(shape...)...) }

// last returns the last view; the zero Tracker acts as the tracker of the
// scalar shape ().
func (st Tracker) last() View {
	if len(st.Views) == 0 {
		return create(nil, nil, nil, nil)
	}
	return st.Views[len(st.Views)-1]
}

func (st Tracker) with(v View) Tracker {
	views := make([]View, max(len(st.Views), 1))
	copy(views, st.Views)
	views[len(views)-1] = v
	return Tracker{Views: views}
}

// Shape returns the shape of the tracker, that of its last view.
func (st Tracker) Shape() []*symbolic.Node { return st.last().Shape }

// IntShape returns the shape as ints. It panics if a dim is symbolic: code
// that can meet symbolic dims must use Shape.
func (st Tracker) IntShape() []int {
	shape := st.Shape()
	out := make([]int, len(shape))
	for i, s := range shape {
		v, ok := s.Int()
		if !ok {
			panic(fmt.Sprintf("shape: IntShape of symbolic shape %s", Tuple(shape)))
		}
		out[i] = int(v)
	}
	return out
}

// Size returns the number of elements of the tracker's shape.
func (st Tracker) Size() *symbolic.Node { return prod(st.Shape()) }

// IntSize returns the number of elements as an int. Like IntShape, it panics
// if a dim is symbolic.
func (st Tracker) IntSize() int {
	n := 1
	for _, s := range st.IntShape() {
		n *= s
	}
	return n
}

// Contiguous reports whether the tracker is one contiguous view, so that
// output element i reads buffer element i.
func (st Tracker) Contiguous() bool { return st.last().Contiguous && len(st.Views) <= 1 }

// String returns the tracker in tinygrad's repr:
// ShapeTracker(views=(View(...),)).
func (st Tracker) String() string {
	parts := make([]string, len(st.Views))
	for i, v := range st.Views {
		parts[i] = v.String()
	}
	var b strings.Builder
	b.WriteString("ShapeTracker(views=")
	b.WriteString(tuple(parts))
	b.WriteString(")")
	return b.String()
}

// Reshape returns the tracker with the given shape, of the same size. The
// last view is reshaped in place when it can hold the result; otherwise a
// new contiguous view is stacked on top.
func (st Tracker) Reshape(shape []*symbolic.Node) (Tracker, error) {
	for _, s := range shape {
		if s.Min() < 0 {
			return Tracker{}, fmt.Errorf("reshape: cannot reshape %s to %s", Tuple(st.Shape()), Tuple(shape))
		}
	}
	if !eq(st.Size(), prod(shape)) {
		return Tracker{}, fmt.Errorf("reshape: cannot reshape %s to %s", Tuple(st.Shape()), Tuple(shape))
	}
	if v, ok := st.last().Reshape(shape); ok {
		return st.with(v), nil
	}
	views := append(append([]View{}, st.Views...), create(shape, nil, nil, nil))
	if len(st.Views) == 0 {
		views = views[len(views)-1:]
	}
	return Tracker{Views: views}, nil
}

// Permute returns the tracker with its axes reordered; see View.Permute.
func (st Tracker) Permute(order []int) (Tracker, error) {
	v, err := st.last().Permute(order)
	return st.with(v), err
}

// Expand returns the tracker broadcast to shape; see View.Expand.
func (st Tracker) Expand(shape []*symbolic.Node) (Tracker, error) {
	v, err := st.last().Expand(shape)
	return st.with(v), err
}

// Pad returns the tracker padded with invalid elements; see View.Pad.
func (st Tracker) Pad(p [][2]*symbolic.Node) (Tracker, error) {
	v, err := st.last().Pad(p)
	return st.with(v), err
}

// Shrink returns the tracker restricted to a window; see View.Shrink.
func (st Tracker) Shrink(p [][2]*symbolic.Node) (Tracker, error) {
	v, err := st.last().Shrink(p)
	return st.with(v), err
}

// Stride returns the tracker keeping every k-th element; see View.Stride.
func (st Tracker) Stride(k []int) (Tracker, error) {
	v, err := st.last().Stride(k)
	return st.with(v), err
}

// Flip returns the tracker reversed along every axis i with flip[i] true.
func (st Tracker) Flip(flip []bool) (Tracker, error) {
	k := make([]int, len(flip))
	for i, f := range flip {
		k[i] = 1
		if f {
			k[i] = -1
		}
	}
	return st.Stride(k)
}

// ReshapeInts is Reshape with an integer shape.
func (st Tracker) ReshapeInts(shape []int) (Tracker, error) { return st.Reshape(Ints(shape...)) }

// ExpandInts is Expand with an integer shape.
func (st Tracker) ExpandInts(shape []int) (Tracker, error) { return st.Expand(Ints(shape...)) }

// PadInts is Pad with integer padding.
func (st Tracker) PadInts(p [][2]int) (Tracker, error) { return st.Pad(intPairs(p)) }

// ShrinkInts is Shrink with integer bounds.
func (st Tracker) ShrinkInts(p [][2]int) (Tracker, error) { return st.Shrink(intPairs(p)) }

func intPairs(p [][2]int) [][2]*symbolic.Node {
	out := make([][2]*symbolic.Node, len(p))
	for i, x := range p {
		out[i] = [2]*symbolic.Node{c(int64(x[0])), c(int64(x[1]))}
	}
	return out
}
