package cpu

import (
	"testing"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

var f32 = codegen.Float32

// check runs k on the CPU device under every option set, including targets
// small enough that random kernels get register tiles, lanes and transpose
// tiles, and compares with the oracle.
func check(t *testing.T, k *codegen.Kernel) {
	t.Helper()
	checkOpts(t, k, []codegen.Options{{}, {NoMerge: true, NoReorder: true, NoUnroll: true, NoSplit: true}, {NoUnroll: true}, {NoReorder: true},
		{Target: &cpuTarget}, {Target: &codegen.Target{Lanes: 2, Rows: 2, Cols: 4, Tile: 2}}, {Target: &codegen.Target{Lanes: 3, Rows: 3, Cols: 6, Tile: 3}},
		{Target: &cpuTarget, Skip: []codegen.OptOp{codegen.OptMulAcc, codegen.OptExp2}}, {Target: &cpuTarget, Skip: []codegen.OptOp{codegen.OptUpcast, codegen.OptBlock}}})
}

// checkOpts runs k under each of opts with one and three workers and
// compares with the reference device running the same program, whose
// output is checked against the oracle's first.
func checkOpts(t *testing.T, k *codegen.Kernel, optsList []codegen.Options) {
	t.Helper()
	bufs, oracle := kt.Oracle(k)
	for _, opts := range optsList {
		p, want, err := kt.LowerRef(k, opts, bufs, oracle)
		if err != nil {
			t.Fatalf("%s opts %+v: %v\n%s\n%s", k.Name, opts, err, k, p)
		}
		for _, threads := range []int{1, 3} {
			dev, _ := Open(devices.Options{Threads: threads})
			r, err := dev.Compile(p)
			if err != nil {
				t.Fatalf("compile: %v\n%s", err, p)
			}
			if err := kt.RunDiff(r, bufs, want); err != nil {
				t.Fatalf("%s opts %+v threads %d: %v\n%s\n%s", k.Name, opts, threads, err, k, p)
			}
		}
	}
}

func TestElementwise(t *testing.T) {
	s := shape.FromInts(64, 33)
	check(t, kt.Kernel(s, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, s), kt.Load(2, f32, s)), kt.Spec(f32, 64*33), kt.Spec(f32, 64*33)))
	// Broadcast through a stride-0 view and a constant.
	row := kt.Must(shape.FromInts(1, 33).ExpandInts([]int{64, 33}))
	c := kt.Must(shape.FromInts(1, 1).ExpandInts([]int{64, 33}))
	check(t, kt.Kernel(s, kt.Op(codegen.OpMul, f32, kt.Op(codegen.OpSub, f32, kt.Load(1, f32, s), kt.Load(2, f32, row)), kt.Const(2.5, f32, c)),
		kt.Spec(f32, 64*33), kt.Spec(f32, 33)))
	// Transposed input, small inner dim.
	tr := kt.Must(shape.FromInts(3, 100).Permute([]int{1, 0}))
	s2 := shape.FromInts(100, 3)
	check(t, kt.Kernel(s2, kt.Op(codegen.OpSqrt, f32, kt.Op(codegen.OpMax, f32, kt.Load(1, f32, tr), kt.Const(0, f32, kt.Must(shape.FromInts(1, 1).ExpandInts([]int{100, 3}))))), kt.Spec(f32, 300)))
}

// TestTiled covers transposes walked in codegen's square tiles (the
// device has no tiling of its own): under the CPU target, and under small
// tiles that do not divide the sizes evenly or do.
func TestTiled(t *testing.T) {
	x := kt.Must(shape.FromInts(256, 384).Permute([]int{1, 0}))
	k := kt.Kernel(shape.FromInts(384, 256), kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, x), kt.Load(1, f32, x)), kt.Spec(f32, 256*384))
	p, err := codegen.Lower(k, codegen.Options{Target: &cpuTarget})
	if err != nil {
		t.Fatal(err)
	}
	ranges := 0
	for _, u := range p.UOps {
		if u.Op == codegen.OpRange {
			ranges++
		}
	}
	if ranges != 4 {
		t.Fatalf("want the transpose in tiles (4 loops), got %d loops\n%s", ranges, p)
	}
	check(t, k)
	x = kt.Must(shape.FromInts(50, 70).Permute([]int{1, 0}))
	check(t, kt.Kernel(shape.FromInts(70, 50), kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, x), kt.Load(1, f32, x)), kt.Spec(f32, 3500)))
}

