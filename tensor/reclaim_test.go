package tensor

import (
	"testing"

	"tiny/devices"
)

// TestReclaim realizes 8 MiB outputs in a loop that keeps the previous
// result alive, as `s = f(x).realize()` does: from the third round on, the
// output two rounds back is garbage and realize must find its buffer again
// instead of allocating anew.
func TestReclaim(t *testing.T) {
	e, err := NewEngine(Options{Device: "CPU"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 2 << 20 // float32: 8 MiB
	x := e.Full([]int{n}, 1, Float32).Add(0).Realize()
	s := x.Add(1).Realize()
	before := devices.FreshBytes()
	for i := range 12 {
		s = x.Add(float64(i%2 + 2)).Realize()
	}
	if got := (devices.FreshBytes() - before) / (4 * n); got > 3 {
		t.Errorf("12 rounds allocated %d fresh outputs, want at most 3 (buffers of dead results reused)", got)
	}
	if v := s.Floats()[n-1]; v != 4 {
		t.Errorf("last element %v, want 4", v)
	}
}
