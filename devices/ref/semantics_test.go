package ref_test

import (
	"math"
	"strings"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	"tiny/devices/clang"
	_ "tiny/devices/cpu"
	kt "tiny/devices/internal/kerneltest"
	"tiny/devices/opencl"
	"tiny/shape"
)

// buf returns a buffer of dtype d holding vs (int64s written as such, so
// that values beyond 2**53 are exact).
func buf(d codegen.DType, vs ...any) *devices.Buffer {
	b := devices.Alloc(d, len(vs))
	for i, v := range vs {
		switch v := v.(type) {
		case int64:
			devices.Elems[int64](b)[i] = v
		case float64:
			kt.Set(b, i, v)
		case int:
			kt.Set(b, i, float64(v))
		}
	}
	return b
}

var (
	nan     = math.NaN()
	inf     = math.Inf(1)
	negZero = math.Copysign(0, -1)
	i32     = codegen.Int32
)

// The semantics of the uops at their edges, as the reference device
// defines them and the CPU and CLANG devices compute them: integer
// overflow wraps, division by zero gives 0, float to integer truncates
// toward zero as codegen.FloatToInt says (what NumPy and torch give on
// x86-64: -2**31 for what int32 cannot hold, its low bits for the narrower
// dtypes), NaN propagates through MAX and is unequal to
// itself, float16 rounds to nearest even and overflows to infinity, a
// conversion rounds once, and the transcendentals give IEEE's values at
// zeros, infinities, NaN and outside their domains.
func TestSemantics(t *testing.T) {
	u8, u32, i64, f16, b := codegen.Uint8, codegen.Uint32, codegen.Int64, codegen.Float16, codegen.Bool
	cases := []struct {
		name string
		op   codegen.Op
		out  codegen.DType
		in   []*devices.Buffer
		want []float64
	}{
		{"int32 idiv", codegen.OpIDiv, i32, []*devices.Buffer{buf(i32, 7, -7, 7, math.MinInt32, 5), buf(i32, 2, 2, 0, -1, -1)}, []float64{3, -3, 0, math.MinInt32, -5}},
		{"int32 mod", codegen.OpMod, i32, []*devices.Buffer{buf(i32, 7, -7, 7, math.MinInt32, 5), buf(i32, 2, 2, 0, -1, -3)}, []float64{1, -1, 0, 0, 2}},
		{"int32 add wraps", codegen.OpAdd, i32, []*devices.Buffer{buf(i32, math.MaxInt32, math.MinInt32), buf(i32, 1, -1)}, []float64{math.MinInt32, math.MaxInt32}},
		{"int32 mul wraps", codegen.OpMul, i32, []*devices.Buffer{buf(i32, 65536, -3), buf(i32, 65536, 5)}, []float64{0, -15}},
		{"uint8 sub wraps", codegen.OpSub, u8, []*devices.Buffer{buf(u8, 0, 200), buf(u8, 1, 100)}, []float64{255, 100}},
		{"uint8 mul wraps", codegen.OpMul, u8, []*devices.Buffer{buf(u8, 16, 15), buf(u8, 16, 17)}, []float64{0, 255}},
		{"uint32 idiv", codegen.OpIDiv, u32, []*devices.Buffer{buf(u32, math.MaxUint32, 9), buf(u32, 2, 0)}, []float64{math.MaxUint32 / 2, 0}},
		{"uint32 max", codegen.OpMax, u32, []*devices.Buffer{buf(u32, math.MaxUint32, 1), buf(u32, 1, 2)}, []float64{math.MaxUint32, 2}},
		{"uint32 cmplt", codegen.OpCmpLt, b, []*devices.Buffer{buf(u32, math.MaxUint32, 1), buf(u32, 1, 2)}, []float64{0, 1}},
		{"float max", codegen.OpMax, f32, []*devices.Buffer{buf(f32, nan, 1, -inf, 3), buf(f32, 1, nan, inf, 2)}, []float64{nan, nan, inf, 3}},
		// A tie gives the first operand: torch's maximum(-0.0, 0.0) is -0.0.
		{"float max ties", codegen.OpMax, f32, []*devices.Buffer{buf(f32, negZero, 0.0, negZero, 0.0, 1), buf(f32, 0.0, negZero, negZero, 0.0, 1)}, []float64{negZero, 0, negZero, 0, 1}},
		// MOD of floats is the exact fmod, with the dividend's sign.
		{"float mod", codegen.OpMod, f32, []*devices.Buffer{buf(f32, 5, -5, 5, 1e30, 7, negZero, 5, inf, nan, -7.5),
			buf(f32, inf, inf, 0, 3, 1e-30, 2, nan, 2, 2, 2)},
			[]float64{5, -5, nan, float64(float32(math.Mod(float64(float32(1e30)), 3))), float64(float32(math.Mod(7, float64(float32(1e-30))))), negZero, nan, nan, nan, -1.5}},
		{"float cmpne", codegen.OpCmpNe, b, []*devices.Buffer{buf(f32, nan, 1, 0), buf(f32, nan, 1, math.Copysign(0, -1))}, []float64{1, 0, 0}},
		{"float cmpeq", codegen.OpCmpEq, b, []*devices.Buffer{buf(f32, nan, 1, 0), buf(f32, nan, 1, math.Copysign(0, -1))}, []float64{0, 1, 1}},
		{"float cmplt", codegen.OpCmpLt, b, []*devices.Buffer{buf(f32, nan, 1, -inf), buf(f32, 1, nan, inf)}, []float64{0, 0, 1}},
		{"float div", codegen.OpDiv, f32, []*devices.Buffer{buf(f32, 1, -1, 0, 1), buf(f32, 0, 0, 0, 3)}, []float64{inf, -inf, nan, float64(float32(1.0 / 3))}},
		{"float to int32", codegen.OpCast, i32, []*devices.Buffer{buf(f32, -2.7, 2.7, -0.5, 65519)}, []float64{-2, 2, 0, 65519}},
		{"float to uint8", codegen.OpCast, u8, []*devices.Buffer{buf(f32, -1.5, 255.9, 256, 300)}, []float64{255, 255, 0, 44}},
		{"float to int32 out of range", codegen.OpCast, i32, []*devices.Buffer{buf(f32, 1e30, -1e30, 3e9, -3e9, nan, inf, -inf, 2147483520, -2147483648)},
			[]float64{math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, 2147483520, math.MinInt32}},
		{"double to int32 out of range", codegen.OpCast, i32, []*devices.Buffer{buf(codegen.Float64, 2147483647.9, -2147483648.9, 2147483648, nan)},
			[]float64{math.MaxInt32, math.MinInt32, math.MinInt32, math.MinInt32}},
		{"float to uint8 out of range", codegen.OpCast, u8, []*devices.Buffer{buf(f32, 3e9, nan, 1e30, 70000)}, []float64{0, 0, 0, 112}},
		{"float to int16 out of range", codegen.OpCast, codegen.Int16, []*devices.Buffer{buf(f32, 3e9, -3e9, 70000, -3.7)}, []float64{0, 0, 4464, -3}},
		{"float to int64 out of range", codegen.OpCast, i64, []*devices.Buffer{buf(f32, 1e30, nan, -inf, 3e9)}, []float64{math.MinInt64, math.MinInt64, math.MinInt64, 3e9}},
		{"float to uint32", codegen.OpCast, u32, []*devices.Buffer{buf(f32, -3.7, 3e9, -3e9, 1e30)}, []float64{4294967293, 3e9, 1294967296, 0}},
		{"float to bool", codegen.OpCast, b, []*devices.Buffer{buf(f32, nan, 0, math.Copysign(0, -1), 0.1)}, []float64{1, 0, 0, 1}},
		{"float to float16", codegen.OpCast, f16, []*devices.Buffer{buf(f32, 65519, 65520, 1+1.0/2048, 1+3.0/2048, 2.7, 1e-8, nan)},
			[]float64{65504, inf, 1, 1 + 2.0/1024, 2.69921875, 0, nan}},
		{"int32 to float", codegen.OpCast, f32, []*devices.Buffer{buf(i32, 16777217, -16777219)}, []float64{16777216, -16777220}},
		// 2**53 + 2**29 + 1 rounds once, up: through float64 it would
		// become 2**53 + 2**29, then a tie rounded to even, 2**53.
		{"int64 to float", codegen.OpCast, f32, []*devices.Buffer{buf(i64, int64(1<<53+1<<29+1))}, []float64{1<<53 + 1<<30}},
		{"int64 to uint8", codegen.OpCast, u8, []*devices.Buffer{buf(i64, int64(-1), int64(257))}, []float64{255, 1}},
		{"exp2", codegen.OpExp2, f32, []*devices.Buffer{buf(f32, -inf, inf, nan, 200, -200, 0, 3, -2)}, []float64{0, inf, nan, inf, 0, 1, 8, 0.25}},
		{"log2", codegen.OpLog2, f32, []*devices.Buffer{buf(f32, 0, -1, inf, nan, 1, 8, -inf, 0.5)}, []float64{-inf, nan, inf, nan, 0, 3, nan, -1}},
		{"sqrt", codegen.OpSqrt, f32, []*devices.Buffer{buf(f32, -1, inf, nan, 0, 4, -inf)}, []float64{nan, inf, nan, 0, 2, nan}},
		{"sin", codegen.OpSin, f32, []*devices.Buffer{buf(f32, inf, -inf, nan, 0)}, []float64{nan, nan, nan, 0}},
		{"recip", codegen.OpRecip, f32, []*devices.Buffer{buf(f32, 0, math.Copysign(0, -1), inf, nan, 4)}, []float64{inf, -inf, 0, nan, 0.25}},
	}
	devs := testDevices(t)
	for _, c := range cases {
		n := c.in[0].Len
		s := shape.FromInts(n)
		src := make([]*codegen.Node, len(c.in))
		specs := make([]codegen.BufSpec, len(c.in))
		for i, x := range c.in {
			src[i] = kt.Load(i+1, x.DType, s)
			specs[i] = kt.Spec(x.DType, n)
		}
		k := kt.Kernel(s, kt.Op(c.op, c.out, src...), specs...)
		p, err := codegen.Lower(k, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for name, d := range devs {
			r, err := d.Compile(p)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, c.name, err)
			}
			out := devices.Alloc(c.out, n)
			if err := r.Run(append([]*devices.Buffer{out}, c.in...), nil); err != nil {
				t.Fatalf("%s: %s: %v", name, c.name, err)
			}
			for i, w := range c.want {
				// (A zero's sign counts: -0.0 is not 0.0 here.)
				if g := kt.Get(out, i); (g != w || math.Signbit(g) != math.Signbit(w)) && !(math.IsNaN(g) && math.IsNaN(w)) {
					t.Errorf("%s: %s: element %d = %v, want %v", name, c.name, i, g, w)
				}
			}
		}
	}
}