func TestPadAndMultiView(t *testing.T) {
	pad := kt.Must(shape.FromInts(30, 30).PadInts([][2]int{{1, 2}, {3, 0}}))
	s := shape.FromInts(33, 33)
	check(t, kt.Kernel(s, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, pad), kt.Const(1, f32, kt.Must(pad.ReshapeInts([]int{33, 33})))), kt.Spec(f32, 900)))
	// A permute then a reshape that needs a second view: div/mod indices.
	mv := kt.Must(kt.Must(shape.FromInts(6, 10).Permute([]int{1, 0})).ReshapeInts([]int{4, 15}))
	if len(mv.Views) < 2 {
		t.Fatalf("want a multi-view tracker, got %s", mv)
	}
	check(t, kt.Kernel(shape.FromInts(4, 15), kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, mv)), kt.Spec(f32, 60)))
	flip := kt.Must(shape.FromInts(7, 9).Flip([]bool{true, false}))
	check(t, kt.Kernel(shape.FromInts(7, 9), kt.Load(1, f32, flip), kt.Spec(f32, 63)))
}

// TestNested runs kernels with a reduce inside another over the same axes
// (argmax's max inside the search for its position).
func TestNested(t *testing.T) {
	for _, k := range kt.NestedKernels([]int{64, 2000}, []int{3, 5}, []int{2000, 70}, []int{40000}, []int{5, 4, 3}, []int{7, 1, 300}) {
		check(t, k)
	}
}

func TestReduce(t *testing.T) {
	for _, k := range kt.ReduceKernels([]int{64, 2000}, []int{3, 5}, []int{2000, 70}, []int{40000}, []int{5, 4, 3}, []int{7, 1, 300}) {
		check(t, k)
	}
	// Sum over axis 1 of a transposed matrix, and a matmul-shaped reduce.
	x := kt.Must(shape.FromInts(50, 40).Permute([]int{1, 0}))
	check(t, kt.Kernel(shape.FromInts(40, 1), kt.Reduce(codegen.OpAdd, f32, []int{1}, kt.Load(1, f32, x)), kt.Spec(f32, 2000)))
	a := kt.Must(shape.FromInts(16, 1, 24).ExpandInts([]int{16, 70, 24}))
	b := kt.Must(kt.Must(shape.FromInts(24, 70).Permute([]int{1, 0})).ReshapeInts([]int{1, 70, 24}))
	b = kt.Must(b.ExpandInts([]int{16, 70, 24}))
	check(t, kt.Kernel(shape.FromInts(16, 70, 1), kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, b))),
		kt.Spec(f32, 16*24), kt.Spec(f32, 24*70)))
}

// TestRandomKernels checks random small kernels against the oracle.
func TestRandomKernels(t *testing.T) {
	kt.RandomKernels(t, 300, 50, check)
}

// TestDTypes runs an add and a cast from float32 for every dtype.
func TestDTypes(t *testing.T) {
	for _, k := range kt.DTypeKernels(5, 300) {
		check(t, k)
	}
	for _, d := range codegen.DTypes {
		// A reduce long enough to be split across workers: the partials
		// of every dtype are combined and copied back.
		for _, n := range []int{16, 20000} {
			check(t, kt.Kernel(shape.FromInts(1), kt.Reduce(codegen.OpMax, d, []int{0}, kt.Load(1, d, shape.FromInts(n))), kt.Spec(d, n)))
		}
	}
}

