package tensor

import (
	"strings"
	"testing"
)

// TestDebugOpts checks that DEBUG=3 prints a kernel's applied
// optimizations above its uops: a matmul's register tile and multiply-adds.
func TestDebugOpts(t *testing.T) {
	var log strings.Builder
	e, err := NewEngine(Options{Device: "CPU", Debug: 3, Log: &log})
	if err != nil {
		t.Skip("no CPU device")
	}
	a := e.Rand([]int{64, 64}, 1)
	a.Matmul(a).Realize()
	out := log.String()
	for _, want := range []string{"opts [INNER(", "UPCAST(", "MULACC(", "ACCUM        : float32"} {
		if !strings.Contains(out, want) {
			t.Errorf("DEBUG=3 output lacks %q:\n%s", want, out)
		}
	}
}
