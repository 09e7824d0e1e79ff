package tensor

import (
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"tiny/codegen"
)

// A reduce with no output loop outside it runs split across workers: each
// worker folds part of the reduce, and a finishing function combines them
// and runs what follows. What follows may read other buffers; the worker
// must not run it (on CLANG it did, reading a value only the finishing
// function loads, and the kernel did not compile).
func TestSplitReduceThenLoad(t *testing.T) {
	cases := map[string]struct {
		f    func(e *Engine) *Tensor
		want float64 // the sum of the result
	}{
		"sum over rows times a tensor": {func(e *Engine) *Tensor {
			return e.Ones(Float32, 16, 16).Contiguous().Sum([]int{0}, false).Mul(e.FromFloats([]float64{2}, []int{1}, Float32))
		}, 16 * 32},
		"max over rows plus a tensor": {func(e *Engine) *Tensor {
			return e.Ones(Float32, 16, 16).Contiguous().Max([]int{0}, false).Add(e.FromFloats([]float64{2}, []int{1}, Float32))
		}, 16 * 3},
		"full sum times a tensor": {func(e *Engine) *Tensor {
			return e.Ones(Float32, 70000).Contiguous().Sum(nil, true).Mul(e.FromFloats([]float64{2}, []int{1}, Float32))
		}, 140000},
		"matrix-vector backward": {func(e *Engine) *Tensor {
			a, v := e.Ones(Float32, 16, 16).Contiguous(), e.Ones(Float32, 16).Contiguous()
			g := a.Matmul(v).Sum(nil, false).Gradient(v)[0]
			return g
		}, 16 * 16},
	}
	for ename, e := range engines(t) {
		for name, c := range cases {
			var got float64
			err := Catch(func() {
				for _, v := range c.f(e).Floats() { // read whole: a sum on top would fuse differently
					got += v
				}
			})
			if err != nil || got != c.want {
				t.Errorf("%s: %s: got %v (%v), want %v", ename, name, got, err, c.want)
			}
		}
	}
}

// deviceEngines returns the engines of the devices that run kernels at
// speed (not the AST evaluator or the reference device, too slow for sums
// of 1e8).
func deviceEngines(t *testing.T) map[string]*Engine {
	m := engines(t)
	delete(m, "ast")
	delete(m, "ref")
	if t1, err := NewEngine(Options{Device: "CPU", Threads: 1}); err == nil {
		m["cpu, one thread"] = t1
	}
	return m
}

// ulps returns how many float32 ulps of want got is away from it.
func ulps(got, want float64) float64 {
	w := float32(want)
	return math.Abs(got-want) / float64(math.Nextafter32(w, float32(math.Inf(1)))-w)
}

// Large float32 reductions are as accurate as NumPy's pairwise sums
// (codegen/cascade.go), on every device, and the same bit for bit on every
// run and with any number of workers.
func TestLargeReductionsAccurate(t *testing.T) {
	tenth := float64(float32(0.1))
	cases := []struct {
		name     string
		f        func(e *Engine) *Tensor
		want     float64
		maxUlps  float64
		withLoad bool
	}{
		{"ones(1e8).sum()", func(e *Engine) *Tensor { return e.Ones(Float32, 100_000_000).Sum(nil, false) }, 1e8, 0, false},
		{"full(1e7, 0.1).mean()", func(e *Engine) *Tensor { return e.Full([]int{10_000_000}, 0.1, Float32).Mean(nil, false) }, tenth, 4, false},
		{"full(1e7, 0.1) in a buffer, mean", func(e *Engine) *Tensor {
			return e.Full([]int{10_000_000}, 0.1, Float32).Contiguous().Mean(nil, false)
		}, tenth, 4, true},
		{"full(1e7+19, 0.1).mean(), a prime length", func(e *Engine) *Tensor {
			return e.Full([]int{10_000_019}, 0.1, Float32).Contiguous().Mean(nil, false)
		}, tenth, 4, true},
		{"rows of 1e6, mean", func(e *Engine) *Tensor {
			return e.Full([]int{3, 1_000_000}, 0.1, Float32).Contiguous().Mean([]int{1}, false).Max(nil, false)
		}, tenth, 4, true},
		{"columns of 1e6, mean", func(e *Engine) *Tensor {
			return e.Full([]int{1_000_000, 3}, 0.1, Float32).Contiguous().Mean([]int{0}, false).Max(nil, false)
		}, tenth, 4, true},
		{"matmul, inner 1e6", func(e *Engine) *Tensor {
			a := e.Full([]int{2, 1_000_000}, 0.1, Float32).Contiguous()
			b := e.Full([]int{1_000_000, 2}, 0.1, Float32).Contiguous()
			return a.Matmul(b).Max(nil, false)
		}, float64(float32(tenth*tenth)) * 1e6, 8, true},
		{"softmax over 1e6, sum", func(e *Engine) *Tensor {
			return e.Full([]int{1_000_000}, 0.5, Float32).Contiguous().Softmax(0).Sum(nil, false)
		}, 1, 4, true},
		{"float16 mean of 1e6", func(e *Engine) *Tensor {
			return e.Full([]int{1_000_000}, 0.1, Float16).Contiguous().Mean(nil, false).Cast(Float32)
		}, 0.0999755859375, 0, true},
	}
	for ename, e := range deviceEngines(t) {
		for _, c := range cases {
			var got, again float64
			err := Catch(func() {
				got = c.f(e).Item()
				again = c.f(e).Item()
			})
			if err != nil {
				t.Errorf("%s: %s: %v", ename, c.name, err)
				continue
			}
			if u := ulps(got, c.want); u > c.maxUlps {
				t.Errorf("%s: %s = %v, want %v within %v ulps (%.1f)", ename, c.name, got, c.want, c.maxUlps, u)
			}
			if math.Float64bits(got) != math.Float64bits(again) {
				t.Errorf("%s: %s: %v, then %v", ename, c.name, got, again)
			}
		}
	}
}

