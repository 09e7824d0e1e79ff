package clang

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// TestFold16Bits checks the 16-lane folds RenderC writes with the
// tiny_fold16 helpers bit for bit against the reference device, which runs
// the fold's tree one uop at a time: sums over rows long enough for lanes (a
// row sum and a dot product, a @ b.T, whose 4 x 4 outputs each fold 16
// lanes), on values whose sums depend on the order of the additions
// (magnitudes from 1e-8 to 1e8 of both signs), rows with infinities, NaN
// and signed zeros, and rows of signed zeros alone; and the maximum of each
// row in float32 (whose ties of zeros keep the left operand) and in int32,
// on both targets.
func TestFold16Bits(t *testing.T) {
	d := open(t, "", 2)
	f32 := codegen.Float32
	rows, cols := 48, 1024
	sum := kt.Kernel(shape.FromInts(rows, 1), kt.Reduce(codegen.OpAdd, f32, []int{1}, kt.Load(1, f32, shape.FromInts(rows, cols))), kt.Spec(f32, rows*cols))
	a := kt.Must(shape.FromInts(rows, 1, 256).ExpandInts([]int{rows, 40, 256}))
	b := kt.Must(shape.FromInts(1, 40, 256).ExpandInts([]int{rows, 40, 256}))
	dot := kt.Kernel(shape.FromInts(rows, 40, 1), kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, b))),
		kt.Spec(f32, rows*256), kt.Spec(f32, 40*256))
	// The maximum of each row, in float32 and in int32 (an argmax's
	// index), with the float rows' ties of signed zeros and their NaNs.
	fmax := kt.Kernel(shape.FromInts(rows, 1), kt.Reduce(codegen.OpMax, f32, []int{1}, kt.Load(1, f32, shape.FromInts(rows, cols))), kt.Spec(f32, rows*cols))
	i32 := codegen.Int32
	imax := kt.Kernel(shape.FromInts(rows, 1), kt.Reduce(codegen.OpMax, i32, []int{1}, kt.Load(1, i32, shape.FromInts(rows, cols))), kt.Spec(i32, rows*cols))
	special := []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1), 0}
	for _, k := range []*codegen.Kernel{sum, dot, fmax, imax} {
		rng := rand.New(rand.NewSource(3))
		bufs := kt.Alloc(k, rng)
		for _, buf := range bufs[1:] {
			for i := range buf.Len {
				v := math.Pow(10, rng.Float64()*16-8) * float64(1-2*rng.Intn(2))
				switch {
				case buf.DType == i32:
					v = float64(rng.Int31() - rng.Int31())
				case i/cols%5 == 3:
					v = special[3+rng.Intn(2)] // rows of signed zeros alone: every step a tie
				case i/256%5 == 4 && rng.Intn(64) == 0:
					v = special[rng.Intn(len(special))]
				}
				kt.Set(buf, i, v)
			}
		}
		for _, opts := range []codegen.Options{{}, {Target: &codegen.AVX512Target}} {
			src := runBitsAgainstRef(t, d, k, opts, bufs)
			if !strings.Contains(src, "= tiny_fold16_") {
				t.Fatalf("%s: no fold written with tiny_fold16\n%s", k.Name, src)
			}
		}
	}
}

// runBitsAgainstRef lowers k with opts, runs it on CLANG device d over bufs
// (the output zeroed first) and on the reference device, and fails unless
// every output element has the reference's bits (any NaN for a NaN, the
// sign of a zero kept). It returns the kernel's C source.
func runBitsAgainstRef(t *testing.T, d devices.Device, k *codegen.Kernel, opts codegen.Options, bufs []*devices.Buffer) string {
	t.Helper()
	p, want, err := kt.LowerRef(k, opts, bufs, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	bufs[0].Zero()
	if err := r.Run(bufs, nil); err != nil {
		t.Fatal(err)
	}
	src := r.(*runner).src
	for i := range want.Len {
		g, w := kt.Get(bufs[0], i), kt.Get(want, i)
		if math.IsNaN(g) != math.IsNaN(w) || !math.IsNaN(w) && (g != w || math.Signbit(g) != math.Signbit(w)) {
			t.Fatalf("%s: element %d is %v, the reference's %v\n%s", p.Name, i, g, w, src)
		}
	}
	return src
}
