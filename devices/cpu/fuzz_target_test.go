package cpu

import (
	"testing"

	kt "tiny/devices/internal/kerneltest"
)

// FuzzTarget checks the CPU device on random kernels lowered for random
// targets (kt.FuzzTargets), against the reference device and the
// brute-force oracle, element by element; one more seed has a large target.
func FuzzTarget(f *testing.F) {
	f.Add(int64(99), uint8(16), uint8(8), uint8(32), uint8(4), uint8(8))
	kt.FuzzTargets(f, 8, checkOpts)
}