// A program that indexes outside a buffer or names an op that is not a
// uop fails with an error that says where, never a crash.
func TestBadPrograms(t *testing.T) {
	d, _ := devices.Open("REF", devices.Options{})
	p := &codegen.Program{Name: "bad", Bufs: []codegen.BufSpec{kt.Spec(f32, 2)}, UOps: []codegen.UOp{
		{Op: codegen.OpDefineGlobal, DType: f32, Buf: 0},
		{Op: codegen.OpConst, DType: codegen.Index, Val: 5},
		{Op: codegen.OpConst, DType: f32, Val: 1},
		{Op: codegen.OpStore, DType: f32, Src: []int{0, 1, 2}},
	}}
	r, err := d.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	err = r.Run([]*devices.Buffer{devices.Alloc(f32, 2)}, nil)
	if err == nil || !strings.Contains(err.Error(), "uop 3 (STORE): element 5 of a float32 buffer of 2") {
		t.Errorf("out of range: err = %v", err)
	}
	p.UOps[3] = codegen.UOp{Op: codegen.OpReduce, DType: f32, Src: []int{2}}
	if _, err := d.Compile(p); err == nil || !strings.Contains(err.Error(), "uop 3 (REDUCE_AXIS): not an op a device runs") {
		t.Errorf("not a uop: err = %v", err)
	}
	p.UOps[3] = codegen.UOp{Op: codegen.OpAdd, DType: f32, Src: []int{2, 3}}
	if _, err := d.Compile(p); err == nil || !strings.Contains(err.Error(), "operand 3 is not an earlier uop") {
		t.Errorf("operand after the uop: err = %v", err)
	}
}

