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

// mathInputs returns float32 inputs over the whole range: random bit
// patterns (every exponent, subnormals included), random values of
// moderate size, and the edge cases.
func mathInputs() []float32 {
	rng := rand.New(rand.NewSource(3))
	xs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, 2, 1e-45, -1e-45, 1e-40, 1.1754944e-38, math.MaxFloat32, -math.MaxFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 127.99999, 128, -126, -149, -150, -149.5, 0x1p-12, 1e10, 1e20, 3e38,
		float32(math.Pi / 2), float32(math.Pi), 1e5, 102940.38, 0x1p50, 0x1p51}
	for range 200000 {
		xs = append(xs, math.Float32frombits(rng.Uint32()))
		xs = append(xs, float32(rng.NormFloat64()*100))
		xs = append(xs, float32(rng.Float64()*300-150))
		xs = append(xs, float32(0.7+rng.Float64()*0.72)) // log2's k = 0: its result is the series alone
	}
	for k := range 2000 {
		// Floats next to multiples of pi/2, where the reduction cancels most.
		x := math.Float32frombits(math.Float32bits(float32(float64(k)*math.Pi/2)) + uint32(rng.Intn(3)) - 1)
		xs = append(xs, x, -x)
	}
	return xs
}

// ulps returns the distance from got to want in float32 units of the last
// place (0 when both are NaN or equal infinities).
func ulps(got, want float32) float64 {
	if math.IsNaN(float64(got)) || math.IsNaN(float64(want)) {
		if math.IsNaN(float64(got)) && math.IsNaN(float64(want)) {
			return 0
		}
		return math.Inf(1)
	}
	if got == want {
		return 0
	}
	if math.IsInf(float64(want), 0) || math.IsInf(float64(got), 0) {
		return math.Inf(1)
	}
	ulp := math.Nextafter32(float32(math.Abs(float64(want))), float32(math.Inf(1))) - float32(math.Abs(float64(want)))
	return math.Abs(float64(got)-float64(want)) / float64(ulp)
}

// TestMathAccuracy checks the C exp2, log2 and sin of float32 against Go's
// float64 math rounded to float32: at most 2 ulp everywhere (log2 1 ulp:
// its float series carries its leading term in two floats), subnormal
// results and arguments next to multiples of pi/2 included.
func TestMathAccuracy(t *testing.T) {
	all := mathInputs()
	// sin tries a float reduction first and runs again in double only when
	// some argument exceeds 2**10: check the float one on its own.
	var small []float32
	for _, x := range all {
		if !(math.Abs(float64(x)) > 1024) {
			small = append(small, x)
		}
	}
	for _, tc := range []struct {
		op  codegen.Op
		f   func(float64) float64
		xs  []float32
		ulp float64
	}{{codegen.OpExp2, math.Exp2, all, 2}, {codegen.OpLog2, math.Log2, all, 1}, {codegen.OpSin, math.Sin, all, 2}, {codegen.OpSin, math.Sin, small, 2}} {
		mathCheck(t, tc.op, tc.f, tc.xs, tc.ulp)
	}
}

