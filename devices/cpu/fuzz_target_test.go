package cpu

import (
	"math/rand"
	"testing"

	"tiny/codegen"
	kt "tiny/devices/internal/kerneltest"
)

// FuzzTarget lowers random kernels for random targets (register tiles,
// lanes, transpose tiles of every small size) and checks the CPU device's
// result against the brute-force oracle, element by element.
func FuzzTarget(f *testing.F) {
	for seed := range int64(8) {
		f.Add(seed, uint8(2), uint8(2), uint8(4), uint8(2), uint8(2))
		f.Add(seed, uint8(3), uint8(3), uint8(6), uint8(3), uint8(3))
	}
	f.Add(int64(99), uint8(16), uint8(8), uint8(32), uint8(4), uint8(8))
	f.Fuzz(func(t *testing.T, seed int64, lanes, rows, cols, dot, tile uint8) {
		k := kt.RandomKernel(rand.New(rand.NewSource(seed)))
		tgt := codegen.Target{Lanes: int(lanes % 20), Rows: int(rows % 10), Cols: int(cols % 70), Dot: int(dot % 6), Tile: int(tile % 20)}
		checkOpts(t, k, []codegen.Options{{Target: &tgt}})
	})
}
