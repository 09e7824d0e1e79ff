package cpu

import (
	"math/rand"
	"testing"

	"tiny/codegen"
	"tiny/devices"
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
		p, err := codegen.Lower(k, codegen.Options{Target: &tgt})
		if err != nil {
			t.Fatalf("lower %s for %+v: %v", k.Name, tgt, err)
		}
		bufs := kt.Alloc(k, rand.New(rand.NewSource(1)))
		want := devices.Alloc(k.Bufs[0].DType, k.Bufs[0].Size)
		want.Zero()
		kt.Eval(k, append([]*devices.Buffer{want}, bufs[1:]...))
		dev, _ := Open(devices.Options{Threads: 2})
		r, err := dev.Compile(p)
		if err != nil {
			t.Fatalf("compile: %v\n%s", err, p)
		}
		bufs[0].Zero()
		if err := r.Run(bufs, nil); err != nil {
			t.Fatalf("run: %v\n%s", err, p)
		}
		for i := range want.Len {
			if g, w := kt.Get(bufs[0], i), kt.Get(want, i); !kt.Close(g, w, want.DType) {
				t.Fatalf("%s target %+v: element %d = %v, want %v\n%s\n%s", k.Name, tgt, i, g, w, k, p)
			}
		}
	})
}