// mathCheck runs op over xs on CLANG and checks each result within maxULP
// ulp of f's, reporting the worst.
func mathCheck(t *testing.T, op codegen.Op, f func(float64) float64, xs []float32, maxULP float64) {
	t.Helper()
	d := open(t, "", 2)
	n := len(xs)
	s := shape.FromInts(n)
	p, err := codegen.Lower(kt.Kernel(s, kt.Op(op, f32, kt.Load(1, f32, s)), kt.Spec(f32, n)), codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	in, out := devices.Alloc(f32, n), devices.Alloc(f32, n)
	copy(in.Float32s(), xs)
	if err := r.Run([]*devices.Buffer{out, in}, nil); err != nil {
		t.Fatal(err)
	}
	worst, at, bad := 0.0, float32(0), 0
	for i, x := range xs {
		want := float32(f(float64(x)))
		got := out.Float32s()[i]
		u := ulps(got, want)
		if u > maxULP {
			if bad++; bad < 5 {
				t.Errorf("%s(%g) = %g, want %g (%.1f ulp)", op, x, got, want, u)
			}
		}
		if u > worst && !math.IsInf(u, 1) {
			worst, at = u, x
		}
	}
	t.Logf("%s: worst %.2f ulp at %g over %d inputs", op, worst, at, n)
}

// TestStreamedSin runs sin over an output large enough to be written with
// non-temporal stores, with a few arguments beyond the fast reduction, so
// that the loop runs again with the exact sin.
func TestStreamedSin(t *testing.T) {
	d := open(t, "", 3)
	n := streamElems
	s := shape.FromInts(n)
	p, err := codegen.Lower(kt.Kernel(s, kt.Op(codegen.OpAdd, f32, kt.Op(codegen.OpSin, f32, kt.Load(1, f32, s)), kt.Load(1, f32, s)), kt.Spec(f32, n)), codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if src := codegen.RenderC(p); !strings.Contains(src, "tiny_stream(") {
		t.Fatalf("no streaming stores:\n%s", src)
	}
	r, err := d.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	in, out := devices.Alloc(f32, n), devices.Alloc(f32, n)
	rng := rand.New(rand.NewSource(5))
	x := in.Float32s()
	for i := range x {
		x[i] = float32(rng.Float64()*8 - 4)
	}
	x[12345], x[n-3] = 1e30, -3e38
	if err := r.Run([]*devices.Buffer{out, in}, nil); err != nil {
		t.Fatal(err)
	}
	for i, v := range x {
		want := float32(float32(math.Sin(float64(v))) + v)
		if got := out.Float32s()[i]; ulps(got, want) > 2 {
			t.Fatalf("element %d: sin(%g)+x = %g, want %g", i, v, got, want)
		}
	}
}

// TestStreamedRows runs two kernels over 2-D outputs large enough to be
// streamed, row by row, on 3 threads, checking every element: a pad by 1
// on both axes (rows of 1026 or 2502 floats, so each row's stream starts
// and ends inside a cache line, and the edges are loops of one) and x + a
// bias broadcast over rows (rows of 2500: three blocks of the stack
// buffer, the last partial), and a flip of the same rows, whose loads run
// backwards. A load of every other element is not streamed (loadsUnit).
func TestStreamedRows(t *testing.T) {
	d := open(t, "", 3)
	for _, cols := range []int{1024, 2500} {
		rows := codegen.CStreamBytes/4/cols + 3
		in := shape.FromInts(rows, cols)
		padded := kt.Must(in.PadInts([][2]int{{1, 1}, {1, 1}}))
		pad := kt.Kernel(shape.FromInts(rows+2, cols+2), kt.Load(1, f32, padded), kt.Spec(f32, rows*cols))
		bias := kt.Must(kt.Must(shape.FromInts(cols).ReshapeInts([]int{1, cols})).ExpandInts([]int{rows, cols}))
		add := kt.Kernel(in, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, in), kt.Load(2, f32, bias)), kt.Spec(f32, rows*cols), kt.Spec(f32, cols))
		flip := kt.Kernel(in, kt.Load(1, f32, kt.Must(in.Flip([]bool{false, true}))), kt.Spec(f32, rows*cols))
		strided := kt.Kernel(in, kt.Load(1, f32, kt.Must(shape.FromInts(rows, 2*cols).Stride([]int{1, 2}))), kt.Spec(f32, 2*rows*cols))
		if p, err := codegen.Lower(strided, codegen.Options{}); err != nil {
			t.Fatal(err)
		} else if p.Opts.Has(codegen.OptStream) {
			t.Errorf("every other element: want no stream, opts %v", p.Opts)
		}
		x := devices.Alloc(f32, rows*cols)
		b := devices.Alloc(f32, cols)
		rng := rand.New(rand.NewSource(7))
		for i := range x.Float32s() {
			x.Float32s()[i] = float32(rng.Float64())
		}
		for i := range b.Float32s() {
			b.Float32s()[i] = float32(i)
		}
		for _, tc := range []struct {
			k    *codegen.Kernel
			bufs []*devices.Buffer
			want func(i int) float32
		}{
			{pad, []*devices.Buffer{devices.Alloc(f32, (rows+2)*(cols+2)), x}, func(i int) float32 {
				r, c := i/(cols+2)-1, i%(cols+2)-1
				if r < 0 || r >= rows || c < 0 || c >= cols {
					return 0
				}
				return x.Float32s()[r*cols+c]
			}},
			{add, []*devices.Buffer{devices.Alloc(f32, rows*cols), x, b}, func(i int) float32 {
				return x.Float32s()[i] + b.Float32s()[i%cols]
			}},
			{flip, []*devices.Buffer{devices.Alloc(f32, rows*cols), x}, func(i int) float32 {
				return x.Float32s()[i/cols*cols+cols-1-i%cols]
			}},
		} {
			p, err := codegen.Lower(tc.k, codegen.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !p.Opts.Has(codegen.OptStream) {
				t.Fatalf("%s: not streamed, opts %s\n%s", p.Name, p.Opts, p)
			}
			r, err := d.Compile(p)
			if err != nil {
				t.Fatal(err)
			}
			out := tc.bufs[0].Float32s()
			for i := range out {
				out[i] = float32(math.NaN())
			}
			if err := r.Run(tc.bufs, nil); err != nil {
				t.Fatal(err)
			}
			for i, v := range out {
				if w := tc.want(i); v != w {
					t.Fatalf("%s: element %d = %g, want %g", p.Name, i, v, w)
				}
			}
		}
	}
}

// TestStreamedRuns runs kernels whose innermost loop is too short to
// stream alone but whose runs, one after another, fill the output
// contiguously (streamNest): a permute that keeps the last axis (runs of
// 32 float32s or 16 float64s, a convolution's channels-last copy), and
// every other run of 16 rows' worth read into a 2-D output, whose outer
// loop is the global loop. On 1 and 3 threads against the reference
// device, under every lowering of check; each is recorded as STREAM and
// streamed through the block on the stack across both loops. Runs of 20
// float32s are not whole cache lines and are not streamed.
func TestStreamedRuns(t *testing.T) {
	perm := func(n, m, c int, dt codegen.DType) *codegen.Kernel {
		return kt.Kernel(shape.FromInts(m, n, c), kt.Load(1, dt, kt.Must(shape.FromInts(n, m, c).Permute([]int{1, 0, 2}))), kt.Spec(dt, n*m*c))
	}
	rows := codegen.CStreamBytes/4/16 + 5
	half := kt.Must(shape.FromInts(rows, 32).ShrinkInts([][2]int{{0, rows}, {0, 16}}))
	every := kt.Kernel(shape.FromInts(rows, 16), kt.Load(1, f32, half), kt.Spec(f32, rows*32))
	for _, tc := range []struct {
		k      *codegen.Kernel
		stream bool
	}{
		{perm(512, 66, 32, f32), true},
		{perm(300, 116, 16, codegen.Float64), true},
		{every, true},
		{perm(512, 103, 20, f32), false},
	} {
		p, err := codegen.Lower(tc.k, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		src := codegen.RenderC(p)
		if got := p.Opts.Has(codegen.OptStream) && strings.Contains(src, "tiny_tmp[(") && strings.Contains(src, "tiny_stream("); got != tc.stream {
			t.Errorf("%s: streamed across the short loop %v, want %v (opts %s):\n%s", p.Name, got, tc.stream, p.Opts, src)
		}
		check(t, tc.k)
	}
}

const streamElems = codegen.CStreamBytes/4 + 1000

// TestStreamedDTypes pads outputs of every element size (bool, uint8,
// float16, int32, int64, float64) large enough to be streamed, rows of
// 1027 elements so that each row's stream starts and ends inside a cache
// line, and checks every element's bytes: tiny_stream copies any element
// type, its head and tail element by element.
func TestStreamedDTypes(t *testing.T) {
	d := open(t, "", 3)
	for _, dt := range []codegen.DType{codegen.Bool, codegen.Uint8, codegen.Float16, codegen.Int32, codegen.Int64, codegen.Float64} {
		sz, cols := dt.Size(), 1027
		rows := codegen.CStreamBytes/sz/cols + 3
		in := shape.FromInts(rows, cols)
		padded := kt.Must(in.PadInts([][2]int{{1, 1}, {1, 1}}))
		p, err := codegen.Lower(kt.Kernel(shape.FromInts(rows+2, cols+2), kt.Load(1, dt, padded), kt.Spec(dt, rows*cols)), codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !p.Opts.Has(codegen.OptStream) {
			t.Fatalf("%s: not streamed, opts %s", dt, p.Opts)
		}
		r, err := d.Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		x, out := devices.Alloc(dt, rows*cols), devices.Alloc(dt, (rows+2)*(cols+2))
		rng := rand.New(rand.NewSource(11))
		for i := range x.Data {
			x.Data[i] = byte(rng.Intn(256))
			if dt == codegen.Bool {
				x.Data[i] &= 1
			}
			if dt == codegen.Float16 && i%2 == 1 {
				x.Data[i] &= 0x7b // no NaN or infinity: a half is loaded as a float and stored back
			}
		}
		for i := range out.Data {
			out.Data[i] = 0xa5
		}
		if err := r.Run([]*devices.Buffer{out, x}, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < out.Len; i++ {
			rr, c := i/(cols+2)-1, i%(cols+2)-1
			want := make([]byte, sz)
			if rr >= 0 && rr < rows && c >= 0 && c < cols {
				j := rr*cols + c
				want = x.Data[j*sz : (j+1)*sz]
			}
			if got := out.Data[i*sz : (i+1)*sz]; string(got) != string(want) {
				t.Fatalf("%s: element %d (row %d, column %d) = %x, want %x", dt, i, rr+1, c+1, got, want)
			}
		}
	}
}
