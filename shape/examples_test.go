package shape

import (
	"fmt"
	"testing"

	"tiny/symbolic"
)

// This file holds the worked examples of the seeds (000 ShapeTracker, 001
// symbolic, 002 reshape without symbolic) and of tinygrad's own tests, with
// the exact output tinygrad gives at commit a2a4ff30.

func mustView(t *testing.T, shape, strides []int, offset int, mask [][2]int) View {
	t.Helper()
	var st []*symbolic.Node
	if strides != nil {
		st = Ints(strides...)
	}
	var m [][2]*symbolic.Node
	if mask != nil {
		m = intPairs(mask)
	}
	v, err := NewView(Ints(shape...), st, symbolic.C(int64(offset)), m)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// must unwraps a tracker result; the examples never fail, so an error panics.
func must(st Tracker, err error) Tracker {
	if err != nil {
		panic(err)
	}
	return st
}

func wantRender(t *testing.T, st Tracker, names []string, idx, valid string) {
	t.Helper()
	if i, v := st.Render(names); i != idx || v != valid {
		t.Errorf("render of %s:\n got %s | %s\nwant %s | %s", st, i, v, idx, valid)
	}
}

func wantString(t *testing.T, got fmt.Stringer, want string) {
	t.Helper()
	if got.String() != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestSeedStrides(t *testing.T) {
	v := mustView(t, []int{2, 2}, []int{2, 1}, 0, nil)
	wantString(t, v, "View(shape=(2, 2), strides=(2, 1), offset=0, mask=None, contiguous=True)")
	wantRender(t, Tracker{Views: []View{v}}, nil, "((ridx0*2)+ridx1)", "True")

	// Transpose by swapping strides: the memory does not move.
	tv, err := v.Permute([]int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	wantString(t, tv, "View(shape=(2, 2), strides=(1, 2), offset=0, mask=None, contiguous=False)")
	wantRender(t, Tracker{Views: []View{tv}}, nil, "((ridx1*2)+ridx0)", "True")
}

func TestSeedStrideZero(t *testing.T) {
	st := must(FromInts(1, 4).ExpandInts([]int{4, 4}))
	wantString(t, st, "ShapeTracker(views=(View(shape=(4, 4), strides=(0, 1), offset=0, mask=None, contiguous=False),))")
	wantRender(t, st, nil, "ridx1", "True")
}

func TestSeedGaps(t *testing.T) {
	// Every other row of a 4x4 grid: rows are 8 elements apart.
	st := must(FromInts(4, 4).Stride([]int{2, 1}))
	wantString(t, st, "ShapeTracker(views=(View(shape=(2, 4), strides=(8, 1), offset=0, mask=None, contiguous=False),))")
	wantRender(t, st, nil, "((ridx0*8)+ridx1)", "True")
}

func TestSeedTwoViews(t *testing.T) {
	v := mustView(t, []int{3, 2}, []int{2, 1}, 0, nil)
	pv, _ := v.Permute([]int{1, 0})
	wantString(t, pv, "View(shape=(2, 3), strides=(1, 2), offset=0, mask=None, contiguous=False)")
	if _, ok := pv.Reshape(Ints(3, 2)); ok {
		t.Errorf("transpose then reshape fits one view")
	}
	st := must(must(FromInts(3, 2).Permute([]int{1, 0})).ReshapeInts([]int{3, 2}))
	wantString(t, st, "ShapeTracker(views=(View(shape=(2, 3), strides=(1, 2), offset=0, mask=None, contiguous=False), View(shape=(3, 2), strides=(2, 1), offset=0, mask=None, contiguous=True)))")
	wantRender(t, st, nil, "(((((ridx0*2)+ridx1)%3)*2)+(((ridx0*2)+ridx1)//3))", "True")
	if s := st.Simplify(); len(s.Views) != 2 {
		t.Errorf("simplify merged what cannot merge: %s", s)
	}
	// (4,4,4).permute(2,0,1).reshape(16,4) needs two views too.
	st = must(must(FromInts(4, 4, 4).Permute([]int{2, 0, 1})).ReshapeInts([]int{16, 4}))
	if len(st.Views) != 2 {
		t.Errorf("want 2 views: %s", st)
	}
}

func TestSeedMasks(t *testing.T) {
	st := Tracker{Views: []View{mustView(t, []int{3, 3}, nil, 0, [][2]int{{0, 2}, {0, 2}})}}
	wantString(t, st, "ShapeTracker(views=(View(shape=(3, 3), strides=(3, 1), offset=0, mask=((0, 2), (0, 2)), contiguous=False),))")
	wantRender(t, st, nil, "((ridx0*3)+ridx1)", "((ridx0<2)&(ridx1<2))")

	st = Tracker{Views: []View{mustView(t, []int{3, 3}, nil, 0, [][2]int{{1, 2}, {0, 2}})}}
	wantString(t, st, "ShapeTracker(views=(View(shape=(3, 3), strides=(0, 1), offset=3, mask=((1, 2), (0, 2)), contiguous=False),))")
	wantRender(t, st, nil, "(ridx1+3)", "((ridx1<2)&((ridx0<2)&((ridx0<1)!=True)))")

	st = must(FromInts(2, 3).PadInts([][2]int{{0, 1}, {0, 0}}))
	wantRender(t, st, nil, "((ridx0*3)+ridx1)", "(ridx0<2)")
	back := must(st.ShrinkInts([][2]int{{0, 2}, {0, 3}}))
	wantString(t, back, "ShapeTracker(views=(View(shape=(2, 3), strides=(3, 1), offset=0, mask=None, contiguous=True),))")
}

func TestSeedSymbolic(t *testing.T) {
	k := symbolic.Var("k", 1, 100)
	st := FromShape(k, symbolic.C(3))
	wantString(t, st, "ShapeTracker(views=(View(shape=(k, 3), strides=(3, 1), offset=0, mask=None, contiguous=True),))")
	wantRender(t, st, []string{"x", "y"}, "((x*3)+y)", "True")
	if got := Tuple(st.Size().Src); st.Size().Render() != "(k*3)" {
		t.Errorf("size %s %s", st.Size(), got)
	}

	v, err := NewView([]*symbolic.Node{k, symbolic.C(3)}, nil, nil, intPairs([][2]int{{0, 2}, {0, 2}}))
	if err != nil {
		t.Fatal(err)
	}
	wantRender(t, Tracker{Views: []View{v}}, []string{"x", "y"}, "((x*3)+y)", "((x<2)&(y<2))")
	v, err = NewView([]*symbolic.Node{k, symbolic.C(3)}, nil, nil, intPairs([][2]int{{1, 2}, {0, 2}}))
	if err != nil {
		t.Fatal(err)
	}
	wantRender(t, Tracker{Views: []View{v}}, []string{"x", "y"}, "(y+3)", "((y<2)&((x<2)&((x<1)!=True)))")

	// Movement ops keep the variable.
	st2 := must(must(st.Permute([]int{1, 0})).Pad(intPairs([][2]int{{0, 0}, {1, 0}})))
	wantString(t, st2, "ShapeTracker(views=(View(shape=(3, (k+1)), strides=(1, 3), offset=-3, mask=((0, 3), (1, (k+1))), contiguous=False),))")
	st3 := must(FromShape(k, symbolic.C(3)).Reshape([]*symbolic.Node{symbolic.C(3), k}))
	wantString(t, st3, "ShapeTracker(views=(View(shape=(3, k), strides=(k, 1), offset=0, mask=None, contiguous=True),))")
}

func TestSeedReshapeWithoutSymbolic(t *testing.T) {
	// Splitting: [1..8] with mask (2,6) cannot split into (2, 4): the mask is cut.
	v := mustView(t, []int{8}, nil, 0, [][2]int{{2, 6}})
	if _, ok := v.Reshape(Ints(2, 4)); ok {
		t.Errorf("a cut mask split into one view")
	}
	v = mustView(t, []int{8}, nil, 0, [][2]int{{0, 4}})
	r, ok := v.Reshape(Ints(2, 4))
	if !ok || fmt.Sprint(pairs(r.Mask)) != "((0, 1), (0, 4))" {
		t.Errorf("trivial split: %v %v", r, ok)
	}
	// Combining: ((0,2),(0,2)) on (3, 2) unfolds to (0, 4).
	v = mustView(t, []int{3, 2}, nil, 0, [][2]int{{0, 2}, {0, 2}})
	r, ok = v.Reshape(Ints(6))
	if !ok || fmt.Sprint(pairs(r.Mask)) != "((0, 4),)" {
		t.Errorf("combine: %v %v", r, ok)
	}
	// ((1,2),(0,2)) on (2, 3) combines because the row mask has range 1.
	v = mustView(t, []int{2, 3}, nil, 0, [][2]int{{1, 2}, {0, 2}})
	r, ok = v.Reshape(Ints(6))
	if !ok || fmt.Sprint(pairs(r.Mask)) != "((3, 5),)" {
		t.Errorf("combine single row: %v %v", r, ok)
	}
	// merge_dims: (2,3,4) with strides (12,4,1) is one block of 24.
	if b := mergeDims(Ints(2, 3, 4), Ints(12, 4, 1), nil); len(b) != 1 || !isInt(b[0].size, 24) || !isInt(b[0].stride, 1) || !isInt(b[0].real, 24) {
		t.Errorf("merge dims %v", b)
	}
}

func TestTinygradCases(t *testing.T) {
	st := FromInts(2, 3)
	wantRender(t, st, nil, "((ridx0*3)+ridx1)", "True")
	// permute twice is contiguous again.
	st = must(must(FromInts(3, 4).Permute([]int{1, 0})).Permute([]int{1, 0}))
	if !st.Contiguous() {
		t.Errorf("double permute not contiguous: %s", st)
	}
	// adding and removing 1-dims keeps it contiguous.
	st = must(must(FromInts(4, 4).ReshapeInts([]int{1, 4, 1, 4, 1})).ReshapeInts([]int{4, 4}))
	if !st.Contiguous() {
		t.Errorf("1-dims: %s", st)
	}
	// expand then contract: two views that simplify to one.
	st = must(must(must(FromInts(1, 10).ExpandInts([]int{10, 10})).ReshapeInts([]int{100})).ReshapeInts([]int{10, 10}))
	if len(st.Views) != 2 || len(st.Simplify().Views) != 1 {
		t.Errorf("expand contract: %s -> %s", st, st.Simplify())
	}
	wantRender(t, st, nil, "ridx1", "True")
	// minify drops size-1 dims wherever they are.
	v := mustView(t, []int{1, 4, 1, 2}, nil, 0, nil)
	if m := v.Minify(); Tuple(m.Shape) != "(8,)" {
		t.Errorf("minify: %s", m)
	}
	// Compose: st + st.
	a := must(FromInts(4, 6).Permute([]int{1, 0}))
	b := must(FromInts(6, 4).ShrinkInts([][2]int{{1, 5}, {0, 4}}))
	wantString(t, a.Compose(b), "ShapeTracker(views=(View(shape=(4, 4), strides=(1, 6), offset=1, mask=None, contiguous=False),))")
}
