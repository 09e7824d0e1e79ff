// Command convbench times conv2d forward and backward on the four conv
// layers of tinygrad's beautiful_mnist (batch 512) through tiny's tensor API
// and prints one JSON line per layer; bench/conv_compare runs it beside
// PyTorch (bench/conv_torch.py) and prints the ratios.
//
//	go run ./bench/convbench [-devices CLANG,CPU] [-runs 5] [-only 2]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	_ "tiny/devices/clang"
	_ "tiny/devices/cpu"
	"tiny/tensor"
)

// Layer is one conv of the model: input (Batch, Cin, H, W), kernel K x K.
type Layer struct {
	Name                string
	Batch, Cin, Cout, H int
	K                   int
	InputGrad           bool // the first layer's input (the images) needs no gradient
}

// Layers are beautiful_mnist's convolutions.
var Layers = []Layer{
	{"1->32 5x5 28x28", 512, 1, 32, 28, 5, false},
	{"32->32 5x5 24x24", 512, 32, 32, 24, 5, true},
	{"32->64 3x3 12x12", 512, 32, 64, 12, 3, true},
	{"64->64 3x3 10x10", 512, 64, 64, 10, 3, true},
}

// Flops is the forward pass's multiply-adds times 2; forward and backward
// (input and weight gradients) do three times that, two without the input
// gradient.
func (l Layer) Flops() float64 {
	o := l.H - l.K + 1
	return 2 * float64(l.Batch*l.Cout*o*o*l.Cin*l.K*l.K)
}

func main() {
	devs := flag.String("devices", "CLANG,CPU", "devices to time")
	runs := flag.Int("runs", 5, "timed runs per layer (median reported)")
	only := flag.Int("only", 0, "time only this layer (1-4)")
	flag.Parse()
	enc := json.NewEncoder(os.Stdout)
	for _, dev := range strings.Split(*devs, ",") {
		e, err := tensor.NewEngine(tensor.Options{Device: dev})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for i, l := range Layers {
			if *only != 0 && *only != i+1 {
				continue
			}
			fwd, all, fwdCPU, allCPU := time1(e, l, *runs)
			f := l.Flops()
			total := f * 3
			if !l.InputGrad {
				total = f * 2
			}
			enc.Encode(map[string]any{"device": dev, "layer": i + 1, "name": l.Name,
				"fwd_ms": fwd, "fwdbwd_ms": all, "fwd_cpu_ms": fwdCPU, "fwdbwd_cpu_ms": allCPU,
				"fwd_gflop": f / 1e9, "fwdbwd_gflop": total / 1e9})
		}
	}
}

// cpuMs returns the process's user and system time in milliseconds: on a
// machine other processes load, a step's CPU time moves much less than its
// wall time.
func cpuMs() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

// time1 returns the median milliseconds (wall, then CPU) of the forward
// pass alone and of forward and backward together (the output and the
// gradients of the weight, the bias and, where the layer needs it, the
// input, realized in one schedule).
func time1(e *tensor.Engine, l Layer, runs int) (fwd, all, fwdCPU, allCPU float64) {
	o := l.H - l.K + 1
	x := e.Randn([]int{l.Batch, l.Cin, l.H, l.H}, 1).Realize()
	w := e.Randn([]int{l.Cout, l.Cin, l.K, l.K}, 2).Mul(0.1).Realize()
	b := e.Randn([]int{l.Cout}, 3).Realize()
	up := e.Randn([]int{l.Batch, l.Cout, o, o}, 4).Realize()
	x.SetRequiresGrad(l.InputGrad)
	w.SetRequiresGrad(true)
	b.SetRequiresGrad(true)
	step := func(backward bool) {
		y := x.Conv2d(w, b, 1, []int{1}, []int{1}, []int{0})
		if !backward {
			y.Realize()
			return
		}
		loss := y.Mul(up).Sum(nil, false)
		targets := []*tensor.Tensor{w, b}
		if l.InputGrad {
			targets = append(targets, x)
		}
		// The output too, as a training step needs it (its gradient does
		// not: a convolution is linear), and as PyTorch computes it.
		tensor.Realize(append(loss.Gradient(targets...), y)...)
	}
	measure := func(backward bool) (float64, float64) {
		for range 2 {
			step(backward)
		}
		// A plain loop, as conv_torch.py's and a training loop: the
		// garbage of one step, and the collection that returns its
		// buffers, are paid inside the next steps' times, not before them.
		var ts, cs []float64
		for range runs {
			start, c := time.Now(), cpuMs()
			step(backward)
			ts = append(ts, time.Since(start).Seconds()*1e3)
			cs = append(cs, cpuMs()-c)
		}
		slices.Sort(ts)
		slices.Sort(cs)
		return ts[len(ts)/2], cs[len(cs)/2]
	}
	fwd, fwdCPU = measure(false)
	all, allCPU = measure(true)
	return fwd, all, fwdCPU, allCPU
}
