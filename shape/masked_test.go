package shape

import "testing"

// A view that is entirely masked (a pad of a zero-size shrink) reshapes into
// one fully masked view of the new shape, as tinygrad's _reshape_mask does
// with a zero mask; strings are tinygrad's at a2a4ff30.
func TestReshapeFullyMasked(t *testing.T) {
	cases := []struct {
		shrink, pad [][2]int
		shape       []int
		want        string
	}{
		{[][2]int{{0, 0}, {0, 6}}, [][2]int{{1, 2}, {0, 0}}, []int{2, 9},
			"ShapeTracker(views=(View(shape=(2, 9), strides=(0, 0), offset=0, mask=((0, 0), (0, 0)), contiguous=False),))"},
		{[][2]int{{1, 1}, {0, 6}}, [][2]int{{0, 3}, {1, 1}}, []int{2, 2, 6},
			"ShapeTracker(views=(View(shape=(2, 2, 6), strides=(0, 0, 0), offset=0, mask=((0, 0), (0, 0), (0, 0)), contiguous=False),))"},
		{[][2]int{{1, 1}, {0, 6}}, [][2]int{{0, 3}, {1, 1}}, []int{8, 3},
			"ShapeTracker(views=(View(shape=(8, 3), strides=(0, 0), offset=0, mask=((0, 0), (0, 0)), contiguous=False),))"},
	}
	for _, c := range cases {
		st := must(must(must(FromInts(4, 6).ShrinkInts(c.shrink)).PadInts(c.pad)).ReshapeInts(c.shape))
		wantString(t, st, c.want)
	}
}
