package clang

import (
	"math/rand"
	"strings"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

var f32 = codegen.Float32

// open returns a CLANG device caching into dir, skipping the test when no
// C compiler works.
func open(t testing.TB, dir string, threads int) devices.Device {
	t.Helper()
	if _, err := Available(); err != nil {
		t.Skip(err)
	}
	d, err := Open(devices.Options{CacheDir: dir, Threads: threads})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// check runs k on CLANG (one and three workers, with and without the
// lowering's optimizations, for a small target and for AVX-512's, whose
// 16-float vectors gcc splits in two where the CPU lacks them) and
// compares every output element with the reference device's on the same
// program. It compiles into the user's cache, so that reruns are quick.
func check(t *testing.T, k *codegen.Kernel) {
	t.Helper()
	checkOpts(t, k, []codegen.Options{{}, {NoMerge: true, NoReorder: true, NoUnroll: true, NoSplit: true},
		{Target: &codegen.Target{Lanes: 3, Rows: 2, Cols: 4, Dot: 2, Tile: 2}}, {Target: &codegen.AVX512Target}})
}

// checkOpts is check under the given lowerings.
func checkOpts(t *testing.T, k *codegen.Kernel, optsList []codegen.Options) {
	t.Helper()
	d1 := open(t, "", 1)
	d3, _ := Open(devices.Options{Threads: 3})
	rng := rand.New(rand.NewSource(1))
	bufs := kt.Alloc(k, rng)
	for _, opts := range optsList {
		p, want, err := kt.LowerRef(k, opts, bufs, nil)
		if err != nil {
			t.Fatalf("%s opts %+v: %v\n%s", k.Name, opts, err, p)
		}
		for _, d := range []devices.Device{d1, d3} {
			r, err := d.Compile(p)
			if err != nil {
				t.Fatalf("compile: %v\n%s\n%s", err, p, codegen.RenderC(p))
			}
			if err := kt.RunDiff(r, bufs, want); err != nil {
				t.Fatalf("%s opts %+v: %v\n%s\n%s", k.Name, opts, err, p, r.(*runner).src)
			}
		}
	}
}

func TestElementwise(t *testing.T) {
	s := shape.FromInts(64, 33)
	check(t, kt.Kernel(s, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, s), kt.Load(2, f32, s)), kt.Spec(f32, 64*33), kt.Spec(f32, 64*33)))
	row := kt.Must(shape.FromInts(1, 33).ExpandInts([]int{64, 33}))
	c := kt.Must(shape.FromInts(1, 1).ExpandInts([]int{64, 33}))
	check(t, kt.Kernel(s, kt.Op(codegen.OpMul, f32, kt.Op(codegen.OpSub, f32, kt.Load(1, f32, s), kt.Load(2, f32, row)), kt.Const(2.5, f32, c)),
		kt.Spec(f32, 64*33), kt.Spec(f32, 33)))
	tr := kt.Must(shape.FromInts(3, 100).Permute([]int{1, 0}))
	s2 := shape.FromInts(100, 3)
	zero := kt.Const(0, f32, kt.Must(shape.FromInts(1, 1).ExpandInts([]int{100, 3})))
	check(t, kt.Kernel(s2, kt.Op(codegen.OpSqrt, f32, kt.Op(codegen.OpMax, f32, kt.Load(1, f32, tr), zero)), kt.Spec(f32, 300)))
	// A transpose big enough to be tiled, with edges that are not whole tiles.
	big := kt.Must(shape.FromInts(100, 130).Permute([]int{1, 0}))
	check(t, kt.Kernel(shape.FromInts(130, 100), kt.Load(1, f32, big), kt.Spec(f32, 13000)))
}

func TestTranscendentals(t *testing.T) {
	s := shape.FromInts(5000)
	for _, op := range []codegen.Op{codegen.OpExp2, codegen.OpLog2, codegen.OpSin, codegen.OpSqrt, codegen.OpRecip} {
		for _, d := range []codegen.DType{codegen.Float16, codegen.Float32, codegen.Float64} {
			check(t, kt.Kernel(s, kt.Op(op, d, kt.Load(1, d, s)), kt.Spec(d, 5000)))
		}
	}
}

func TestPadAndMultiView(t *testing.T) {
	pad := kt.Must(shape.FromInts(30, 30).PadInts([][2]int{{1, 2}, {3, 0}}))
	s := shape.FromInts(33, 33)
	check(t, kt.Kernel(s, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, pad), kt.Const(1, f32, kt.Must(pad.ReshapeInts([]int{33, 33})))), kt.Spec(f32, 900)))
	mv := kt.Must(kt.Must(shape.FromInts(6, 10).Permute([]int{1, 0})).ReshapeInts([]int{4, 15}))
	check(t, kt.Kernel(shape.FromInts(4, 15), kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, mv)), kt.Spec(f32, 60)))
	flip := kt.Must(shape.FromInts(7, 9).Flip([]bool{true, false}))
	check(t, kt.Kernel(shape.FromInts(7, 9), kt.Load(1, f32, flip), kt.Spec(f32, 63)))
}

