package kerneltest

import (
	"math"
	"math/rand"
	"syscall"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	"tiny/shape"
)

// This file holds the rows of the tiny suite (internal/suite.Suite, in its
// order and with its names) as the kernel ASTs the engine schedules for
// them, and the runner that times them on a device with their buffers
// reused: the devices' kernel benchmarks (BenchmarkSuite in devices/cpu
// and devices/clang). Timing through the engine, everything included,
// is bench's BenchmarkSuite.

// Row is one row of the suite as kernels.
type Row struct {
	Name    string
	Kernels []*codegen.Kernel
	// Wire gives kernel j its inputs from earlier kernels' buffers; nil
	// when every kernel's inputs are filled at random.
	Wire func(j int, bufs [][]*devices.Buffer)
}

const n16M = 1 << 24

var f32 = codegen.Float32

// konst is the float32 constant v broadcast to sh.
func konst(v float64, sh ...int) *codegen.Node {
	ones := make([]int, len(sh))
	for i := range ones {
		ones[i] = 1
	}
	return Const(v, f32, Must(shape.FromInts(ones...).ExpandInts(sh)))
}

func op(o codegen.Op, src ...*codegen.Node) *codegen.Node { return Op(o, f32, src...) }

// Matmul is the kernel of an n x n matmul, a @ b with b read transposed.
func Matmul(n int) *codegen.Kernel {
	a := Must(shape.FromInts(n, 1, n).ExpandInts([]int{n, n, n}))
	bt := Must(Must(Must(shape.FromInts(n, n).Permute([]int{1, 0})).ReshapeInts([]int{1, n, n})).ExpandInts([]int{n, n, n}))
	return Kernel(shape.FromInts(n, n, 1), Reduce(codegen.OpAdd, f32, []int{2}, op(codegen.OpMul, Load(1, f32, a), Load(2, f32, bt))), Spec(f32, n*n), Spec(f32, n*n))
}

// SuiteRows returns the rows of the suite as kernels.
func SuiteRows() []Row {
	s := shape.FromInts(n16M)
	sq := shape.FromInts(4096, 4096)
	one := func(k *codegen.Kernel) []*codegen.Kernel { return []*codegen.Kernel{k} }
	return []Row{
		{Name: "add", Kernels: one(Kernel(s, op(codegen.OpAdd, Load(1, f32, s), Load(2, f32, s)), Spec(f32, n16M), Spec(f32, n16M)))},
		{Name: "fused", Kernels: one(Kernel(shape.FromInts(1), Reduce(codegen.OpAdd, f32, []int{0},
			op(codegen.OpMul, op(codegen.OpAdd, op(codegen.OpMul, Load(1, f32, s), konst(2, n16M)), Load(2, f32, s)), Load(3, f32, s))),
			Spec(f32, n16M), Spec(f32, n16M), Spec(f32, n16M)))},
		{Name: "reduce_axis", Kernels: one(Kernel(shape.FromInts(4096, 1), Reduce(codegen.OpAdd, f32, []int{1}, Load(1, f32, sq)), Spec(f32, n16M)))},
		{Name: "transpose", Kernels: one(Kernel(sq, Load(1, f32, Must(sq.Permute([]int{1, 0}))), Spec(f32, n16M)))},
		softmaxRow(4096, 1024),
		{Name: "matmul512", Kernels: one(Matmul(512))},
		{Name: "matmul1024", Kernels: one(Matmul(1024))},
		{Name: "exp_sin", Kernels: one(Kernel(s, op(codegen.OpAdd, op(codegen.OpExp2, op(codegen.OpMul, Load(1, f32, s), konst(math.Log2E, n16M))), op(codegen.OpSin, Load(2, f32, s))),
			Spec(f32, n16M), Spec(f32, n16M)))},
	}
}

// softmaxRow is softmax over the rows of rows x cols as three kernels: the
// row max, the sum of exp(x - max), and exp(x - max) / sum.
func softmaxRow(rows, cols int) Row {
	x := shape.FromInts(rows, cols)
	col := Must(shape.FromInts(rows, 1).ExpandInts([]int{rows, cols}))
	e := func() *codegen.Node {
		return op(codegen.OpExp2, op(codegen.OpMul, op(codegen.OpSub, Load(1, f32, x), Load(2, f32, col)), konst(math.Log2E, rows, cols)))
	}
	mx := Kernel(shape.FromInts(rows, 1), Reduce(codegen.OpMax, f32, []int{1}, Load(1, f32, x)), Spec(f32, rows*cols))
	sum := Kernel(shape.FromInts(rows, 1), Reduce(codegen.OpAdd, f32, []int{1}, e()), Spec(f32, rows*cols), Spec(f32, rows))
	out := Kernel(x, op(codegen.OpMul, e(), op(codegen.OpRecip, Load(3, f32, col))), Spec(f32, rows*cols), Spec(f32, rows), Spec(f32, rows))
	return Row{Name: "softmax", Kernels: []*codegen.Kernel{mx, sum, out}, Wire: func(j int, bufs [][]*devices.Buffer) {
		switch j {
		case 1:
			bufs[1][1], bufs[1][2] = bufs[0][1], bufs[0][0]
		case 2:
			bufs[2][1], bufs[2][2], bufs[2][3] = bufs[0][1], bufs[0][0], bufs[1][0]
		}
	}}
}

// BenchRow lowers r's kernels with opts, compiles them on dev, fills their
// float32 inputs uniform in [0, 1) as the suite's are, and times running
// them all, the output buffers reused. Beside ns/op it reports ms/op and
// cpu-ms/op, the process's CPU time per run summed over threads: the
// machine may be shared, and that shows the kernels' own cost when wall
// time includes waiting for a core.
func BenchRow(b *testing.B, dev devices.Device, opts codegen.Options, r Row) {
	rng := rand.New(rand.NewSource(1))
	all := make([][]*devices.Buffer, len(r.Kernels))
	runners := make([]devices.Runner, len(r.Kernels))
	var bytes int64
	for j, k := range r.Kernels {
		p, err := codegen.Lower(k, opts)
		if err != nil {
			b.Fatal(err)
		}
		if runners[j], err = dev.Compile(p); err != nil {
			b.Fatal(err)
		}
		all[j] = Alloc(k, rng)
		for _, buf := range all[j][1:] {
			if buf.DType == codegen.Float32 {
				for i, x := range buf.Float32s() {
					buf.Float32s()[i] = (x + 2) / 4
				}
			}
		}
		if r.Wire != nil {
			r.Wire(j, all)
		}
		bytes += p.Bytes
	}
	run := func() {
		for j, rn := range runners {
			if err := rn.Run(all[j], nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	run()
	b.SetBytes(bytes)
	b.ResetTimer()
	t0 := cpuTime()
	for range b.N {
		run()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	b.ReportMetric(float64(cpuTime()-t0)/1e6/float64(b.N), "cpu-ms/op")
}

func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