// A sum of random values is the same bit for bit on every run, on every
// device, with one worker or several, and close to the float64 sum.
func TestSumRepeatable(t *testing.T) {
	for ename, e := range deviceEngines(t) {
		var first float64
		x := e.Rand([]int{4_000_037}, 7).Sub(0.25).Realize()
		var ref float64
		for _, v := range x.Floats() {
			ref += v
		}
		for i := range 4 {
			got := x.Sum(nil, false).Item()
			if i == 0 && math.Abs(got-ref) > 4e-7*math.Abs(ref) {
				t.Errorf("%s: sum %v, float64 sum %v", ename, got, ref)
			}
			if first == 0 {
				first = got
			}
			if got != first {
				t.Errorf("%s: run %d: sum %v, first %v", ename, i, got, first)
			}
		}
	}
}

// NaN and infinities as torch: max, min, maximum, minimum and clip
// propagate NaN; argmax and argmin point at the first NaN, and an index is
// always inside its axis.
func TestNaNSemantics(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for ename, e := range engines(t) {
		x := e.FromFloats([]float64{1, nan, 3, nan}, []int{4}, Float32)
		rows := e.FromFloats([]float64{1, nan, 2, 0, -inf, -inf, inf, nan}, []int{4, 2}, Float32)
		ints := map[string]struct {
			got  []int64
			want []int64
		}{
			"argmax":         {x.Argmax(nil, false).Ints(), []int64{1}},
			"argmin":         {x.Argmin(nil, false).Ints(), []int64{1}},
			"argmax(axis=1)": {rows.Argmax([]int{1}, false).Ints(), []int64{1, 0, 0, 1}},
			"argmin(axis=1)": {rows.Argmin([]int{1}, false).Ints(), []int64{1, 1, 0, 1}},
			"argmax(axis=0)": {rows.Argmax([]int{0}, false).Ints(), []int64{3, 0}},
		}
		for name, c := range ints {
			if !slices.Equal(c.got, c.want) {
				t.Errorf("%s: %s = %v, want %v (torch)", ename, name, c.got, c.want)
			}
		}
		floats := map[string]*Tensor{
			"max": x.Max(nil, false), "min": x.Min(nil, false),
			"maximum": x.Maximum(e.Scalar(2, Float32)).Index(Int(1)), "minimum": x.Minimum(e.Scalar(2, Float32)).Index(Int(1)),
			"clip": x.Clip(0, 2).Index(Int(1)),
		}
		for name, v := range floats {
			if got := v.Item(); !math.IsNaN(got) {
				t.Errorf("%s: %s = %v, want nan", ename, name, got)
			}
		}
	}
}

