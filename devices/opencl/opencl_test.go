package opencl

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

var f32 = codegen.Float32

// open returns the GPU device, skipping the test where OpenCL has no
// platform.
func open(t testing.TB) *Device {
	t.Helper()
	if _, err := Available(); err != nil {
		t.Skip(err)
	}
	d, err := Open(devices.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d.(*Device)
}

// optionSets are the lowerings each kernel is checked under: the device's
// own plain nests, codegen's default (register tiles, lanes, split
// reduces) and small targets, so that the renderer meets every loop shape.
var optionSets = []codegen.Options{{NoReorder: true, NoSplit: true}, {}, {NoMerge: true, NoReorder: true, NoUnroll: true, NoSplit: true},
	{Target: &codegen.Target{Lanes: 3, Rows: 2, Cols: 4, Dot: 2, Tile: 2}}}

// check runs k on the GPU device under each option set and compares every
// output element with the reference device's on the same program.
func check(t *testing.T, k *codegen.Kernel) {
	t.Helper()
	checkOpts(t, k, optionSets)
}

func checkOpts(t *testing.T, k *codegen.Kernel, opts []codegen.Options) {
	t.Helper()
	d := open(t)
	rng := rand.New(rand.NewSource(1))
	bufs := kt.Alloc(k, rng)
	// One build for all the lowerings: a driver's build has a large fixed cost.
	ps := make([]*codegen.Program, len(opts))
	for i, o := range opts {
		p, err := codegen.Lower(k, o)
		if err != nil {
			t.Fatalf("lower: %v", err)
		}
		ps[i] = p
	}
	rs, err := d.CompileBatch(ps)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	for i, o := range opts {
		p, r := ps[i], rs[i]
		want, err := kt.Reference(p, bufs)
		if err != nil {
			t.Fatalf("reference device: %v\n%s", err, p)
		}
		if err := kt.RunDiff(r, bufs, want); err != nil {
			t.Fatalf("%s opts %+v: %v\n%s\n%s", k.Name, o, err, p, r.(*runner).Source())
		}
	}
}

func TestElementwise(t *testing.T) {
	s := shape.FromInts(64, 33)
	check(t, kt.Kernel(s, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, s), kt.Load(2, f32, s)), kt.Spec(f32, 64*33), kt.Spec(f32, 64*33)))
	tr := kt.Must(shape.FromInts(3, 100).Permute([]int{1, 0}))
	check(t, kt.Kernel(shape.FromInts(100, 3), kt.Op(codegen.OpSqrt, f32, kt.Op(codegen.OpMax, f32, kt.Load(1, f32, tr),
		kt.Const(0, f32, kt.Must(shape.FromInts(1, 1).ExpandInts([]int{100, 3}))))), kt.Spec(f32, 300)))
	// A three-axis permute: three NDRange dimensions.
	p3 := kt.Must(shape.FromInts(5, 6, 7).Permute([]int{2, 0, 1}))
	check(t, kt.Kernel(shape.FromInts(7, 5, 6), kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, p3)), kt.Spec(f32, 210)))
}

func TestPadAndMultiView(t *testing.T) {
	pad := kt.Must(shape.FromInts(30, 30).PadInts([][2]int{{1, 2}, {3, 0}}))
	s := shape.FromInts(33, 33)
	check(t, kt.Kernel(s, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, pad), kt.Const(1, f32, kt.Must(pad.ReshapeInts([]int{33, 33})))), kt.Spec(f32, 900)))
	mv := kt.Must(kt.Must(shape.FromInts(6, 10).Permute([]int{1, 0})).ReshapeInts([]int{4, 15}))
	check(t, kt.Kernel(shape.FromInts(4, 15), kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, mv)), kt.Spec(f32, 60)))
}

// TestNested runs kernels with a reduce inside another over the same axes
// (argmax's max inside the search for its position).
func TestNested(t *testing.T) {
	for _, k := range kt.NestedKernels([]int{64, 200}, []int{3, 5}, []int{40000}, []int{5, 4, 3}, []int{4, 30000}, []int{3000, 7}) {
		check(t, k)
	}
}