// TestCastValues pins the semantics the oracle shares with the device:
// float to int truncates toward zero, float16 rounds to nearest even.
func TestCastValues(t *testing.T) {
	in := []float32{-2.7, 2.7, -0.5, 1.0009765625 + 1.0/4096, 65519, 0}
	want := map[codegen.DType][]float64{
		codegen.Int32:   {-2, 2, 0, 1, 65519, 0},
		codegen.Bool:    {1, 1, 1, 1, 1, 0},
		codegen.Float16: {-2.69921875, 2.69921875, -0.5, 1.0009765625, 65504, 0},
	}
	s := shape.FromInts(len(in))
	for d, w := range want {
		k := kt.Kernel(s, kt.Op(codegen.OpCast, d, kt.Load(1, f32, s)), kt.Spec(f32, len(in)))
		p, _ := codegen.Lower(k, codegen.Options{})
		dev, _ := Open(devices.Options{})
		r, _ := dev.Compile(p)
		out, x := devices.Alloc(d, len(in)), devices.Alloc(f32, len(in))
		copy(x.Float32s(), in)
		if err := r.Run([]*devices.Buffer{out, x}, nil); err != nil {
			t.Fatal(err)
		}
		for i := range in {
			if g := kt.Get(out, i); g != w[i] {
				t.Errorf("cast %v to %s = %v, want %v", in[i], d, g, w[i])
			}
		}
	}
}

// TestEdgeShapes covers empty shapes, reduces over empty axes, scalar
// kernels and two reduces in one kernel.
func TestEdgeShapes(t *testing.T) {
	e := shape.FromInts(0, 3)
	check(t, kt.Kernel(e, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, e)), kt.Spec(f32, 0)))
	for _, op := range []codegen.Op{codegen.OpAdd, codegen.OpMax, codegen.OpMul} {
		check(t, kt.Kernel(shape.FromInts(1, 3), kt.Reduce(op, f32, []int{0}, kt.Load(1, f32, e)), kt.Spec(f32, 0)))
	}
	sc := shape.FromInts()
	check(t, kt.Kernel(sc, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, sc), kt.Const(3, f32, sc)), kt.Spec(f32, 1)))
	x := shape.FromInts(37, 300)
	two := kt.Op(codegen.OpSub, f32,
		kt.Reduce(codegen.OpMax, f32, []int{1}, kt.Load(1, f32, x)),
		kt.Reduce(codegen.OpAdd, f32, []int{1}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, x), kt.Load(1, f32, x))))
	check(t, kt.Kernel(shape.FromInts(37, 1), two, kt.Spec(f32, 37*300)))
	check(t, kt.Kernel(shape.FromInts(1, 300), kt.Reduce(codegen.OpAdd, codegen.Int32, []int{0}, kt.Load(1, codegen.Int32, x)), kt.Spec(codegen.Int32, 37*300)))
}

// TestChain checks sum((x*y+z)*w) folded in one pass (accumChain), with
// each of y, z and w a run or a broadcast constant, and its uncommon orders.
func TestChain(t *testing.T) {
	const n = 3000
	s := shape.FromInts(n)
	k := func(v float64) *codegen.Node {
		return kt.Const(v, f32, kt.Must(shape.FromInts(1).ExpandInts([]int{n})))
	}
	ld := func(i int) *codegen.Node { return kt.Load(i, f32, s) }
	mul := func(a, b *codegen.Node) *codegen.Node { return kt.Op(codegen.OpMul, f32, a, b) }
	add := func(a, b *codegen.Node) *codegen.Node { return kt.Op(codegen.OpAdd, f32, a, b) }
	for _, v := range []*codegen.Node{
		mul(add(mul(ld(1), k(2)), ld(2)), ld(3)),
		mul(ld(3), add(ld(2), mul(k(2), ld(1)))),
		mul(add(mul(ld(1), ld(2)), k(0.5)), ld(3)),
		mul(add(mul(ld(1), ld(2)), ld(3)), k(3)),
	} {
		check(t, kt.Kernel(shape.FromInts(1), kt.Reduce(codegen.OpAdd, f32, []int{0}, v), kt.Spec(f32, n), kt.Spec(f32, n), kt.Spec(f32, n)))
	}
}

