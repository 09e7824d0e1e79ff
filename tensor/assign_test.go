package tensor

import (
	"slices"
	"testing"
)

// TestAssignInPlace checks that an assign of an elementwise update writes
// into the buffer the tensor had, that one reading the buffer elsewhere
// (a flip) takes a fresh buffer, and that both give the right values.
func TestAssignInPlace(t *testing.T) {
	for name, e := range engines(t) {
		w := e.FromFloats([]float64{1, 2, 3}, []int{3}, Float32)
		buf := w.n.buf
		w.Assign(w.Mul(e.Scalar(2, Float32))).Realize()
		if w.n.buf != buf {
			t.Errorf("%s: w*2 was not written in place", name)
		}
		if got := w.Floats(); !slices.Equal(got, []float64{2, 4, 6}) {
			t.Errorf("%s: w*2 = %v", name, got)
		}
		w.Assign(w.Flip(0)).Realize()
		if w.n.buf == buf {
			t.Errorf("%s: a flip was written in place", name)
		}
		if got := w.Floats(); !slices.Equal(got, []float64{6, 4, 2}) {
			t.Errorf("%s: flip = %v", name, got)
		}
	}
}

// TestAssignStepKeepsLoss checks that a step writing parameters in place
// realizes the loss and gradients of the last Backward first, so that they
// read the parameters from before the step.
func TestAssignStepKeepsLoss(t *testing.T) {
	e := cpuEngine(t)
	x := e.FromFloats([]float64{1, 2}, []int{2}, Float32).SetRequiresGrad(true)
	x.Realize()
	loss := x.Mul(x).Sum(nil, false)
	loss.Backward()
	g := x.Grad()
	x.Assign(x.Sub(g.Mul(e.Scalar(0.5, Float32)))).Realize()
	if got := loss.Item(); got != 5 {
		t.Errorf("loss after the step = %v, want 5", got)
	}
	if got := g.Floats(); !slices.Equal(got, []float64{2, 4}) {
		t.Errorf("grad after the step = %v, want [2 4]", got)
	}
	if got := x.Floats(); !slices.Equal(got, []float64{0, 0}) {
		t.Errorf("x after the step = %v, want [0 0]", got)
	}
}

// TestAssignErrors checks the shape and dtype checks.
func TestAssignErrors(t *testing.T) {
	e := cpuEngine(t)
	w := e.Zeros(Float32, 3)
	if err := Catch(func() { w.Assign(e.Zeros(Float32, 2)) }); err == nil {
		t.Error("assign of another shape: no error")
	}
	if err := Catch(func() { w.Assign(e.Zeros(Int32, 3)) }); err == nil {
		t.Error("assign of another dtype: no error")
	}
}

// TestAssignStepConstGrad checks a step whose pending gradient is a
// constant (the gradient of a plain sum is ones): realizing the step with
// it must not schedule the constant as a buffer no kernel computes (it
// was a nil buffer in the update's kernel).
func TestAssignStepConstGrad(t *testing.T) {
	for name, e := range engines(t) {
		w := e.FromFloats([]float64{1, 2, 3}, []int{3}, Float32).SetRequiresGrad(true)
		w.Realize()
		loss := w.Sum(nil, false)
		loss.Backward()
		w.Assign(w.Detach().Sub(w.Grad())).Realize()
		if got := w.Floats(); !slices.Equal(got, []float64{0, 1, 2}) {
			t.Errorf("%s: w after the step = %v, want [0 1 2]", name, got)
		}
		if got := loss.Item(); got != 6 {
			t.Errorf("%s: loss after the step = %v, want 6", name, got)
		}
	}
}
