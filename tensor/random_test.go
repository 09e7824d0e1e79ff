package tensor

import (
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// rand is a kernel: a seeded hash of each position. Its draws must be
// uniform and independent enough for tests and training, repeatable for a
// seed, equal on every device and at every size prefix.
func TestRandUniform(t *testing.T) {
	const n = 1 << 20
	var first []float64
	for name, e := range deviceEngines(t) {
		xs := e.Rand([]int{n}, 7).Floats()
		if first == nil {
			first = xs
		} else if !slices.Equal(xs, first) {
			t.Errorf("%s: values differ from another device's", name)
		}
	}
	var sum, sq, lag float64
	bins := make([]float64, 256)
	for i, v := range first {
		if !(v >= 0 && v < 1) || float64(float32(v)) != v {
			t.Fatalf("value %d = %v: not a float32 in [0, 1)", i, v)
		}
		sum += v
		sq += (v - 0.5) * (v - 0.5)
		if i > 0 {
			lag += (v - 0.5) * (first[i-1] - 0.5)
		}
		bins[int(v*256)]++
	}
	mean, variance := sum/n, sq/n
	// The mean's standard error is 0.29/1024; the bounds are about 7 of them.
	if math.Abs(mean-0.5) > 0.002 || math.Abs(variance-1.0/12) > 0.001 {
		t.Errorf("mean %v, variance %v; want 0.5 and 1/12", mean, variance)
	}
	if r := lag / n / (1.0 / 12); math.Abs(r) > 0.006 {
		t.Errorf("lag-1 correlation %v", r)
	}
	chi := 0.0
	for _, c := range bins {
		chi += (c - n/256) * (c - n/256) / (n / 256)
	}
	if chi > 360 { // 255 degrees of freedom: mean 255, sd 22.6
		t.Errorf("chi-square over 256 bins %v", chi)
	}
	e := cpuEngine(t)
	if !slices.Equal(e.Rand([]int{100}, 7).Floats(), first[:100]) {
		t.Errorf("rand(100) is not a prefix of rand(1 << 20) for one seed")
	}
	if slices.Equal(e.Rand([]int{100}, 8).Floats(), first[:100]) {
		t.Errorf("seeds 7 and 8 give the same values")
	}
	a, b := e.Rand([]int{2, 3}).Floats(), e.Rand([]int{2, 3}).Floats()
	if slices.Equal(a, b) {
		t.Errorf("two unseeded draws are equal: %v", a)
	}
}

func TestRandnNormal(t *testing.T) {
	const n = 1 << 20
	e := cpuEngine(t)
	xs := e.Randn([]int{n}, 3).Floats()
	var sum, sq, quad, within float64
	for _, v := range xs {
		sum += v
		sq += v * v
		quad += v * v * v * v
		if math.Abs(v) < 1 {
			within++
		}
	}
	mean, std := sum/n, math.Sqrt(sq/n)
	if math.Abs(mean) > 0.006 || math.Abs(std-1) > 0.005 || math.Abs(quad/n-3) > 0.05 ||
		math.Abs(within/n-0.6827) > 0.004 {
		t.Errorf("mean %v, std %v, fourth moment %v, within one sd %v; want 0, 1, 3, 0.6827", mean, std, quad/n, within/n)
	}
	if !slices.Equal(e.Randn([]int{10}, 3).Floats(), xs[:10]) {
		t.Errorf("randn is not repeatable for a seed")
	}
}

// arange past the host table is a kernel over positions: a reduce over it
// holds almost nothing, and its values are the host formula's.
// TestSmallArangeAllocatesLittle checks that a short arange (argmax's
// positions, a one-hot's classes, made on every call) costs the host about
// its own size: a chunk of 65536 float64s (512 KiB) a call made a 4x1024
// argmax take 305 us, ten times its 33 us since.
func TestSmallArangeAllocatesLittle(t *testing.T) {
	e := cpuEngine(t)
	e.Arange(0, 1024, 1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const calls = 20
	for range calls {
		e.Arange(0, 1024, 1)
	}
	runtime.ReadMemStats(&after)
	if got := (after.TotalAlloc - before.TotalAlloc) / calls; got > 64<<10 {
		t.Errorf("arange(1024) allocated %d bytes a call, want at most 64 KiB", got)
	}
}

func TestArangeIsAKernel(t *testing.T) {
	e, err := NewEngine(Options{Device: "CPU", MaxBytes: 1 << 20})
	if err != nil {
		t.Skip(err)
	}
	const n = 1 << 26
	if got := e.Arange(0, n, 1).Max(nil, false).Value(); got != int64(n-1) {
		t.Errorf("arange(2**26).max() = %v", got)
	}
	if got := e.Arange(0, n, 1, Int64).Sum(nil, false).Value(); got != int64(n)*(n-1)/2 {
		t.Errorf("arange(2**26, int64).sum() = %v", got)
	}
	// A draw is realized where it is made: it is a buffer, counted.
	err = Catch(func() { e.Rand([]int{1 << 24}, 1) })
	if err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("rand(2**24) under a 1 MiB bound: %v", err)
	}
	err = Catch(func() { e.Arange(0, n, 1).Contiguous().Realize() })
	if err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("arange(2**26) realized under a 1 MiB bound: %v", err)
	}
	c := cpuEngine(t)
	for _, r := range [][3]float64{{0.5, 100000, 0.25}, {-3, 200000, 3}, {1e6, -1e6, -7.5}} {
		x := c.Arange(r[0], r[1], r[2])
		got := x.Floats()
		for i, v := range got {
			if want := float64(float32(r[0] + float64(i)*r[2])); v != want {
				t.Fatalf("arange%v[%d] = %v, want %v", r, i, v, want)
			}
		}
		if len(got) != int(math.Ceil((r[1]-r[0])/r[2])) {
			t.Errorf("arange%v has %d values", r, len(got))
		}
	}
	if d := c.Arange(0, 3<<30, 1).DType(); d != Int64 {
		t.Errorf("arange(3 << 30) is %s: its values pass int32", d)
	}
	if got := c.Arange(5, 5+3*100000, 3).Ints(); got[0] != 5 || got[99999] != 5+3*99999 {
		t.Errorf("int arange: %v ... %v", got[0], got[99999])
	}
}
