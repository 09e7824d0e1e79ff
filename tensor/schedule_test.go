package tensor

import (
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// testEngine returns an engine with no device, enough to build graphs and
// schedules.
// testEngine returns an engine for schedule tests; it runs what must run
// (a random draw is a kernel) on the reference evaluator.
func testEngine() *Engine { return &Engine{runners: map[string]*compiled{}, interp: interpKernel} }

func kernels(t *testing.T, x *Tensor) int {
	t.Helper()
	ks := x.Schedule()
	if testing.Verbose() {
		for _, k := range ks {
			t.Logf("%s\n%s", k.Name, k)
		}
	}
	return len(ks)
}

func TestScheduleKernelCounts(t *testing.T) {
	e := testEngine()
	a := e.Rand([]int{16}, 1)
	b := e.Rand([]int{16}, 2)
	c := e.Rand([]int{16}, 3)
	x := e.Rand([]int{8, 4}, 4)
	m := e.Rand([]int{4, 5}, 5)
	s := e.Rand([]int{6, 10}, 6)
	cases := []struct {
		name string
		t    *Tensor
		max  int
	}{
		{"a+b", a.Add(b), 1},
		{"((a*2+b)*c).sum()", a.Mul(2).Add(b).Mul(c).Sum(nil, false), 1},
		{"x.sum(axis=1)", x.Sum([]int{1}, false), 1},
		{"x@m", x.Matmul(m), 1},
		{"x.T.contiguous()", x.T().Contiguous(), 1},
		{"softmax rows", s.Softmax(-1), 3},
		{"log_softmax rows", s.LogSoftmax(-1), 3},
		{"sum then add", x.Sum([]int{1}, false).Add(1).Mul(2), 1},
		{"mean", x.Mean([]int{0}, false), 1},
		{"const", e.Full([]int{3, 3}, 2, Float32).Add(1).Contiguous(), 1},
		{"pad of buffer", x.Pad([][2]int{{1, 1}, {0, 2}}, -1), 1},
		{"movement chain", x.Reshape(4, 8).Permute(1, 0).Flip(0).Shrink([][2]int{{1, 5}}).Mul(3), 1},
		{"a+b then sum", a.Add(b).Sum(nil, false), 1},
	}
	for _, c := range cases {
		if n := kernels(t, c.t); n > c.max || n == 0 {
			t.Errorf("%s: %d kernels, want %d", c.name, n, c.max)
		}
	}
	// Exactly 1 for the figures the issue names.
	for _, c := range cases[:5] {
		if n := kernels(t, c.t); n != 1 {
			t.Errorf("%s: %d kernels, want exactly 1", c.name, n)
		}
	}
}

func TestScheduleAST(t *testing.T) {
	e := testEngine()
	a := e.FromData([]int{1, 2, 3})
	ks := a.Add(2).Schedule()
	if len(ks) != 1 {
		t.Fatalf("got %d kernels", len(ks))
	}
	got := ks[0].String()
	for _, want := range []string{"STORE", "ADD", "LOAD MemBuffer(idx=1, dtype=int32", "CONST ConstBuffer(val=2, dtype=int32", "strides=(0,)"} {
		if !strings.Contains(got, want) {
			t.Errorf("AST lacks %q:\n%s", want, got)
		}
	}
	if ks[0].Name != "E_3" {
		t.Errorf("name %q, want E_3", ks[0].Name)
	}
}

func TestScheduleReduceFusesConsumer(t *testing.T) {
	e := testEngine()
	x := e.Rand([]int{4, 8}, 1)
	ks := x.Mul(2).Sum([]int{1}, true).Sqrt().Schedule()
	if len(ks) != 1 {
		t.Fatalf("got %d kernels, want 1", len(ks))
	}
	s := ks[0].String()
	if !strings.Contains(s, "SQRT") || !strings.Contains(s, "REDUCE_AXIS") {
		t.Errorf("kernel should hold the reduce and its consumer:\n%s", s)
	}
	// Two reduces of one input cannot share a kernel.
	if n := len(x.Sum([]int{1}, true).Add(x.Max([]int{1}, true)).Schedule()); n != 2 {
		t.Errorf("sum+max: %d kernels, want 2", n)
	}
}

func TestSchedulePadOfComputed(t *testing.T) {
	e := astEngine()
	a := e.FromData([]float64{0, 1, 2})
	b := e.FromData([]int{3, 4})
	// exp turns the padding's zeros into ones unless the pad is applied
	// after it.
	p := a.Exp().Pad([][2]int{{1, 1}})
	if n := len(p.Schedule()); n != 1 {
		t.Errorf("pad of exp: %d kernels, want 1", n)
	}
	got := p.Floats()
	if got[0] != 0 || got[4] != 0 || math.Abs(got[2]-math.E) > 1e-6 {
		t.Errorf("pad of exp: %v", got)
	}
	c := a.Cat(0, b, a.Exp())
	if n := len(c.Schedule()); n != 1 {
		t.Errorf("cat of computed: %d kernels, want 1", n)
	}
	if got := c.Floats(); got[3] != 3 || got[4] != 4 || got[5] != 1 {
		t.Errorf("cat: %v", got)
	}
	// A padded reduce is realized first.
	if n := len(a.Sum(nil, true).Pad([][2]int{{1, 0}}).Add(1).Schedule()); n != 2 {
		t.Errorf("pad of sum: %d kernels, want 2", n)
	}
}

func TestRealizedKeepsBuffer(t *testing.T) {
	e := astEngine()
	a := e.FromData([]float64{1, 2, 3})
	s := a.Mul(2).Add(1)
	s.Realize()
	if n := len(s.Schedule()); n != 0 {
		t.Errorf("realized tensor schedules %d kernels", n)
	}
	if n := len(s.Reshape(3, 1).Schedule()); n != 0 {
		t.Errorf("view of realized tensor schedules %d kernels", n)
	}
	if n := len(s.Add(1).Schedule()); n != 1 {
		t.Errorf("consumer of realized tensor: %d kernels", n)
	}
	before := e.Stats().Kernels
	_ = s.Floats()
	if e.Stats().Kernels != before {
		t.Errorf("reading a realized tensor ran kernels")
	}
}

func TestBuffersReturnToPool(t *testing.T) {
	e := cpuEngine(t)
	keep := e.Arange(0, 1000, 1, Float32).Add(1).Realize()
	for i := 0; i < 30; i++ {
		x := e.Rand([]int{1000}, int64(i))
		y := x.Mul(2).Realize()
		runtime.GC()
		xs, ys := x.Floats(), y.Floats()
		for k := range xs {
			if ys[k] != 2*xs[k] {
				t.Fatalf("iteration %d: element %d: %v, want %v", i, k, ys[k], 2*xs[k])
			}
		}
	}
	for k, v := range keep.Floats() {
		if v != float64(k+1) {
			t.Fatalf("kept tensor changed at %d: %v", k, v)
		}
	}
}

func TestDebugOutput(t *testing.T) {
	var log strings.Builder
	e, err := NewEngine(Options{Device: "CPU", Debug: 3, Log: &log})
	if err != nil {
		t.Skip("no CPU device")
	}
	a := e.FromData([]int{1, 2, 3})
	if got := a.Add(2).Ints(); got[2] != 5 {
		t.Fatalf("got %v", got)
	}
	out := log.String()
	for _, want := range []string{"kernel 0 E_3", "STORE MemBuffer", "*** CPU", "E_3", "GFLOPS"} {
		if !strings.Contains(out, want) {
			t.Errorf("DEBUG=3 output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(a.Add(2).Explain(), "ADD") {
		t.Errorf("Explain lacks the AST")
	}
}

func TestScheduleSharedNodes(t *testing.T) {
	e := cpuEngine(t)
	x := e.FromData([]float64{1, 2})
	for i := 0; i < 40; i++ {
		x = x.Add(x)
	}
	// The AST is a DAG of 40 adds; the cache key must not print it as a
	// tree of 2**40 leaves.
	ks := x.Schedule()
	if len(ks) != 1 || len(cacheKey(ks[0])) > 10000 || len(kernelText(ks[0])) > 10000 {
		t.Fatalf("%d kernels", len(ks))
	}
	// Lowering memoizes shared nodes, so realizing the same depth is fast.
	y := e.FromData([]float64{1, 2})
	for i := 0; i < 40; i++ {
		y = y.Add(y)
	}
	if got := y.Floats(); got[1] != 2*math.Pow(2, 40) {
		t.Errorf("got %v", got)
	}
}

// TestScheduleArgmaxNests checks that argmax over rows is one kernel, its
// row max a reduce inside the search for its position, and that the
// forms kept as two kernels (a reduce over an outer axis, one output)
// still are; every form gives torch's first index of the max.
func TestScheduleArgmaxNests(t *testing.T) {
	e := astEngine()
	x := e.FromData([][]float64{{1, 3, 3, -2}, {math.NaN(), 0, math.NaN(), 5}, {-1, -1, -1, -1}})
	cases := []struct {
		name    string
		t       *Tensor
		kernels int
		want    []float64
	}{
		{"argmax rows", x.Argmax([]int{1}, false), 1, []float64{1, 0, 0}},
		{"argmin rows", x.Argmin([]int{1}, false), 1, []float64{3, 0, 0}},
		{"argmax columns", x.Argmax([]int{0}, false), 2, []float64{1, 0, 1, 1}},
		{"argmax of all", x.Argmax(nil, false), 2, []float64{4}},
	}
	for _, c := range cases {
		ks := c.t.Schedule()
		if len(ks) != c.kernels {
			t.Errorf("%s: %d kernels, want %d", c.name, len(ks), c.kernels)
		}
		if c.kernels == 1 && strings.Count(ks[0].String(), "REDUCE_AXIS") != 2 {
			t.Errorf("%s: want the max inside the position's reduce:\n%s", c.name, ks[0])
		}
		if got := c.t.Floats(); !slices.Equal(got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
	// A max read elsewhere too stays a kernel of its own.
	m := x.Max([]int{1}, true)
	both := x.Eq(m).Cast(Int32).Max([]int{1}, true).Add(m.Cast(Int32))
	if n := len(both.Schedule()); n != 2 {
		t.Errorf("a max read twice: %d kernels, want 2", n)
	}
}

// TestScheduleReducePermutedStore checks that a reduce read through views
// that permute its elements (a transpose, a relayout after a convolution)
// fuses with its consumer, the kernel storing through the inverse
// permutation, and that a reduce read through two different permutations
// is realized instead; every value against a brute-force sum.
func TestScheduleReducePermutedStore(t *testing.T) {
	e := cpuEngine(t)
	const p, q, r = 3, 5, 4
	a := e.Rand([]int{p, q, r}, 1)
	x := a.Floats()
	sum := func(i, j int) float64 { // a.sum(axis=2)[i, j], folded as the kernel folds it
		s := float32(0)
		for k := range r {
			s += float32(x[(i*q+j)*r+k])
		}
		return float64(s)
	}
	s := a.Sum([]int{2}, false) // (p, q)
	b := e.Rand([]int{q, q, r}, 2)
	y := b.Floats()
	sq := b.Sum([]int{2}, false)
	cases := []struct {
		name    string
		t       *Tensor
		kernels int
		want    func(idx []int) float64
	}{
		{"sum.T", s.T().Contiguous(), 1, func(i []int) float64 { return sum(i[1], i[0]) }},
		{"relu(sum.T + 1) as (q, 1, p)", s.T().Add(1).Relu().Reshape(q, 1, p).Contiguous(), 1,
			func(i []int) float64 { return math.Max(0, float64(float32(sum(i[2], i[0]))+1)) }},
		{"keepdim permuted", a.Sum([]int{1}, true).Permute(2, 1, 0).Mul(2).Contiguous(), 1, func(i []int) float64 {
			s := float32(0)
			for j := range q {
				s += float32(x[(i[2]*q+j)*r+i[0]])
			}
			return float64(s * 2)
		}},
		{"sum + sum.T", sq.Add(sq.T()), 2, func(i []int) float64 {
			sum := func(i, j int) float32 {
				s := float32(0)
				for k := range r {
					s += float32(y[(i*q+j)*r+k])
				}
				return s
			}
			return float64(sum(i[0], i[1]) + sum(i[1], i[0]))
		}},
	}
	for _, c := range cases {
		if n := kernels(t, c.t); n != c.kernels {
			t.Errorf("%s: %d kernels, want %d", c.name, n, c.kernels)
		}
		got := c.t.Floats()
		shp := c.t.Shape()
		idx := make([]int, len(shp))
		for k, g := range got {
			rem := k
			for d := len(shp) - 1; d >= 0; d-- {
				idx[d] = rem % shp[d]
				rem /= shp[d]
			}
			if w := c.want(idx); math.Abs(g-w) > 1e-5*(1+math.Abs(w)) {
				t.Fatalf("%s: element %v is %v, want %v", c.name, idx, g, w)
			}
		}
	}
}

// TestScheduleManyViewPaths schedules a graph with 2^40 paths from its
// output down to its input, each level adding the level below to a shifted
// view of it: fuseReduces follows the views of each path, and must visit a
// node once per state (its layout kept, permuted, or neither), not once per
// path. The values are the brute-force binomial sums.
func TestScheduleManyViewPaths(t *testing.T) {
	e := cpuEngine(t)
	const n, levels = 64, 40
	y := e.Arange(0, n, 1, Float64).Mul(0).Add(1) // computed, not a buffer
	want := make([]float64, n)
	for i := range want {
		want[i] = 1
	}
	for range levels {
		y = y.Add(y.Shrink([][2]int{{0, n - 1}}).Pad([][2]int{{1, 0}}))
		for j := n - 1; j > 0; j-- {
			want[j] += want[j-1]
		}
	}
	if k := len(y.Schedule()); k < 1 { // not kernels(): -v would print 2^40 paths
		t.Fatalf("%d kernels", k)
	}
	for j, g := range y.Floats() {
		if g != want[j] {
			t.Fatalf("element %d is %v, want %v", j, g, want[j])
		}
	}
}
