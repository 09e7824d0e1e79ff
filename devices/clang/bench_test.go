package clang

import (
	"math"
	"math/rand"
	"syscall"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// This file times the rows of the tiny suite (../shared/bench): each
// benchmark runs the kernels of one row with the output buffers reused.

const n16M = 1 << 24

// stage is one kernel of a row and the buffers it runs on.
type stage struct {
	r    devices.Runner
	bufs []*devices.Buffer
}

// benchRow compiles the kernels, wires each kernel's inputs (bufs[i] of
// kernel j is given by wire, or filled at random) and times running them all.
func benchRow(b *testing.B, ks []*codegen.Kernel, wire func(j int, bufs [][]*devices.Buffer)) {
	d := open(b, "", 0)
	rng := rand.New(rand.NewSource(1))
	all := make([][]*devices.Buffer, len(ks))
	var stages []stage
	var bytes int64
	for j, k := range ks {
		p, err := codegen.Lower(k, codegen.Options{})
		if err != nil {
			b.Fatal(err)
		}
		r, err := d.Compile(p)
		if err != nil {
			b.Fatal(err)
		}
		all[j] = kt.Alloc(k, rng)
		for _, buf := range all[j][1:] {
			if buf.DType == codegen.Float32 {
				for i, x := range buf.Float32s() {
					buf.Float32s()[i] = (x + 2) / 4 // uniform [0, 1) as the suite's inputs
				}
			}
		}
		if wire != nil {
			wire(j, all)
		}
		stages = append(stages, stage{r, all[j]})
		bytes += p.Bytes
	}
	run := func() {
		for _, s := range stages {
			if err := s.r.Run(s.bufs, nil); err != nil {
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
	// The machine is shared: CPU time per run, summed over threads, shows the
	// kernels' own cost when wall time includes waiting for a core.
	b.ReportMetric(float64(cpuTime()-t0)/1e6/float64(b.N), "cpu-ms/op")
}

func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func full(sh ...int) shape.Tracker { return shape.FromInts(sh...) }

func konst(v float64, sh ...int) *codegen.Node {
	ones := make([]int, len(sh))
	for i := range ones {
		ones[i] = 1
	}
	return kt.Const(v, f32, kt.Must(shape.FromInts(ones...).ExpandInts(sh)))
}

func op(o codegen.Op, src ...*codegen.Node) *codegen.Node { return kt.Op(o, f32, src...) }

func BenchmarkAdd(b *testing.B) {
	s := full(n16M)
	benchRow(b, []*codegen.Kernel{kt.Kernel(s, op(codegen.OpAdd, kt.Load(1, f32, s), kt.Load(2, f32, s)), kt.Spec(f32, n16M), kt.Spec(f32, n16M))}, nil)
}

// BenchmarkFused is ((a*2+b)*c).sum() in one kernel.
func BenchmarkFused(b *testing.B) {
	s := full(n16M)
	v := op(codegen.OpMul, op(codegen.OpAdd, op(codegen.OpMul, kt.Load(1, f32, s), konst(2, n16M)), kt.Load(2, f32, s)), kt.Load(3, f32, s))
	benchRow(b, []*codegen.Kernel{kt.Kernel(full(1), kt.Reduce(codegen.OpAdd, f32, []int{0}, v), kt.Spec(f32, n16M), kt.Spec(f32, n16M), kt.Spec(f32, n16M))}, nil)
}

func BenchmarkReduceAxis(b *testing.B) {
	benchRow(b, []*codegen.Kernel{kt.Kernel(full(4096, 1), kt.Reduce(codegen.OpAdd, f32, []int{1}, kt.Load(1, f32, full(4096, 4096))), kt.Spec(f32, n16M))}, nil)
}

func BenchmarkTranspose(b *testing.B) {
	x := kt.Must(full(4096, 4096).Permute([]int{1, 0}))
	benchRow(b, []*codegen.Kernel{kt.Kernel(full(4096, 4096), kt.Load(1, f32, x), kt.Spec(f32, n16M))}, nil)
}

// BenchmarkSoftmax is softmax over the rows of 4096x1024 as three kernels:
// the row max, the sum of exp(x - max), and exp(x - max) / sum.
func BenchmarkSoftmax(b *testing.B) {
	const rows, cols = 4096, 1024
	x := full(rows, cols)
	col := kt.Must(full(rows, 1).ExpandInts([]int{rows, cols}))
	e := func() *codegen.Node {
		return op(codegen.OpExp2, op(codegen.OpMul, op(codegen.OpSub, kt.Load(1, f32, x), kt.Load(2, f32, col)), konst(math.Log2E, rows, cols)))
	}
	mx := kt.Kernel(full(rows, 1), kt.Reduce(codegen.OpMax, f32, []int{1}, kt.Load(1, f32, x)), kt.Spec(f32, rows*cols))
	sum := kt.Kernel(full(rows, 1), kt.Reduce(codegen.OpAdd, f32, []int{1}, e()), kt.Spec(f32, rows*cols), kt.Spec(f32, rows))
	out := kt.Kernel(x, op(codegen.OpMul, e(), op(codegen.OpRecip, kt.Load(3, f32, col))), kt.Spec(f32, rows*cols), kt.Spec(f32, rows), kt.Spec(f32, rows))
	benchRow(b, []*codegen.Kernel{mx, sum, out}, func(j int, bufs [][]*devices.Buffer) {
		switch j {
		case 1:
			bufs[1][1], bufs[1][2] = bufs[0][1], bufs[0][0]
		case 2:
			bufs[2][1], bufs[2][2], bufs[2][3] = bufs[0][1], bufs[0][0], bufs[1][0]
		}
	})
}

func matmul(n int) *codegen.Kernel {
	a := kt.Must(full(n, 1, n).ExpandInts([]int{n, n, n}))
	bt := kt.Must(kt.Must(kt.Must(full(n, n).Permute([]int{1, 0})).ReshapeInts([]int{1, n, n})).ExpandInts([]int{n, n, n}))
	return kt.Kernel(full(n, n, 1), kt.Reduce(codegen.OpAdd, f32, []int{2}, op(codegen.OpMul, kt.Load(1, f32, a), kt.Load(2, f32, bt))), kt.Spec(f32, n*n), kt.Spec(f32, n*n))
}

func BenchmarkMatmul512(b *testing.B)  { benchRow(b, []*codegen.Kernel{matmul(512)}, nil) }
func BenchmarkMatmul1024(b *testing.B) { benchRow(b, []*codegen.Kernel{matmul(1024)}, nil) }

// BenchmarkExpSin is exp(a) + sin(b), with exp as exp2(a * log2(e)).
func BenchmarkExpSin(b *testing.B) {
	s := full(n16M)
	v := op(codegen.OpAdd, op(codegen.OpExp2, op(codegen.OpMul, kt.Load(1, f32, s), konst(math.Log2E, n16M))), op(codegen.OpSin, kt.Load(2, f32, s)))
	benchRow(b, []*codegen.Kernel{kt.Kernel(s, v, kt.Spec(f32, n16M), kt.Spec(f32, n16M))}, nil)
}
