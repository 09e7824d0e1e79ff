package shape

import (
	"testing"

	"tiny/symbolic"
)

func pairsOf(p ...[2]int) [][2]*symbolic.Node { return intPairs(p) }

func TestErrors(t *testing.T) {
	st := FromInts(2, 3)
	bad := func(_ Tracker, err error) error { return err }
	tests := []struct {
		err  error
		want string
	}{
		{bad(st.ReshapeInts([]int{4, 2})), "reshape: cannot reshape (2, 3) to (4, 2)"},
		{bad(st.ReshapeInts([]int{-2, -3})), "reshape: cannot reshape (2, 3) to (-2, -3)"},
		{bad(st.Permute([]int{0, 0})), "permute: (0, 0) is not a permutation of the axes of (2, 3)"},
		{bad(st.Permute([]int{1})), "permute: (1,) is not a permutation of the axes of (2, 3)"},
		{bad(st.Permute([]int{0, 2})), "permute: (0, 2) is not a permutation of the axes of (2, 3)"},
		{bad(st.PadInts([][2]int{{-1, 0}, {0, 0}})), "pad: negative padding ((-1, 0), (0, 0)) for shape (2, 3)"},
		{bad(st.PadInts([][2]int{{1, 0}})), "pad: got 1 pairs for shape (2, 3), want 2"},
		{bad(st.ShrinkInts([][2]int{{0, 3}, {0, 3}})), "shrink: invalid shrink ((0, 3), (0, 3)) for shape (2, 3)"},
		{bad(st.ShrinkInts([][2]int{{1, 0}, {0, 3}})), "shrink: invalid shrink ((1, 0), (0, 3)) for shape (2, 3)"},
		{bad(st.ShrinkInts([][2]int{{0, 1}})), "shrink: got 1 pairs for shape (2, 3), want 2"},
		{bad(st.ExpandInts([]int{4, 3})), "expand: cannot expand (2, 3) to (4, 3)"},
		{bad(st.ExpandInts([]int{2, 3, 1})), "expand: cannot expand (2, 3) to (2, 3, 1)"},
		{bad(FromInts(1, 3).ExpandInts([]int{-2, 3})), "expand: cannot expand (1, 3) to (-2, 3)"},
		{bad(st.Stride([]int{0, 1})), "stride: zero step in (0, 1) for shape (2, 3)"},
		{bad(st.Stride([]int{1})), "stride: got 1 steps for shape (2, 3), want 2"},
		{bad(st.Flip([]bool{true})), "stride: got 1 steps for shape (2, 3), want 2"},
	}
	for _, tt := range tests {
		if tt.err == nil || tt.err.Error() != tt.want {
			t.Errorf("got error %v, want %q", tt.err, tt.want)
		}
	}
}

func TestViewErrors(t *testing.T) {
	_, err := NewView(Ints(3), nil, nil, pairsOf([2]int{0, 5}))
	if err == nil || err.Error() != "view: mask ((0, 5),) is outside shape (3,)" {
		t.Errorf("mask outside: %v", err)
	}
	_, err = NewView(Ints(3), nil, nil, pairsOf([2]int{-1, 2}))
	if err == nil || err.Error() != "view: mask ((-1, 2),) is outside shape (3,)" {
		t.Errorf("negative mask: %v", err)
	}
	_, err = NewView(Ints(2, -3), nil, nil, nil)
	if err == nil || err.Error() != "view: negative dimension -3 in (2, -3)" {
		t.Errorf("negative dim: %v", err)
	}
	_, err = NewView(Ints(2, 3), Ints(1), nil, nil)
	if err == nil || err.Error() != "view: got 1 strides for shape (2, 3), want 2" {
		t.Errorf("strides: %v", err)
	}
	_, err = NewView(Ints(2, 3), nil, nil, pairsOf([2]int{0, 1}))
	if err == nil || err.Error() != "view: got 1 mask dims for shape (2, 3), want 2" {
		t.Errorf("mask dims: %v", err)
	}
	// An empty mask dim (b >= e) is allowed: every element is invalid.
	v, err := NewView(Ints(2, 3), nil, nil, pairsOf([2]int{1, 1}, [2]int{0, 3}))
	if err != nil || v.String() != "View(shape=(2, 3), strides=(0, 0), offset=0, mask=((0, 0), (0, 0)), contiguous=False)" {
		t.Errorf("empty mask: %v %v", v, err)
	}
	// A size mismatch is never a view, and never a panic.
	if _, ok := v.Reshape(Ints(4, 2)); ok {
		t.Errorf("View.Reshape to another size reported ok")
	}
}

func TestIntShapePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || r != "shape: IntShape of symbolic shape (k, 3)" {
			t.Errorf("recovered %v", r)
		}
	}()
	FromShape(symbolic.Var("k", 1, 100), symbolic.C(3)).IntShape()
}

func TestInferShape(t *testing.T) {
	k := symbolic.Var("k", 1, 100)
	kk := []*symbolic.Node{k, symbolic.C(6)}
	tests := []struct {
		from, to []*symbolic.Node
		want     string // the resolved shape, or the error
	}{
		{Ints(2, 3), Ints(-1), "(6,)"},
		{Ints(2, 3), Ints(3, -1), "(3, 2)"},
		{Ints(2, 3), Ints(2, 3), "(2, 3)"},
		{Ints(2, 3), Ints(-1, 1, 3), "(2, 1, 3)"},
		{Ints(0, 3), Ints(-1, 3), "(0, 3)"},
		{Ints(2, 3), Ints(-1, -1), "reshape: can only specify one unknown dimension in (-1, -1)"},
		{Ints(2, 3), Ints(4, -1), "reshape: cannot reshape (2, 3) to (4, -1)"},
		{Ints(2, 3), Ints(0, -1), "reshape: cannot reshape (2, 3) to (0, -1)"},
		{Ints(2, 3), Ints(-2, -1), "reshape: cannot reshape (2, 3) to (-2, -1)"},
		{kk, []*symbolic.Node{k, symbolic.C(-1), symbolic.C(2)}, "(k, 3, 2)"},
		{kk, Ints(-1, 3), "((k*2), 3)"},
		{kk, Ints(-1, 4), "reshape: cannot infer the -1 in (-1, 4): 4 does not divide (k*6)"},
		{Ints(6, 3), []*symbolic.Node{symbolic.C(-1), k}, "reshape: cannot infer the -1 in (-1, k) from the size 18 of (6, 3)"},
	}
	for _, tt := range tests {
		got, err := InferShape(tt.from, tt.to)
		s := ""
		if err != nil {
			s = err.Error()
		} else {
			s = Tuple(got)
		}
		if s != tt.want {
			t.Errorf("InferShape(%s, %s) = %s, want %s", Tuple(tt.from), Tuple(tt.to), s, tt.want)
		}
	}
}

func TestNegativeTracker(t *testing.T) {
	_, err := NewTracker(Ints(-1, 3)...)
	if err == nil || err.Error() != "shapetracker: negative dimension -1 in (-1, 3)" {
		t.Errorf("NewTracker(-1, 3): %v", err)
	}
	if st, err := NewTracker(Ints(2, 0)...); err != nil || st.String() != FromInts(2, 0).String() {
		t.Errorf("NewTracker(2, 0) = %v, %v", st, err)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("FromInts(-1, 3) did not panic")
		}
	}()
	FromInts(-1, 3)
}
