package cpu

import (
	"testing"

	"tiny/codegen"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// matmul returns the kernel of an (m, k) @ (k, n) matmul as the scheduler
// builds it; padA and padB pad A along k and B along n by one element on
// each side (masked loads: B's run is then gathered, not aliased).
func matmul(m, n, k int, padA, padB bool) *codegen.Kernel {
	return matmulOf(f32, m, n, k, padA, padB)
}

func matmulOf(d codegen.DType, m, n, k int, padA, padB bool) *codegen.Kernel {
	at, asz := shape.FromInts(m, k), m*k
	if padA {
		at, asz = kt.Must(shape.FromInts(m, k-2).PadInts([][2]int{{0, 0}, {1, 1}})), m*(k-2)
	}
	bt, bsz := shape.FromInts(k, n), k*n
	if padB {
		bt, bsz = kt.Must(shape.FromInts(k, n-2).PadInts([][2]int{{0, 0}, {1, 1}})), k*(n-2)
	}
	a := kt.Must(kt.Must(at.ReshapeInts([]int{m, 1, k})).ExpandInts([]int{m, n, k}))
	b := kt.Must(kt.Must(kt.Must(bt.Permute([]int{1, 0})).ReshapeInts([]int{1, n, k})).ExpandInts([]int{m, n, k}))
	return kt.Kernel(shape.FromInts(m, n, 1), kt.Reduce(codegen.OpAdd, d, []int{2}, kt.Op(codegen.OpMul, d, kt.Load(1, d, a), kt.Load(2, d, b))),
		kt.Spec(d, asz), kt.Spec(d, bsz))
}

// rowTargets are register tiles of 2 to 8 rows (groups of four and
// remainders) over short and odd columns.
var rowTargets = []codegen.Options{
	{Target: &cpuTarget},
	{Target: &codegen.Target{Rows: 4, Cols: 8, Steps: passSteps}},
	{Target: &codegen.Target{Rows: 8, Cols: 16, Steps: passSteps}},
	{Target: &codegen.Target{Rows: 5, Cols: 7, Steps: passSteps}},
	{Target: &codegen.Target{Rows: 3, Cols: 5, Steps: passSteps}},
	{Target: &codegen.Target{Rows: 2, Cols: 64, Steps: passSteps}},
}

// TestRowGroups checks matmuls whose register tiles run as row groups and
// whose reduce loops apply several steps per pass, with reduce lengths that
// are not multiples of the steps, odd
// columns and masked loads of either operand.
func TestRowGroups(t *testing.T) {
	for _, c := range []struct {
		m, n, k    int
		padA, padB bool
	}{
		{16, 70, 24, false, false},
		{24, 33, 7, false, false},
		{40, 64, 1, false, false},
		{16, 48, 9, true, false},
		{16, 48, 9, false, true},
		{10, 21, 13, true, true},
		{37, 70, 9, false, false}, // shifted last tiles along both axes
		{19, 45, 6, true, true},
	} {
		checkOpts(t, matmul(c.m, c.n, c.k, c.padA, c.padB), rowTargets)
	}
	for _, d := range []codegen.DType{codegen.Float64, codegen.Int32, codegen.Int64, codegen.Uint8} {
		checkOpts(t, matmulOf(d, 12, 40, 10, false, true), rowTargets)
	}
}

// TestSteppedLoops checks that a matmul's reduce loop applies several steps
// per pass, with
// its inner run aliased or gathered, and with an inner loop longer than one
// run (1100 columns).
func TestSteppedLoops(t *testing.T) {
	long := []codegen.Options{{Target: &codegen.Target{Rows: 2, Cols: 1100, Steps: passSteps}}}
	for _, c := range []struct {
		k    *codegen.Kernel
		opts codegen.Options
	}{
		{matmul(16, 64, 9, false, false), codegen.Options{Target: &codegen.Target{Rows: 4, Cols: 16, Steps: passSteps}}},
		{matmul(16, 64, 9, false, true), codegen.Options{Target: &codegen.Target{Rows: 4, Cols: 16, Steps: passSteps}}},
		{matmul(4, 2200, 5, false, false), long[0]},
		{matmul(4, 2200, 5, true, true), long[0]},
	} {
		p, err := codegen.Lower(c.k, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := compile(p)
		if err != nil {
			t.Fatal(err)
		}
		if prog.stepped != 1 {
			t.Fatalf("want one stepped reduce loop, got %d\n%s", prog.stepped, p)
		}
		// The loop steps because STEP says so: skipped, it runs plainly.
		skip := c.opts
		skip.Skip = []codegen.OptOp{codegen.OptStep}
		q, err := codegen.Lower(c.k, skip)
		if err != nil {
			t.Fatal(err)
		}
		if prog, err := compile(q); err != nil {
			t.Fatal(err)
		} else if prog.stepped != 0 {
			t.Fatalf("STEP skipped: want no stepped loop, got %d", prog.stepped)
		}
		checkOpts(t, c.k, []codegen.Options{c.opts, skip})
	}
}

// laneTargets keep lanes that do not divide the reduce axes below, so the
// groups end in a tail loop, with dot copies ending in shifted tiles.
var laneTargets = []codegen.Options{
	{Target: &codegen.Target{Lanes: 16, Dot: 4}},
	{Target: &codegen.Target{Lanes: 3, Dot: 2}},
	{Target: &codegen.Target{Lanes: 7}},
}

// TestLaneTail checks row reduces and a @ b.T over reduce lengths the lanes
// do not divide, in float and integer types and with max.
func TestLaneTail(t *testing.T) {
	for _, d := range []codegen.DType{f32, codegen.Int32} {
		for _, op := range []codegen.Op{codegen.OpAdd, codegen.OpMax} {
			s := shape.FromInts(7, 1000)
			checkOpts(t, kt.Kernel(shape.FromInts(7, 1), kt.Reduce(op, d, []int{1}, kt.Load(1, d, s)), kt.Spec(d, 7000)), laneTargets)
		}
	}
	for _, mnk := range [][3]int{{37, 70, 999}, {9, 17, 50}} {
		m, n, k := mnk[0], mnk[1], mnk[2]
		a := kt.Must(shape.FromInts(m, 1, k).ExpandInts([]int{m, n, k}))
		b := kt.Must(shape.FromInts(1, n, k).ExpandInts([]int{m, n, k}))
		checkOpts(t, kt.Kernel(shape.FromInts(m, n, 1), kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, b))),
			kt.Spec(f32, m*k), kt.Spec(f32, n*k)), laneTargets)
	}
}