// TestNested runs kernels with a reduce inside another over the same axes
// (argmax's max inside the search for its position).
func TestNested(t *testing.T) {
	for _, k := range kt.NestedKernels([]int{64, 200}, []int{3, 5}, []int{40000}, []int{5, 4, 3}, []int{20, 1024}) {
		check(t, k)
	}
}

func TestReduce(t *testing.T) {
	for _, k := range kt.ReduceKernels([]int{64, 200}, []int{3, 5}, []int{40000}, []int{5, 4, 3}) {
		check(t, k)
	}
	a := kt.Must(shape.FromInts(16, 1, 24).ExpandInts([]int{16, 70, 24}))
	b := kt.Must(kt.Must(shape.FromInts(24, 70).Permute([]int{1, 0})).ReshapeInts([]int{1, 70, 24}))
	b = kt.Must(b.ExpandInts([]int{16, 70, 24}))
	check(t, kt.Kernel(shape.FromInts(16, 70, 1), kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, b))),
		kt.Spec(f32, 16*24), kt.Spec(f32, 24*70)))
	// Register-tiled matmuls, rows not a multiple of the tile, columns a
	// multiple of 64 or not, with a bias added after the reduce; 33, 37 and
	// 70 rows and 133 and 300 columns end in a shifted tile.
	for _, mn := range [][2]int{{10, 128}, {33, 128}, {13, 100}, {37, 133}, {70, 300}} {
		m, n := mn[0], mn[1]
		a := kt.Must(shape.FromInts(m, 1, 40).ExpandInts([]int{m, n, 40}))
		b := kt.Must(kt.Must(kt.Must(shape.FromInts(40, n).Permute([]int{1, 0})).ReshapeInts([]int{1, n, 40})).ExpandInts([]int{m, n, 40}))
		mm := kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, b)))
		bias := kt.Must(shape.FromInts(1, n, 1).ExpandInts([]int{m, n, 1}))
		check(t, kt.Kernel(shape.FromInts(m, n, 1), kt.Op(codegen.OpAdd, f32, mm, kt.Load(3, f32, bias)), kt.Spec(f32, m*40), kt.Spec(f32, 40*n), kt.Spec(f32, n)))
	}
	// a @ b.T and row sums over 1000 and 999: lanes of 16 with a tail loop,
	// dot copies ending in shifted tiles.
	for _, mnk := range [][3]int{{37, 70, 999}, {8, 24, 1000}} {
		m, n, k := mnk[0], mnk[1], mnk[2]
		a := kt.Must(shape.FromInts(m, 1, k).ExpandInts([]int{m, n, k}))
		b := kt.Must(shape.FromInts(1, n, k).ExpandInts([]int{m, n, k}))
		check(t, kt.Kernel(shape.FromInts(m, n, 1), kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, b))),
			kt.Spec(f32, m*k), kt.Spec(f32, n*k)))
		check(t, kt.Kernel(shape.FromInts(m, 1), kt.Reduce(codegen.OpMax, f32, []int{1}, kt.Load(1, f32, shape.FromInts(m, k))), kt.Spec(f32, m*k)))
	}
}

// TestDTypes casts between every pair of dtypes and reduces each.
func TestDTypes(t *testing.T) {
	s := shape.FromInts(50, 41)
	for _, from := range codegen.DTypes {
		for _, to := range codegen.DTypes {
			check(t, kt.Kernel(s, kt.Op(codegen.OpCast, to, kt.Load(1, from, s)), kt.Spec(from, 50*41)))
		}
		if from != codegen.Bool {
			for _, op := range []codegen.Op{codegen.OpAdd, codegen.OpMax} {
				check(t, kt.Kernel(shape.FromInts(50, 1), kt.Reduce(op, from, []int{1}, kt.Load(1, from, s)), kt.Spec(from, 50*41)))
				check(t, kt.Kernel(shape.FromInts(1, 41), kt.Reduce(op, from, []int{0}, kt.Load(1, from, s)), kt.Spec(from, 50*41)))
			}
			// A reduce split across workers, with two accumulators.
			long := shape.FromInts(1 << 16)
			v := kt.Op(codegen.OpAdd, from, kt.Reduce(codegen.OpAdd, from, []int{0}, kt.Load(1, from, long)), kt.Reduce(codegen.OpMax, from, []int{0}, kt.Load(1, from, long)))
			if from != codegen.Float16 && from != codegen.Uint8 { // sums of 65536 halves or bytes overflow
				check(t, kt.Kernel(shape.FromInts(1), v, kt.Spec(from, 1<<16)))
			}
		}
	}
	for _, d := range []codegen.DType{codegen.Uint8, codegen.Int32, codegen.Int64} {
		for _, op := range []codegen.Op{codegen.OpIDiv, codegen.OpMod, codegen.OpAnd, codegen.OpXor, codegen.OpMax} {
			check(t, kt.Kernel(s, kt.Op(op, d, kt.Load(1, d, s), kt.Load(2, d, s)), kt.Spec(d, 50*41), kt.Spec(d, 50*41)))
		}
	}
}

