package cpu

import (
	"flag"
	"slices"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/internal/suite"
	"tiny/shape"
)

var benchThreads = flag.Int("threads", 0, "workers of the benchmarks (0 means GOMAXPROCS)")

// BenchmarkSuite times the rows of the tiny suite (internal/suite, as
// kernels: kerneltest.SuiteRows) on this device for its target, each row's
// kernels with their output buffers reused: go test ./devices/cpu -run
// '^$' -bench Suite/matmul1024 [-args -threads 1].
func BenchmarkSuite(b *testing.B) {
	for _, r := range kt.SuiteRows() {
		b.Run(r.Name, func(b *testing.B) { benchRow(b, r) })
	}
}

// benchRow times row r on this device, lowered for its target.
func benchRow(b *testing.B, r kt.Row) {
	dev, _ := Open(devices.Options{Threads: *benchThreads})
	kt.BenchRow(b, dev, codegen.Options{Target: &cpuTarget}, r)
}

// bench times kernel k as a row of its own.
func bench(b *testing.B, k *codegen.Kernel) { benchRow(b, kt.Row{Kernels: []*codegen.Kernel{k}}) }

const n16M = 1 << 24

func BenchmarkReduceAxis0(b *testing.B) {
	s := shape.FromInts(4096, 4096)
	bench(b, kt.Kernel(shape.FromInts(1, 4096), kt.Reduce(codegen.OpAdd, f32, []int{0}, kt.Load(1, f32, s)), kt.Spec(f32, n16M)))
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

// TestSuiteRowsNamed checks that the kernel rows the device benchmarks
// time are the suite's rows, by name and in order.
func TestSuiteRowsNamed(t *testing.T) {
	var got, want []string
	for _, r := range kt.SuiteRows() {
		got = append(got, r.Name)
	}
	for _, r := range suite.Suite {
		want = append(want, r.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("kerneltest.SuiteRows: %v, internal/suite: %v", got, want)
	}
}