// TestOuterIndex covers index arithmetic of outer loops computed from the
// loop variables (affine) or through slots: loads of an outer loop with
// plain, masked and div/mod indices, and outer values used inside the
// innermost loop.
func TestOuterIndex(t *testing.T) {
	// Row sums of a flipped, padded matrix: the load's index and gate mix
	// the row variable with the reduce variable.
	pad := kt.Must(kt.Must(shape.FromInts(30, 41).Flip([]bool{true, false})).PadInts([][2]int{{2, 1}, {0, 3}}))
	check(t, kt.Kernel(shape.FromInts(33, 1), kt.Reduce(codegen.OpAdd, f32, []int{1}, kt.Load(1, f32, pad)), kt.Spec(f32, 30*41)))
	// A permute and a reshape (two views): div and mod of the outer variable.
	mv := kt.Must(kt.Must(shape.FromInts(12, 50).Permute([]int{1, 0})).ReshapeInts([]int{40, 15}))
	check(t, kt.Kernel(shape.FromInts(40, 1), kt.Reduce(codegen.OpMax, f32, []int{1}, kt.Load(1, f32, mv)), kt.Spec(f32, 600)))
	check(t, kt.Kernel(shape.FromInts(1, 15), kt.Reduce(codegen.OpAdd, f32, []int{0}, kt.Load(1, f32, mv)), kt.Spec(f32, 600)))
	// A matmul whose A is seen through two views.
	a := kt.Must(kt.Must(kt.Must(kt.Must(shape.FromInts(24, 16).Permute([]int{1, 0})).ReshapeInts([]int{16, 24})).ReshapeInts([]int{16, 1, 24})).ExpandInts([]int{16, 40, 24}))
	b := kt.Must(kt.Must(kt.Must(shape.FromInts(24, 40).Permute([]int{1, 0})).ReshapeInts([]int{1, 40, 24})).ExpandInts([]int{16, 40, 24}))
	checkOpts(t, kt.Kernel(shape.FromInts(16, 40, 1), kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, b))),
		kt.Spec(f32, 16*24), kt.Spec(f32, 24*40)), rowTargets)
}

// TestScaledExp2 checks EXP2s that compute their scaled argument as they go
// (scaledExp2): (x - m) * c, (m + x) * c, x * c and c * x, with m a row's
// value and c a constant, large enough that some results overflow to
// infinity or underflow to 0, in float32 and float16.
func TestScaledExp2(t *testing.T) {
	for _, d := range []codegen.DType{f32, codegen.Float16} {
		s := shape.FromInts(37, 300)
		col := kt.Must(shape.FromInts(37, 1).ExpandInts([]int{37, 300}))
		k := func(v float64) *codegen.Node {
			return kt.Const(v, d, kt.Must(shape.FromInts(1, 1).ExpandInts([]int{37, 300})))
		}
		x, m := kt.Load(1, d, s), kt.Load(2, d, col)
		exp2 := func(v *codegen.Node) *codegen.Node { return kt.Op(codegen.OpExp2, d, v) }
		mul := func(a, b *codegen.Node) *codegen.Node { return kt.Op(codegen.OpMul, d, a, b) }
		for _, v := range []*codegen.Node{
			exp2(mul(kt.Op(codegen.OpSub, d, x, m), k(1.4426950408889634))),
			exp2(mul(k(90), kt.Op(codegen.OpAdd, d, m, x))),
			exp2(mul(x, k(100))),
			kt.Op(codegen.OpDiv, d, exp2(mul(k(-70), x)), m),
		} {
			check(t, kt.Kernel(s, v, kt.Spec(d, 37*300), kt.Spec(d, 37)))
		}
		// The sum of a softmax: a reduce of the scaled EXP2.
		e := exp2(mul(kt.Op(codegen.OpSub, d, x, m), k(1.4426950408889634)))
		check(t, kt.Kernel(shape.FromInts(37, 1), kt.Reduce(codegen.OpAdd, d, []int{1}, e), kt.Spec(d, 37*300), kt.Spec(d, 37)))
	}
}

// TestGather checks loads whose index depends on a loaded value, with
// out-of-range values reading 0.
func TestGather(t *testing.T) {
	for _, k := range kt.GatherKernels() {
		check(t, k)
	}
}

// TestClip checks that a convolution's input gradient clipped to its
// padding's mask (codegen.OptClip) gives the reference device's bits, and
// the same bits as the unclipped loops, on one and three workers.
func TestClip(t *testing.T) {
	for _, threads := range []int{1, 3} {
		d, _ := Open(devices.Options{Threads: threads})
		kt.CheckClip(t, []codegen.Options{{}, {Target: &cpuTarget}, {Target: &codegen.Target{Lanes: 2, Rows: 2, Cols: 4, Tile: 2}}}, d.Compile)
	}
}