// testDevices opens REF, CPU and, where a C compiler works, CLANG.
func testDevices(t *testing.T) map[string]devices.Device {
	devs := map[string]devices.Device{}
	for _, name := range []string{"REF", "CPU", "CLANG", "GPU"} {
		if name == "CLANG" {
			if _, err := clang.Available(); err != nil {
				t.Logf("CLANG not tested: %v", err)
				continue
			}
		}
		if name == "GPU" {
			if _, err := opencl.Available(); err != nil {
				t.Logf("GPU not tested: %v", err)
				continue
			}
		}
		d, err := devices.Open(name, devices.Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		devs[name] = d
	}
	return devs
}

// A float MULACC is rounded once on every device: x*y + z where the
// product rounded first would cancel to 0, elementwise in float32 and
// float64, and a matmul's multiply-add ACCUMs (a register tile) whose
// second step does the same.
func TestMulAccFused(t *testing.T) {
	e32, e64 := math.Ldexp(1, -12), math.Ldexp(1, -27)
	f64 := codegen.Float64
	ew := func(d codegen.DType, x, y, z float64) *codegen.Kernel {
		s := shape.FromInts(3)
		v := kt.Op(codegen.OpAdd, d, kt.Op(codegen.OpMul, d, kt.Load(1, d, s), kt.Load(2, d, s)), kt.Load(3, d, s))
		return kt.Kernel(s, v, kt.Spec(d, 3), kt.Spec(d, 3), kt.Spec(d, 3))
	}
	// (4, 16) = (4, 2) @ (2, 16): out[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j].
	m, n, k := 4, 16, 2
	a := kt.Must(shape.FromInts(m, 1, k).ExpandInts([]int{m, n, k}))
	b := kt.Must(kt.Must(kt.Must(shape.FromInts(k, n).Permute([]int{1, 0})).ReshapeInts([]int{1, n, k})).ExpandInts([]int{m, n, k}))
	mm := kt.Kernel(shape.FromInts(m, n, 1), kt.Reduce(codegen.OpAdd, f32, []int{2},
		kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, b))), kt.Spec(f32, m*k), kt.Spec(f32, k*n))
	bm := make([]any, k*n)
	for j := range n {
		bm[j], bm[n+j] = -(1 + 2*e32), 1+e32
	}
	cases := []struct {
		name string
		k    *codegen.Kernel
		in   []*devices.Buffer
		want float64
	}{
		{"float32", ew(f32, 0, 0, 0), []*devices.Buffer{buf(f32, 1+e32, 1+e32, 1+e32), buf(f32, 1+e32, 1+e32, 1+e32), buf(f32, -(1 + 2*e32), -(1 + 2*e32), -(1 + 2*e32))}, e32 * e32},
		{"float64", ew(f64, 0, 0, 0), []*devices.Buffer{buf(f64, 1+e64, 1+e64, 1+e64), buf(f64, 1+e64, 1+e64, 1+e64), buf(f64, -(1 + 2*e64), -(1 + 2*e64), -(1 + 2*e64))}, e64 * e64},
		{"matmul", mm, []*devices.Buffer{buf(f32, 1.0, 1+e32, 1.0, 1+e32, 1.0, 1+e32, 1.0, 1+e32), buf(f32, bm...)}, e32 * e32},
	}
	for name, d := range testDevices(t) {
		for _, c := range cases {
			p, err := codegen.Lower(c.k, codegen.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !p.Opts.Has(codegen.OptMulAcc) || p.Opts.Has(codegen.OptSplit) {
				t.Fatalf("%s: want a MULACC in one global loop over outputs: %s", c.name, p.Opts)
			}
			r, err := d.Compile(p)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, c.name, err)
			}
			out := devices.Alloc(c.k.Bufs[0].DType, c.k.Bufs[0].Size)
			if err := r.Run(append([]*devices.Buffer{out}, c.in...), nil); err != nil {
				t.Fatalf("%s: %s: %v", name, c.name, err)
			}
			for i := range out.Len {
				if g := kt.Get(out, i); g != c.want {
					t.Errorf("%s: %s: element %d = %v, want %v (rounded once)", name, c.name, i, g, c.want)
				}
			}
		}
	}
}