// TestRandomKernels checks that CLANG agrees with the reference device on random kernels.
func TestRandomKernels(t *testing.T) {
	kt.RandomKernels(t, 60, 15, check)
}

func TestRenderSignature(t *testing.T) {
	s := shape.FromInts(10)
	p, err := codegen.Lower(kt.Kernel(s, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, s), kt.Load(2, f32, s)), kt.Spec(f32, 10), kt.Spec(f32, 10)), codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "void E_10(float* restrict data0, const float* restrict data1, const float* restrict data2, long start, long end)"
	if src := codegen.RenderC(p); !strings.Contains(src, want) {
		t.Errorf("source lacks %q:\n%s", want, src)
	}
}

// TestEdgeKernels covers programs without loops and empty buffers.
func TestEdgeKernels(t *testing.T) {
	one := shape.FromInts(1)
	check(t, kt.Kernel(one, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, one), kt.Const(3, f32, one)), kt.Spec(f32, 1)))
	check(t, kt.Kernel(shape.FromInts(1, 1), kt.Reduce(codegen.OpMax, f32, []int{0, 1}, kt.Load(1, f32, shape.FromInts(3, 5))), kt.Spec(f32, 15)))
	empty := shape.FromInts(0, 4)
	check(t, kt.Kernel(empty, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, empty)), kt.Spec(f32, 0)))
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
	d1 := open(t, "", 1)
	d3, _ := Open(devices.Options{Threads: 3})
	opts := []codegen.Options{{}, {Target: &codegen.Target{Lanes: 3, Rows: 2, Cols: 4, Dot: 2, Tile: 2}}}
	kt.CheckClip(t, opts, d1.Compile)
	kt.CheckClip(t, opts, d3.Compile)
}

// tileKernel is a matmul of m x k by k x n, with a bias along its columns
// added and the sum negated when bias is set.
func tileKernel(m, n, k int, bias bool) *codegen.Kernel {
	a := kt.Must(shape.FromInts(m, 1, k).ExpandInts([]int{m, n, k}))
	b := kt.Must(kt.Must(kt.Must(shape.FromInts(k, n).Permute([]int{1, 0})).ReshapeInts([]int{1, n, k})).ExpandInts([]int{m, n, k}))
	v := kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, b)))
	specs := []codegen.BufSpec{kt.Spec(f32, m*k), kt.Spec(f32, k*n)}
	if bias {
		c := kt.Must(shape.FromInts(1, n, 1).ExpandInts([]int{m, n, 1}))
		v = kt.Op(codegen.OpNeg, f32, kt.Op(codegen.OpAdd, f32, v, kt.Load(3, f32, c)))
		specs = append(specs, kt.Spec(f32, n))
	}
	return kt.Kernel(shape.FromInts(m, n, 1), v, specs...)
}

// TestTileStores checks matmuls whose register tiles store their vector
// accumulators directly (with a bias added and negated on the way, and
// with a last row tile that overlaps the one before) against the
// reference device.
func TestTileStores(t *testing.T) {
	for _, bias := range []bool{false, true} {
		k := tileKernel(62, 48, 24, bias)
		p, err := codegen.Lower(k, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if src := codegen.RenderC(p); !strings.Contains(src, "__builtin_memcpy(&data0[") {
			t.Errorf("bias %v: the tile's stores are not vector stores:\n%s", bias, src)
		}
		check(t, k)
	}
}

// TestRowBlocks runs a matmul repeated at 9 positions with a shared right
// operand (a 1x1 convolution, positions outermost in its input) whose 200
// rows walk in blocks of 40 (codegen's rowBlock) and whose 202 rows do not.
func TestRowBlocks(t *testing.T) {
	for _, b := range []int{200, 202} {
		const p, n, k = 9, 32, 64
		x := kt.Must(kt.Must(shape.FromInts(p, b, 1, k).Permute([]int{1, 0, 2, 3})).ExpandInts([]int{b, p, n, k}))
		w := kt.Must(kt.Must(kt.Must(shape.FromInts(k, n).Permute([]int{1, 0})).ReshapeInts([]int{1, 1, n, k})).ExpandInts([]int{b, p, n, k}))
		check(t, kt.Kernel(shape.FromInts(b, p, n, 1), kt.Reduce(codegen.OpAdd, f32, []int{3}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, x), kt.Load(2, f32, w))),
			kt.Spec(f32, p*b*k), kt.Spec(f32, k*n)))
	}
}