func TestReduce(t *testing.T) {
	// Row sums of few long rows (a work-group per row), a whole-tensor
	// sum (partials per group, then a finishing kernel), many short rows.
	for _, k := range kt.ReduceKernels([]int{64, 200}, []int{3, 5}, []int{40000}, []int{5, 4, 3}, []int{4, 30000}, []int{3000, 7}) {
		check(t, k)
	}
	for _, mn := range [][2]int{{10, 128}, {37, 133}} {
		m, n := mn[0], mn[1]
		a := kt.Must(shape.FromInts(m, 1, 40).ExpandInts([]int{m, n, 40}))
		b := kt.Must(kt.Must(kt.Must(shape.FromInts(40, n).Permute([]int{1, 0})).ReshapeInts([]int{1, n, 40})).ExpandInts([]int{m, n, 40}))
		mm := kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, b)))
		bias := kt.Must(shape.FromInts(1, n, 1).ExpandInts([]int{m, n, 1}))
		check(t, kt.Kernel(shape.FromInts(m, n, 1), kt.Op(codegen.OpAdd, f32, mm, kt.Load(3, f32, bias)), kt.Spec(f32, m*40), kt.Spec(f32, 40*n), kt.Spec(f32, n)))
	}
	x := shape.FromInts(3, 5000)
	two := kt.Op(codegen.OpSub, f32,
		kt.Reduce(codegen.OpMax, f32, []int{1}, kt.Load(1, f32, x)),
		kt.Reduce(codegen.OpAdd, f32, []int{1}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, x), kt.Load(1, f32, x))))
	check(t, kt.Kernel(shape.FromInts(3, 1), two, kt.Spec(f32, 3*5000)))
}

// TestDTypes casts between every pair of dtypes and reduces each.
func TestDTypes(t *testing.T) {
	s := shape.FromInts(50, 41)
	plain := optionSets[:1]
	for _, from := range codegen.DTypes {
		for _, to := range codegen.DTypes {
			checkOpts(t, kt.Kernel(s, kt.Op(codegen.OpCast, to, kt.Load(1, from, s)), kt.Spec(from, 50*41)), plain)
		}
		if from != codegen.Bool {
			for _, op := range []codegen.Op{codegen.OpAdd, codegen.OpMax} {
				check(t, kt.Kernel(shape.FromInts(50, 1), kt.Reduce(op, from, []int{1}, kt.Load(1, from, s)), kt.Spec(from, 50*41)))
				checkOpts(t, kt.Kernel(shape.FromInts(1, 41), kt.Reduce(op, from, []int{0}, kt.Load(1, from, s)), kt.Spec(from, 50*41)), plain)
			}
			long := shape.FromInts(1 << 16)
			v := kt.Op(codegen.OpAdd, from, kt.Reduce(codegen.OpAdd, from, []int{0}, kt.Load(1, from, long)), kt.Reduce(codegen.OpMax, from, []int{0}, kt.Load(1, from, long)))
			if from != codegen.Float16 && from != codegen.Uint8 {
				check(t, kt.Kernel(shape.FromInts(1), v, kt.Spec(from, 1<<16)))
			}
		}
	}
	for _, d := range []codegen.DType{codegen.Uint8, codegen.Int32, codegen.Int64} {
		for _, op := range []codegen.Op{codegen.OpIDiv, codegen.OpMod, codegen.OpAnd, codegen.OpXor, codegen.OpMax} {
			checkOpts(t, kt.Kernel(s, kt.Op(op, d, kt.Load(1, d, s), kt.Load(2, d, s)), kt.Spec(d, 50*41), kt.Spec(d, 50*41)), plain)
		}
	}
}

// TestRandomKernels checks random kernels against the reference.
func TestRandomKernels(t *testing.T) {
	kt.RandomKernels(t, 60, 15, check)
}

// TestEdgeKernels covers programs without loops, empty buffers and reduces
// over empty axes.
func TestEdgeKernels(t *testing.T) {
	one := shape.FromInts(1)
	check(t, kt.Kernel(one, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, one), kt.Const(3, f32, one)), kt.Spec(f32, 1)))
	check(t, kt.Kernel(shape.FromInts(1, 1), kt.Reduce(codegen.OpMax, f32, []int{0, 1}, kt.Load(1, f32, shape.FromInts(3, 5))), kt.Spec(f32, 15)))
	e := shape.FromInts(0, 3)
	check(t, kt.Kernel(e, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, e)), kt.Spec(f32, 0)))
	for _, op := range []codegen.Op{codegen.OpAdd, codegen.OpMax, codegen.OpMul} {
		check(t, kt.Kernel(shape.FromInts(1, 3), kt.Reduce(op, f32, []int{0}, kt.Load(1, f32, e)), kt.Spec(f32, 0)))
		check(t, kt.Kernel(shape.FromInts(1, 1), kt.Reduce(op, f32, []int{0, 1}, kt.Load(1, f32, e)), kt.Spec(f32, 0)))
	}
}

