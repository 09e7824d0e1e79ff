package interp

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tiny/devices"
	"tiny/devices/opencl"
	"tiny/tensor"
)

// TestBeautifulMNISTStepsGPU runs the training example's first steps (its
// data, model, optimizer and train_step from examples/beautiful_mnist.tiny,
// then three steps of 16 on the shipped subset in place of its loop) on
// the GPU device where OpenCL has a platform.
//
// The first loss equals the CPU device's within the forward tolerance
// (atol 1e-6, rtol 1e-3). The later ones are compared with the CPU device
// running the programs as the GPU device lowers them (opencl.Recorder):
// the GPU device folds each sum in plain loop order, CPU and CLANG in
// their register tiles' order, and a few training steps carry such
// last-bit differences far (Adam's first updates are about lr times the
// sign of each gradient; a max pool passes the gradient to one input of
// each window): the third loss is 1.69 in the CPU's order and 1.72 in the
// GPU's, on either device.
func TestBeautifulMNISTStepsGPU(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a conv net")
	}
	if _, err := opencl.Available(); err != nil {
		t.Skip(err)
	}
	src, err := os.ReadFile("../examples/beautiful_mnist.tiny")
	if err != nil {
		t.Fatal(err)
	}
	head, _, ok := strings.Cut(string(src), "\nBS = getenv(")
	if !ok {
		t.Fatal("beautiful_mnist.tiny has no 'BS = getenv(' line to cut its training loop at")
	}
	script := head + "\nfor i in range(3) {\n  print(\"{:.9g}\".format(train_step(16).item()))\n}\n"
	data, _ := filepath.Abs("../examples/data/fashion-mnist")
	t.Setenv("MNIST_DIR", data)
	losses := func(device string, dev devices.Device) []float64 {
		var out bytes.Buffer
		it, err := New(Options{Device: device, Files: true, Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatal(err)
		}
		if dev != nil {
			it.eng = tensor.NewEngineOn(dev, tensor.Options{Context: func() context.Context { return it.ctx }})
		}
		if err := it.Exec(context.Background(), "steps.tiny", script, false); err != nil {
			t.Fatalf("%s: %s\n%s", device, it.FormatError(err), out.String())
		}
		var ls []float64
		for _, f := range strings.Fields(out.String()) {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("%s printed %q, not three losses", device, out.String())
			}
			ls = append(ls, x)
		}
		if len(ls) != 3 {
			t.Fatalf("%s printed %q, not three losses", device, out.String())
		}
		return ls
	}
	host, err := devices.Open("CPU", devices.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cpu, order, gpu := losses("CPU", nil), losses("CPU", opencl.NewRecorder(host)), losses("GPU", nil)
	t.Logf("losses: CPU %v, CPU in the GPU's order %v, GPU %v", cpu, order, gpu)
	close := func(got, want float64) bool { return math.Abs(got-want) <= 1e-6+1e-3*math.Abs(want) }
	if !close(gpu[0], cpu[0]) {
		t.Errorf("step 1: loss %v on GPU, %v on CPU", gpu[0], cpu[0])
	}
	for i := range gpu {
		if !close(gpu[i], order[i]) {
			t.Errorf("step %d: loss %v on GPU, %v on CPU in the GPU's order", i+1, gpu[i], order[i])
		}
	}
}
