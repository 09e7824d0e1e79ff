package kerneltest

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"tiny/codegen"
	"tiny/devices"
)

// RandomKernels runs check on the random kernels of seeds 0 to n-1 (0 to
// short-1 under -short), each as a subtest named after its kernel: every
// device is checked on the same kernels.
func RandomKernels(t *testing.T, n, short int, check func(*testing.T, *codegen.Kernel)) {
	t.Helper()
	if testing.Short() {
		n = short
	}
	for seed := range n {
		k := RandomKernel(rand.New(rand.NewSource(int64(seed))))
		t.Run(k.Name, func(t *testing.T) { check(t, k) })
	}
}

// FuzzTargets is a device's fuzz target: it lowers the random kernel of a
// fuzzed seed for a fuzzed target (register tiles, lanes, dot products,
// transpose tiles of every small size, inner loops bounded to a multiple
// of 4 accumulators; vectors of 8 floats for even seeds, 16 for odd ones)
// and passes both to check. The corpus holds seeds 0 to seeds-1 under two
// small targets.
func FuzzTargets(f *testing.F, seeds int64, check func(*testing.T, *codegen.Kernel, []codegen.Options)) {
	for seed := range seeds {
		f.Add(seed, uint8(2), uint8(2), uint8(4), uint8(2), uint8(2))
		f.Add(seed, uint8(3), uint8(3), uint8(6), uint8(3), uint8(3))
	}
	f.Fuzz(func(t *testing.T, seed int64, lanes, rows, cols, dot, tile uint8) {
		k := RandomKernel(rand.New(rand.NewSource(seed)))
		tgt := codegen.Target{Lanes: int(lanes % 20), Rows: int(rows % 10), Cols: int(cols % 70), Dot: int(dot % 6), Tile: int(tile % 20), Accs: 4 * int(tile%20), Vector: 8 << (seed & 1)}
		check(t, k, []codegen.Options{{Target: &tgt}})
	})
}

// RunDiff zeroes bufs[0], runs r over bufs and returns an error naming the
// first output element that is not Close to want's (see Diff), or nil.
func RunDiff(r devices.Runner, bufs []*devices.Buffer, want *devices.Buffer) error {
	bufs[0].Zero()
	if err := r.Run(bufs, nil); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	return Diff(bufs[0], want)
}

// Oracle returns buffers for k (Alloc, seeded with 1) and, in a buffer of
// its own, the output Eval computes from them.
func Oracle(k *codegen.Kernel) (bufs []*devices.Buffer, want *devices.Buffer) {
	bufs = Alloc(k, rand.New(rand.NewSource(1)))
	want = devices.Alloc(k.Bufs[0].DType, k.Bufs[0].Size)
	want.Zero()
	Eval(k, append([]*devices.Buffer{want}, bufs[1:]...))
	return bufs, want
}

// LowerRef lowers k under opts and runs the program on the reference
// device over bufs' inputs (see Reference). When oracle is not nil, the
// reference device's output must equal it element by element (see Diff),
// so that a device is never compared with a wrong reference.
func LowerRef(k *codegen.Kernel, opts codegen.Options, bufs []*devices.Buffer, oracle *devices.Buffer) (*codegen.Program, *devices.Buffer, error) {
	p, err := codegen.Lower(k, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("lower: %w", err)
	}
	want, err := Reference(p, bufs)
	if err != nil {
		return p, nil, fmt.Errorf("reference device: %w", err)
	}
	if oracle != nil {
		if err := Diff(want, oracle); err != nil {
			return p, nil, fmt.Errorf("reference device against the oracle: %w", err)
		}
	}
	return p, want, nil
}

// CheckClip lowers each of ClipKernels under each of opts, and again with
// codegen.OptClip skipped: under opts[0] the first must clip a loop (other
// lowerings may not), and compile's runner (with any number of workers)
// must give the reference device's bits for both programs, which must be
// the same bits (finite inputs: the terms a clipped loop skips add ±0).
func CheckClip(t *testing.T, opts []codegen.Options, compile func(*codegen.Program) (devices.Runner, error)) {
	t.Helper()
	for _, k := range ClipKernels() {
		bufs, oracle := Oracle(k)
		for j, o := range opts {
			var first *devices.Buffer // the clipped program's reference output
			for _, clip := range []bool{true, false} {
				if !clip {
					o.Skip = append(append([]codegen.OptOp{}, o.Skip...), codegen.OptClip)
				}
				p, want, err := LowerRef(k, o, bufs, oracle)
				if err != nil {
					t.Fatalf("%s: %v\n%s", k.Name, err, p)
				}
				if p.Opts.Has(codegen.OptClip) != clip && (j == 0 || !clip) {
					t.Fatalf("%s clip %v: opts %s", k.Name, clip, p.Opts)
				}
				if first == nil {
					first = want
				}
				r, err := compile(p)
				if err != nil {
					t.Fatalf("%s: compile: %v\n%s", k.Name, err, p)
				}
				bufs[0].Zero()
				if err := r.Run(bufs, nil); err != nil {
					t.Fatalf("%s: run: %v", k.Name, err)
				}
				for i := range want.Len {
					g, w, f := Get(bufs[0], i), Get(want, i), Get(first, i)
					if math.Float64bits(g) != math.Float64bits(w) || math.Float64bits(w) != math.Float64bits(f) {
						t.Fatalf("%s opts %s: element %d = %v, reference %v, first program %v\n%s", k.Name, p.Opts, i, g, w, f, p)
					}
				}
			}
		}
	}
}
