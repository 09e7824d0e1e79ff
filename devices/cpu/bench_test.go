package cpu

import (
	"flag"
	"math/rand"
	"syscall"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// bench lowers k for the CPU target, compiles it and times Run with the
// output buffer reused.
func bench(b *testing.B, k *codegen.Kernel) {
	p, err := codegen.Lower(k, codegen.Options{Target: &cpuTarget})
	if err != nil {
		b.Fatal(err)
	}
	dev, _ := Open(devices.Options{Threads: *benchThreads})
	r, err := dev.Compile(p)
	if err != nil {
		b.Fatal(err)
	}
	bufs := kt.Alloc(k, rand.New(rand.NewSource(1)))
	b.SetBytes(p.Bytes)
	if err := r.Run(bufs, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	t0 := cpuTime()
	for range b.N {
		if err := r.Run(bufs, nil); err != nil {
			b.Fatal(err)
		}
	}
	// The machine is shared: CPU time per run, summed over threads, shows the
	// kernel's own cost when wall time includes waiting for a core.
	b.ReportMetric(float64(cpuTime()-t0)/float64(b.N)/1e6, "cpu-ms/op")
}

func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

const n16M = 1 << 24

var benchThreads = flag.Int("threads", 0, "workers of the benchmarks (0 means GOMAXPROCS)")

func BenchmarkAdd(b *testing.B) {
	s := shape.FromInts(4096, 4096)
	bench(b, kt.Kernel(s, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, s), kt.Load(2, f32, s)), kt.Spec(f32, n16M), kt.Spec(f32, n16M)))
}

// BenchmarkFused is ((a*2+b)*c).sum() in one kernel.
func BenchmarkFused(b *testing.B) {
	s := shape.FromInts(n16M)
	two := kt.Const(2, f32, kt.Must(shape.FromInts(1).ExpandInts([]int{n16M})))
	v := kt.Op(codegen.OpMul, f32, kt.Op(codegen.OpAdd, f32, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, s), two), kt.Load(2, f32, s)), kt.Load(3, f32, s))
	bench(b, kt.Kernel(shape.FromInts(1), kt.Reduce(codegen.OpAdd, f32, []int{0}, v), kt.Spec(f32, n16M), kt.Spec(f32, n16M), kt.Spec(f32, n16M)))
}

func BenchmarkReduceAxis1(b *testing.B) {
	s := shape.FromInts(4096, 4096)
	bench(b, kt.Kernel(shape.FromInts(4096, 1), kt.Reduce(codegen.OpAdd, f32, []int{1}, kt.Load(1, f32, s)), kt.Spec(f32, n16M)))
}

func BenchmarkReduceAxis0(b *testing.B) {
	s := shape.FromInts(4096, 4096)
	bench(b, kt.Kernel(shape.FromInts(1, 4096), kt.Reduce(codegen.OpAdd, f32, []int{0}, kt.Load(1, f32, s)), kt.Spec(f32, n16M)))
}

func BenchmarkTranspose(b *testing.B) {
	x := kt.Must(shape.FromInts(4096, 4096).Permute([]int{1, 0}))
	bench(b, kt.Kernel(shape.FromInts(4096, 4096), kt.Load(1, f32, x), kt.Spec(f32, n16M)))
}

func BenchmarkMatmul512(b *testing.B)  { benchMatmul(b, 512) }
func BenchmarkMatmul1024(b *testing.B) { benchMatmul(b, 1024) }

func benchMatmul(b *testing.B, n int) {
	a := kt.Must(shape.FromInts(n, 1, n).ExpandInts([]int{n, n, n}))
	bt := kt.Must(kt.Must(kt.Must(shape.FromInts(n, n).Permute([]int{1, 0})).ReshapeInts([]int{1, n, n})).ExpandInts([]int{n, n, n}))
	bench(b, kt.Kernel(shape.FromInts(n, n, 1), kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, bt))),
		kt.Spec(f32, n*n), kt.Spec(f32, n*n)))
}

// BenchmarkExpSin is exp(a)+sin(b), with exp as tinygrad writes it: exp2(a*log2(e)).
func BenchmarkExpSin(b *testing.B) {
	s := shape.FromInts(n16M)
	l2e := kt.Const(1.4426950408889634, f32, kt.Must(shape.FromInts(1).ExpandInts([]int{n16M})))
	e := kt.Op(codegen.OpExp2, f32, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, s), l2e))
	bench(b, kt.Kernel(s, kt.Op(codegen.OpAdd, f32, e, kt.Op(codegen.OpSin, f32, kt.Load(2, f32, s))), kt.Spec(f32, n16M), kt.Spec(f32, n16M)))
}

// BenchmarkSoftmaxLast is the last kernel of a softmax over rows of
// 4096x1024: exp2((x-max)*log2(e)) / sum.
func BenchmarkSoftmaxLast(b *testing.B) {
	s := shape.FromInts(4096, 1024)
	col := kt.Must(shape.FromInts(4096, 1).ExpandInts([]int{4096, 1024}))
	l2e := kt.Const(1.4426950408889634, f32, kt.Must(shape.FromInts(1, 1).ExpandInts([]int{4096, 1024})))
	e := kt.Op(codegen.OpExp2, f32, kt.Op(codegen.OpMul, f32, kt.Op(codegen.OpSub, f32, kt.Load(1, f32, s), kt.Load(2, f32, col)), l2e))
	bench(b, kt.Kernel(s, kt.Op(codegen.OpDiv, f32, e, kt.Load(3, f32, col)), kt.Spec(f32, 1<<22), kt.Spec(f32, 4096), kt.Spec(f32, 4096)))
}

// BenchmarkSmall is the fixed cost of one run: (tensor([1,2,3]) + 2).
func BenchmarkSmall(b *testing.B) {
	s := shape.FromInts(3)
	two := kt.Const(2, codegen.Int32, kt.Must(shape.FromInts(1).ExpandInts([]int{3})))
	bench(b, kt.Kernel(s, kt.Op(codegen.OpAdd, codegen.Int32, kt.Load(1, codegen.Int32, s), two), kt.Spec(codegen.Int32, 3)))
}

// BenchmarkMaxAxis1 is the first kernel of a softmax over rows of 4096x1024.
func BenchmarkMaxAxis1(b *testing.B) {
	s := shape.FromInts(4096, 1024)
	bench(b, kt.Kernel(shape.FromInts(4096, 1), kt.Reduce(codegen.OpMax, f32, []int{1}, kt.Load(1, f32, s)), kt.Spec(f32, 1<<22)))
}
