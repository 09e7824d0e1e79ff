package bench

import (
	"math"
	"runtime"
	"testing"
	"time"

	"tiny/devices"
	"tiny/internal/suite"
	"tiny/tensor"
)

// TestRowsCorrect runs every benchmark row (the suite and the wide table) at
// full size on CPU and CLANG and compares each output element with a float64
// reference computed naively in Go. Before each run the buffers the row's
// kernels will write are taken from the pool poisoned with NaN (all bits
// set; -1 for an int), so an element a kernel forgets to write fails the
// check instead of passing with a stale value. With -short only the suite
// rows run.
func TestRowsCorrect(t *testing.T) {
	rows := append(append([]suite.Row{}, suite.Suite...), suite.Wide...)
	if testing.Short() {
		rows = suite.Suite
	}
	// CLANG first: it draws the random inputs much faster than the pure-Go
	// device, which gets the same values copied in.
	var engines []*tensor.Engine
	for _, dev := range []string{"CLANG", "CPU"} {
		e, err := tensor.NewEngine(tensor.Options{Device: dev})
		if err != nil {
			t.Logf("%s: %v (skipped)", dev, err)
			continue
		}
		engines = append(engines, e)
	}
	for _, r := range rows {
		t.Run(r.Name, func(t *testing.T) {
			start := time.Now()
			var vals, want []float64
			var inVals [][]float64
			for k, e := range engines {
				var in []*tensor.Tensor
				if k == 0 {
					in = r.Inputs(e)
					inVals = make([][]float64, len(in))
					for i, x := range in {
						inVals[i] = x.Floats()
					}
					want = r.Ref(inVals)
				} else {
					for i, spec := range r.In {
						d := tensor.Float32
						if spec.Below > 0 {
							d = tensor.Int32
						}
						in = append(in, e.FromFloats(inVals[i], spec.Shape, d).Realize())
					}
				}
				out := r.Run(in)
				poison(out)
				vals = out.Realize().Floats()
				check(t, e.DeviceName(), r, vals, want)
			}
			t.Logf("%v", time.Since(start).Round(time.Millisecond))
		})
	}
}

// poison puts, on top of the buffer pool, buffers filled with all-ones bits
// of the size of every buffer realizing out will write, so that realize
// takes them.
func poison(out *tensor.Tensor) {
	// Return dead tensors' buffers to the pool first, so that they do not
	// land on top of the poisoned ones while out runs.
	runtime.GC()
	time.Sleep(5 * time.Millisecond)
	var bufs []*devices.Buffer
	for _, k := range out.Schedule() {
		b := devices.Alloc(k.Bufs[0].DType, k.Bufs[0].Size)
		for i := range b.Data {
			b.Data[i] = 0xff
		}
		bufs = append(bufs, b)
	}
	for _, b := range bufs {
		b.Free()
	}
}

func check(t *testing.T, dev string, r suite.Row, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", dev, len(got), len(want))
	}
	// A float32 result of exact float64 math is off by up to half a unit
	// in the last place.
	rtol := max(r.Rtol, 1.2e-7)
	bad := 0
	for i, g := range got {
		w := want[i]
		if math.Abs(g-w) <= r.Atol+rtol*math.Abs(w) {
			continue
		}
		if bad < 5 {
			t.Errorf("%s: element %d is %v, want %v", dev, i, g, w)
		}
		bad++
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d elements differ", dev, bad, len(got))
	}
}
