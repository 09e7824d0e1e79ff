package clang

import (
	"math/rand"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// TestShiftedPadSplit is a + b shifted down one row by a pad, over
// (3, 4, 3, 2): the kernel's global loop runs over the 3 rows with 4 x 6
// unrolled copies and a masked load of b. Built with -fwrapv, gcc 12 at -O3
// vectorized that loop with masked loads wrongly when a thread's range
// started past 0 (every block after the first was wrong on 3 threads);
// signed values now wrap through unsigned types in the C source instead.
func TestShiftedPadSplit(t *testing.T) {
	s := shape.FromInts(3, 4, 3, 2)
	shifted := kt.Must(kt.Must(kt.Must(kt.Must(shape.FromInts(3, 3, 2).PadInts([][2]int{{1, 0}, {0, 0}, {0, 0}})).
		ShrinkInts([][2]int{{0, 3}, {0, 3}, {0, 2}})).ReshapeInts([]int{3, 1, 3, 2})).ExpandInts([]int{3, 4, 3, 2}))
	for _, op := range []codegen.Op{codegen.OpAdd, codegen.OpMax} {
		check(t, kt.Kernel(s, kt.Op(op, f32, kt.Load(1, f32, s), kt.Load(2, f32, shifted)), kt.Spec(f32, 72), kt.Spec(f32, 18)))
	}
}

// TestWrappingValues checks that int32 and int64 ADD, SUB, MUL and NEG on
// values near the limits wrap as Go's integers do, against the reference
// device (the C source is built without -fwrapv, so the renderer must make
// them wrap).
func TestWrappingValues(t *testing.T) {
	const n = 4096
	s := shape.FromInts(n)
	for _, d := range []codegen.DType{codegen.Int32, codegen.Int64} {
		big := float64(int64(1) << 30)
		if d == codegen.Int64 {
			big = float64(int64(1) << 62)
		}
		kernels := []*codegen.Kernel{kt.Kernel(s, kt.Op(codegen.OpNeg, d, kt.Load(1, d, s)), kt.Spec(d, n))}
		for _, op := range []codegen.Op{codegen.OpAdd, codegen.OpSub, codegen.OpMul} {
			kernels = append(kernels, kt.Kernel(s, kt.Op(op, d, kt.Load(1, d, s), kt.Load(2, d, s)), kt.Spec(d, n), kt.Spec(d, n)))
		}
		for _, k := range kernels {
			bufs := kt.Alloc(k, rand.New(rand.NewSource(1)))
			for _, b := range bufs[1:] {
				for i := range n {
					// -2*big (the most negative value), -big .. big+k: sums,
					// differences, products and negations that overflow.
					kt.Set(b, i, []float64{-2 * big, -big, big, big + float64(i)}[i%4]*float64(1-2*(i/4%2)))
				}
			}
			for _, threads := range []int{1, 3} {
				dev, err := Open(devices.Options{Threads: threads})
				if err != nil {
					t.Skip(err)
				}
				p, want, err := kt.LowerRef(k, codegen.Options{}, bufs, nil)
				if err != nil {
					t.Fatal(err)
				}
				r, err := dev.Compile(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := kt.RunDiff(r, bufs, want); err != nil {
					t.Fatalf("%s %s: %v\n%s", k.Name, d, err, r.(*runner).src)
				}
			}
		}
	}
}

// TestHalfRoundTrip is a.half().float() + b over rows of 4, the rows
// unrolled. On a CPU with AVX512-FP16, gcc 12 at -O3 dropped the rounding
// to half when the kernel converted through _Float16 (each result was
// a + b); the C prelude converts with F16C's instructions instead.
func TestHalfRoundTrip(t *testing.T) {
	s := shape.FromInts(6, 4)
	half := kt.Op(codegen.OpCast, f32, kt.Op(codegen.OpCast, codegen.Float16, kt.Load(1, f32, s)))
	check(t, kt.Kernel(s, kt.Op(codegen.OpAdd, f32, half, kt.Load(2, f32, s)), kt.Spec(f32, 24), kt.Spec(f32, 24)))
}
