// Package bench times the rows of tiny/internal/suite (the tiny suite of
// ../shared/bench/README.md, and the wider table of every op family) through
// the tensor API, on every device named by -devices. The compare and
// wide_compare scripts beside it run these benchmarks and NumPy's timings of
// the same rows in one go and print the ratios, which is how tiny's speed
// targets are checked. TestRowsCorrect checks every row at full size against
// a float64 reference.
package bench

import (
	"flag"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "tiny/devices/clang"
	_ "tiny/devices/cpu"
	_ "tiny/devices/opencl"
	"tiny/internal/suite"
	"tiny/tensor"
)

var deviceList = flag.String("devices", "CPU", "comma-separated devices to benchmark")

// warm extends each row's warm-up: after its two untimed calls, it is
// called untimed until warm has passed since the first (bench/wide.py's
// --warm does the same on the NumPy side). A loop realizing large results
// reaches its steady state only once the buffer pool holds the rounds a
// collection takes to bring dead outputs back: until then a round may
// find the pool empty and fault in a fresh buffer (embedding: 2-9 ms
// against a 0.3 ms call, in 3 of the first 7 timed calls).
var warm = flag.Duration("warm", 0, "call each row untimed for at least this long before timing it (after 2 calls)")

// BenchmarkSuite reports, per row of the tiny suite and device, the median,
// min and max wall time of one call (ms-median, ms-min, ms-max) and the
// median time inside the kernels alone (kernel-ms).
func BenchmarkSuite(b *testing.B) { benchRows(b, suite.Suite) }

// BenchmarkWide is BenchmarkSuite over the wider table (bench/wide_compare).
func BenchmarkWide(b *testing.B) { benchRows(b, suite.Wide) }

// benchRows times rows. Before timing, each row runs twice untimed
// (compiles kernels, warms the buffer pool), as the NumPy scripts do, and
// then on until -warm has passed. The
// timed loop is a plain loop, as a user writes it: a dead output returns to
// the pool only when the garbage collector runs its cleanup, and whatever
// that costs (a fresh buffer, its page faults, the collection itself) is
// inside ms-median. kernel-ms is the part of it the kernels ran (the
// engine's Stats.Time): the difference is scheduling, allocation and
// collection. cpu-ms is the process's CPU time per call, summed over its
// threads: on a loaded machine it shows the work when the wall time
// includes waiting for a core.
func benchRows(b *testing.B, rows []suite.Row) {
	for _, dev := range strings.Split(*deviceList, ",") {
		e, err := tensor.NewEngine(tensor.Options{Device: dev})
		if err != nil {
			b.Fatalf("device %s: %v", dev, err)
		}
		for _, r := range rows {
			b.Run(dev+"/"+r.Name, func(b *testing.B) {
				in := r.Inputs(e)
				start := time.Now()
				for i := 0; i < 2 || time.Since(start) < *warm; i++ {
					r.Run(in).Realize()
				}
				e.Synchronize()
				times := make([]float64, 0, b.N)
				kernels := make([]float64, 0, b.N)
				cpus := make([]float64, 0, b.N)
				b.ResetTimer()
				for range b.N {
					k0, c0 := e.Stats().Time, cpuTime()
					start := time.Now()
					r.Run(in).Realize()
					e.Synchronize() // GPU: Realize only queues the kernels
					times = append(times, time.Since(start).Seconds()*1e3)
					kernels = append(kernels, (e.Stats().Time-k0).Seconds()*1e3)
					cpus = append(cpus, (cpuTime()-c0).Seconds()*1e3)
				}
				slices.Sort(times)
				slices.Sort(kernels)
				slices.Sort(cpus)
				b.ReportMetric(times[len(times)/2], "ms-median")
				b.ReportMetric(times[0], "ms-min")
				b.ReportMetric(times[len(times)-1], "ms-max")
				b.ReportMetric(kernels[len(kernels)/2], "kernel-ms")
				b.ReportMetric(cpus[len(cpus)/2], "cpu-ms")
				if f := r.Flops(); f > 0 {
					b.ReportMetric(f/times[len(times)/2]/1e6, "GFLOP/s")
				}
			})
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
