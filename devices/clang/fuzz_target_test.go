package clang

import (
	"math/rand"
	"testing"

	"tiny/codegen"
	kt "tiny/devices/internal/kerneltest"
)

// FuzzTarget lowers random kernels for random targets (register tiles,
// lanes, dot products, transpose tiles of every small size) and checks
// CLANG's result against the reference device's, element by element.
func FuzzTarget(f *testing.F) {
	for seed := range int64(4) {
		f.Add(seed, uint8(2), uint8(2), uint8(4), uint8(2), uint8(2))
		f.Add(seed, uint8(3), uint8(3), uint8(6), uint8(3), uint8(3))
	}
	f.Fuzz(func(t *testing.T, seed int64, lanes, rows, cols, dot, tile uint8) {
		k := kt.RandomKernel(rand.New(rand.NewSource(seed)))
		tgt := codegen.Target{Lanes: int(lanes % 20), Rows: int(rows % 10), Cols: int(cols % 70), Dot: int(dot % 6), Tile: int(tile % 20)}
		checkOpts(t, k, []codegen.Options{{Target: &tgt}})
	})
}