// CLANG compiles with floating-point contraction off: a multiply and an add
// round twice, as on the CPU device and the reference device, so the three
// agree bit for bit.
func TestMultiplyAddAsCPU(t *testing.T) {
	es := engines(t)
	clang, ok := es["clang"]
	if !ok {
		t.Skip("no CLANG device")
	}
	f := func(e *Engine) []float64 {
		a, b, c := e.Rand([]int{4096}, 1), e.Rand([]int{4096}, 2), e.Rand([]int{4096}, 3)
		return a.Mul(b).Sub(c.Mul(0.75)).Add(a.Mul(c)).Floats()
	}
	want, got, ref := f(es["cpu"]), f(clang), f(es["ref"])
	for i := range want {
		if got[i] != want[i] || ref[i] != want[i] {
			t.Fatalf("element %d: CLANG %v, CPU %v, REF %v", i, got[i], want[i], ref[i])
		}
	}
}

// rand, randn, arange and linspace write their values straight into the
// buffer: the host allocates little more than the buffer's 4 bytes an
// element (it was 12 to 27). TotalAlloc counts every goroutine's
// allocations, and in a full run of the package an earlier test's cleanups
// can allocate in the same moment (6.3 bytes an element once under load),
// so each creator is measured three times, every result kept alive (each
// call takes a fresh buffer), and the least counts.
func TestCreatorsAllocateLittle(t *testing.T) {
	e := cpuEngine(t)
	const n = 1 << 22
	for name, f := range map[string]func() *Tensor{
		"rand":     func() *Tensor { return e.Rand([]int{n}, 1) },
		"randn":    func() *Tensor { return e.Randn([]int{n}, 1) },
		"arange":   func() *Tensor { return e.Arange(0, n, 1) },
		"linspace": func() *Tensor { return e.Linspace(0, 1, n) },
	} {
		least := math.Inf(1)
		var keep []*Tensor
		for range 3 {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			x := f()
			runtime.ReadMemStats(&after)
			least = min(least, float64(after.TotalAlloc-before.TotalAlloc)/n)
			keep = append(keep, x)
		}
		if least > 6 {
			t.Errorf("%s: %.1f bytes allocated per element", name, least)
		}
		runtime.KeepAlive(keep)
	}
}

// An engine with a memory bound refuses a buffer that would pass it, with
// an error, and counts dead tensors' buffers out once collected.
func TestMemoryBound(t *testing.T) {
	e, err := NewEngine(Options{Device: "CPU", MaxBytes: 64 << 20})
	if err != nil {
		t.Skip(err)
	}
	for i := range 20 { // 16 MiB a round, 320 MiB in all
		if err := Catch(func() { e.Rand([]int{4 << 20}, int64(i)).Add(1).Realize() }); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
	}
	err = Catch(func() { e.Rand([]int{32 << 20}).Realize() })
	if err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("a 128 MiB buffer under a 64 MiB bound: %v", err)
	}
	keep := e.Rand([]int{8 << 20}, 1).Realize() // 32 MiB held
	err = Catch(func() { e.Rand([]int{8 << 20}, 2).Add(keep).Realize() })
	if err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("96 MiB held under a 64 MiB bound: %v", err)
	}
}

// A deep graph (a loop without a realize) realizes without exhausting the
// stack: the graph walks keep their own stacks, and a kernel fuses at most
// maxFusedDepth ops deep. The stack is bounded to 16 MiB here, so that
// 200,000 ops stand for the million that overflowed Go's 1 GB stack.
func TestDeepGraph(t *testing.T) {
	e := cpuEngine(t)
	defer debug.SetMaxStack(debug.SetMaxStack(16 << 20))
	x := e.FromFloats([]float64{1}, []int{1}, Float32)
	want := float32(1)
	for range 100_000 {
		x = x.Mul(1.0000001).Add(0.5)
		want = want*float32(1.0000001) + 0.5
	}
	if got := x.Item(); float32(got) != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

// A long chain of elementwise ops is cut into kernels of bounded depth.
func TestFusedDepthBound(t *testing.T) {
	e := cpuEngine(t)
	x := e.FromFloats([]float64{1, 2}, []int{2}, Float32)
	for range 3000 {
		x = x.Mul(1.0000001).Add(0.5)
	}
	items := schedule([]*lazy{x.n})
	if len(items) < 6000/maxFusedDepth {
		t.Errorf("%d kernels for 6000 fused ops", len(items))
	}
	for _, it := range items {
		if d := astDepth(it.kernel.AST); d > maxFusedDepth+4 {
			t.Fatalf("kernel %s is %d deep", it.kernel.Name, d)
		}
	}
}

func astDepth(n *codegen.Node) int {
	d := 0
	for _, s := range n.Src {
		d = max(d, astDepth(s))
	}
	return d + 1
}
