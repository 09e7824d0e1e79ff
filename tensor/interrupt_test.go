package tensor

import (
	"context"
	"errors"
	"testing"

	"tiny/devices/clang"
)

// TestInterruptKernel runs a matmul whose context is cancelled the moment
// the kernel asks for it, so the device stops before its first chunk: the
// realization fails with "interrupted" wrapping context.Canceled, and the
// same tensor realizes correctly afterwards.
func TestInterruptKernel(t *testing.T) {
	devs := []string{"CPU"}
	if _, err := clang.Available(); err == nil {
		devs = append(devs, "CLANG")
	}
	for _, dev := range devs {
		stop := true
		ctx, cancel := context.WithCancel(context.Background())
		e, err := NewEngine(Options{Device: dev, Context: func() context.Context {
			if stop {
				cancel()
				return ctx
			}
			return context.Background()
		}})
		if err != nil {
			t.Fatal(err)
		}
		data := make([]float64, 64*64)
		for i := range data {
			data[i] = float64(i % 4)
		}
		a := e.FromFloats(data, []int{64, 64}, Float32)
		c := a.Matmul(a).Sum(nil, false)
		err = Catch(func() { c.Item() })
		var te *Error
		if !errors.As(err, &te) || te.Msg != "interrupted" || !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: got %v, want interrupted wrapping context.Canceled", dev, err)
		}
		stop = false
		want := 0.0
		for i := range 64 {
			for j := range 64 {
				for k := range 64 {
					want += float64((i*64+k)%4) * float64((k*64+j)%4)
				}
			}
		}
		if got := c.Item(); got != want {
			t.Errorf("%s: after the interrupt got %v, want %v", dev, got, want)
		}
	}
}

// An engine whose context is already done runs nothing: the scheduler's
// walk of a large graph stops with "interrupted" before any kernel is
// compiled.
func TestInterruptSchedule(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e, err := NewEngine(Options{Device: "CPU", Context: func() context.Context { return ctx }})
	if err != nil {
		t.Fatal(err)
	}
	x := e.FromFloats([]float64{1, 2}, []int{2}, Float32)
	for range 10000 {
		x = x.Mul(1.5).Add(0.5)
	}
	err = Catch(func() { x.Realize() })
	var te *Error
	if !errors.As(err, &te) || te.Msg != "interrupted" || !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want interrupted wrapping context.Canceled", err)
	}
	if st := e.Stats(); st.Kernels != 0 || st.Compiles != 0 {
		t.Errorf("%d kernels compiled, %d ran", st.Compiles, st.Kernels)
	}
}
