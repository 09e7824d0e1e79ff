package clang

import (
	"testing"

	kt "tiny/devices/internal/kerneltest"
)

// FuzzTarget checks CLANG on random kernels lowered for random targets
// (kt.FuzzTargets) against the reference device, element by element.
func FuzzTarget(f *testing.F) {
	kt.FuzzTargets(f, 4, checkOpts)
}