// TestResident checks that a kernel's output stays on the device: the
// host copy is written only when the host reads it, and the next kernel
// takes the device copy.
func TestResident(t *testing.T) {
	d := open(t)
	s := shape.FromInts(1000)
	k := kt.Kernel(s, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, s), kt.Const(1, f32, s)), kt.Spec(f32, 1000))
	p, _ := codegen.Lower(k, d.LowerOptions())
	r, err := d.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	x, y, z := devices.Alloc(f32, 1000), devices.Alloc(f32, 1000), devices.Alloc(f32, 1000)
	for i := range x.Float32s() {
		x.Float32s()[i] = float32(i)
	}
	clear(y.Data)
	if err := r.Run([]*devices.Buffer{y, x}, nil); err != nil {
		t.Fatal(err)
	}
	if y.Data[4] != 0 || y.Data[5] != 0 {
		t.Fatalf("the output was copied to the host before a read")
	}
	if err := r.Run([]*devices.Buffer{z, y}, nil); err != nil {
		t.Fatal(err)
	}
	if got := z.Float32s()[10]; got != 12 {
		t.Fatalf("z[10] = %v, want 12", got)
	}
	if got := y.Float32s()[10]; got != 11 {
		t.Fatalf("y[10] = %v, want 11", got)
	}
	// A host write after the read reaches the device on the next run.
	y.Float32s()[10] = 100
	if err := r.Run([]*devices.Buffer{z, y}, nil); err != nil {
		t.Fatal(err)
	}
	if got := z.Float32s()[10]; got != 101 {
		t.Fatalf("after a host write, z[10] = %v, want 101", got)
	}
	for _, b := range []*devices.Buffer{x, y, z} {
		b.Free()
	}
}

// TestBuildLog checks that a source the driver rejects fails with its
// build log.
func TestBuildLog(t *testing.T) {
	d := open(t)
	_, _, err := d.cl.build("__kernel void broken(__global float* x) { x[0] = undefined_name; }\n", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "build log") || !strings.Contains(err.Error(), "undefined_name") {
		t.Fatalf("err = %v, want the build log naming undefined_name", err)
	}
}

// TestBinaryCache checks that a second build of a source loads the cached
// binary, and that a damaged cache file is rebuilt.
func TestBinaryCache(t *testing.T) {
	d := open(t)
	dir := t.TempDir()
	src := "__kernel void k(__global float* x) { x[get_global_id(0)] = 2.0f; }\n"
	if _, built, err := d.cl.build(src, dir); err != nil || !built {
		t.Fatalf("first build: built %v, err %v", built, err)
	}
	if _, built, err := d.cl.build(src, dir); err != nil || built {
		t.Fatalf("second build: built %v, err %v (want the cached binary)", built, err)
	}
	bins, _ := binaryDir(dir)
	files, _ := filepathGlob(bins)
	if len(files) != 1 {
		t.Fatalf("cache holds %v", files)
	}
	writeFile(t, files[0], []byte("damaged"))
	if _, built, err := d.cl.build(src, dir); err != nil || !built {
		t.Fatalf("after damage: built %v, err %v (want a rebuild)", built, err)
	}
}

// TestDebugOutput checks that DEBUG=1 names the platform and device and
// DEBUG=4 prints the OpenCL source.
func TestDebugOutput(t *testing.T) {
	open(t)
	var log bytes.Buffer
	dev, err := Open(devices.Options{Debug: 4, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	s := shape.FromInts(10)
	p, _ := codegen.Lower(kt.Kernel(s, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, s)), kt.Spec(f32, 10)), dev.(*Device).LowerOptions())
	if _, err := dev.Compile(p); err != nil {
		t.Fatal(err)
	}
	name, _ := Available()
	for _, want := range []string{"opencl: " + name, "compute units", "__kernel void E_10(", "get_global_id(0)"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

// TestCompileBatch builds two programs of the same name in one OpenCL
// program and runs each.
func TestCompileBatch(t *testing.T) {
	d := open(t)
	s := shape.FromInts(10)
	neg := kt.Kernel(s, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, s)), kt.Spec(f32, 10))
	sq := kt.Kernel(s, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, s), kt.Load(1, f32, s)), kt.Spec(f32, 10))
	var ps []*codegen.Program
	for _, k := range []*codegen.Kernel{neg, sq} {
		p, _ := codegen.Lower(k, d.LowerOptions())
		p.Name = "E_10"
		ps = append(ps, p)
	}
	rs, err := d.CompileBatch(ps)
	if err != nil {
		t.Fatal(err)
	}
	x, y := devices.Alloc(f32, 10), devices.Alloc(f32, 10)
	for i := range x.Float32s() {
		x.Float32s()[i] = float32(i)
	}
	for i, want := range []float32{-3, 9} {
		if err := rs[i].Run([]*devices.Buffer{y, x}, nil); err != nil {
			t.Fatal(err)
		}
		if got := y.Float32s()[3]; got != want {
			t.Errorf("program %d: y[3] = %v, want %v", i, got, want)
		}
	}
}

