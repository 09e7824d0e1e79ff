// Package bench times the tiny suite (../shared/bench/README.md) through the
// tensor API, on every device named by -devices. The compare script beside it
// runs these benchmarks and NumPy/PyTorch's reference.py in one go and prints
// the ratios, which is how tiny's speed targets are checked.
package bench

import (
	"flag"
	"slices"
	"strings"
	"testing"
	"time"

	_ "tiny/devices/clang"
	_ "tiny/devices/cpu"
	_ "tiny/devices/opencl"
	"tiny/tensor"
)

var deviceList = flag.String("devices", "CPU", "comma-separated devices to benchmark")

// row is one workload of the suite: setup makes its realized inputs once,
// run builds the lazy expression that one timed call realizes.
type row struct {
	name string
	run  func(in []*tensor.Tensor) *tensor.Tensor
	in   func(e *tensor.Engine) []*tensor.Tensor
}

const n16M = 1 << 24

func rand(e *tensor.Engine, seed int64, shp ...int) *tensor.Tensor {
	return e.Rand(shp, seed).Realize()
}

func vec3(e *tensor.Engine) []*tensor.Tensor {
	return []*tensor.Tensor{rand(e, 1, n16M), rand(e, 2, n16M), rand(e, 3, n16M)}
}

func square(n int) func(e *tensor.Engine) []*tensor.Tensor {
	return func(e *tensor.Engine) []*tensor.Tensor { return []*tensor.Tensor{rand(e, 4, n, n), rand(e, 5, n, n)} }
}

var rows = []row{
	{"add", func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Add(t[1]) }, vec3},
	{"fused", func(t []*tensor.Tensor) *tensor.Tensor {
		return t[0].Mul(2).Add(t[1]).Mul(t[2]).Sum(nil, false)
	}, vec3},
	{"reduce_axis", func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Sum([]int{1}, false) }, square(4096)},
	{"transpose", func(t []*tensor.Tensor) *tensor.Tensor { return t[0].T().Contiguous() }, square(4096)},
	{"softmax", func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Softmax(1) }, func(e *tensor.Engine) []*tensor.Tensor {
		return []*tensor.Tensor{rand(e, 6, 4096, 1024)}
	}},
	{"matmul512", func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Matmul(t[1]) }, square(512)},
	{"matmul1024", func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Matmul(t[1]) }, square(1024)},
	{"exp_sin", func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Exp().Add(t[1].Sin()) }, vec3},
}

// BenchmarkSuite reports ns/op per row and device. Before timing, each row
// runs twice untimed (compiles kernels, warms the buffer pool), as
// reference.py does for NumPy. The timed loop is a plain loop, as a user
// writes it: a dead output returns to the pool only when the garbage
// collector runs its cleanup, and whatever that costs (a fresh buffer, its
// page faults, the collection itself) is inside the timer.
func BenchmarkSuite(b *testing.B) {
	for _, dev := range strings.Split(*deviceList, ",") {
		e, err := tensor.NewEngine(tensor.Options{Device: dev})
		if err != nil {
			b.Fatalf("device %s: %v", dev, err)
		}
		for _, r := range rows {
			b.Run(dev+"/"+r.name, func(b *testing.B) {
				in := r.in(e)
				for range 2 {
					r.run(in).Realize()
				}
				e.Synchronize()
				times := make([]float64, 0, b.N)
				b.ResetTimer()
				for range b.N {
					start := time.Now()
					r.run(in).Realize()
					e.Synchronize() // GPU: Realize only queues the kernels
					times = append(times, time.Since(start).Seconds()*1e3)
				}
				slices.Sort(times)
				b.ReportMetric(times[len(times)/2], "ms-median")
				b.ReportMetric(times[0], "ms-min")
				b.ReportMetric(times[len(times)-1], "ms-max")
			})
		}
	}
}
