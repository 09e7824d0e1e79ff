package opencl

import (
	"testing"

	kt "tiny/devices/internal/kerneltest"
)

// TestGather checks loads whose index depends on a loaded value, with
// out-of-range values reading 0 (the GATHER of X[idx]).
func TestGather(t *testing.T) {
	for _, k := range kt.GatherKernels() {
		check(t, k)
	}
}