// TestGather checks loads whose index depends on a loaded value (GATHER,
// lowered to a gated load), in and out of bounds.
func TestGather(t *testing.T) {
	for _, k := range kt.GatherKernels() {
		check(t, k)
	}
}

// TestPrebuild records programs on a Recorder (lowered as for GPU, run on
// the reference device), builds them with Prebuild, and checks that the
// GPU device then compiles them without a build and runs them right.
func TestPrebuild(t *testing.T) {
	open(t)
	host, err := devices.Open("REF", devices.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(host)
	s := shape.FromInts(37)
	// A constant and a length no other test here uses, so that nothing
	// built these programs before in this process.
	const c = 417.5
	var ks []*codegen.Kernel
	for _, op := range []codegen.Op{codegen.OpAdd, codegen.OpMul, codegen.OpMax} {
		ks = append(ks, kt.Kernel(s, kt.Op(op, f32, kt.Load(1, f32, s), kt.Const(c, f32, kt.Must(shape.FromInts(1).ExpandInts([]int{37})))), kt.Spec(f32, 37)))
	}
	for _, k := range ks {
		p, err := codegen.Lower(k, rec.LowerOptions())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rec.Compile(p); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := rec.Prebuild(); err != nil || n != len(ks) {
		t.Fatalf("Prebuild built %d of %d programs, err %v", n, len(ks), err)
	}
	if n, _ := rec.Prebuild(); n != 0 {
		t.Errorf("a second Prebuild built %d programs, want 0", n)
	}
	var log bytes.Buffer
	dev, err := Open(devices.Options{Debug: 2, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for i, p := range rec.Programs() {
		r, err := dev.Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		bufs := kt.Alloc(ks[i], rng)
		want, err := kt.Reference(p, bufs)
		if err != nil {
			t.Fatal(err)
		}
		if err := kt.RunDiff(r, bufs, want); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
	}
	if strings.Contains(log.String(), "opencl: built") {
		t.Errorf("Compile built prebuilt programs:\n%s", log.String())
	}
}

// TestClip checks that a convolution's input gradient clipped to its
// padding's mask (codegen.OptClip, in codegen's default lowering) gives the
// reference device's bits, and the same bits as the unclipped loops.
func TestClip(t *testing.T) {
	d := open(t)
	kt.CheckClip(t, []codegen.Options{{}}, d.Compile)
}

// TestFloat64ToHalf: a double goes to half in one rounding, as
// codegen.Float64ToHalf (NumPy's); through float first, 65519.999 became
// infinity and 1 + 2**-11 + tiny became 1.
func TestFloat64ToHalf(t *testing.T) {
	d := open(t)
	in := []float64{65519.999, -65519.999, 65520, 1 + 0x1p-11 + 0x1p-40, 1 + 0x1p-11, 0.1, -2.0000000001, 1e-8, 3e-5}
	s := shape.FromInts(len(in))
	k := kt.Kernel(s, kt.Op(codegen.OpCast, codegen.Float16, kt.Load(1, codegen.Float64, s)), kt.Spec(codegen.Float64, len(in)))
	p, err := codegen.Lower(k, codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	out, src := devices.Alloc(codegen.Float16, len(in)), devices.Alloc(codegen.Float64, len(in))
	copy(src.Float64s(), in)
	if err := r.Run([]*devices.Buffer{out, src}, nil); err != nil {
		t.Fatal(err)
	}
	out.Sync()
	for i, x := range in {
		if got, want := out.Uint16s()[i], codegen.Float64ToHalf(x); got != want {
			t.Errorf("half(%v) = %#04x, want %#04x", x, got, want)
		}
	}
}
