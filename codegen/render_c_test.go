package codegen

import (
	"math"
	"slices"
	"strings"
	"testing"

	"tiny/shape"
)

func cLower(t *testing.T, root *Node, bufs ...BufSpec) *Program {
	t.Helper()
	k := &Kernel{AST: root, Bufs: bufs}
	k.Name = KernelName(k)
	p, err := Lower(k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func cLoad(buf int, st shape.Tracker) *Node {
	return &Node{Op: OpLoad, DType: Float32, Buf: buf, ST: st}
}

func cStore(st shape.Tracker, v *Node) *Node {
	return &Node{Op: OpStore, DType: v.DType, ST: st, Src: []*Node{v}}
}

func TestCConst(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		d    DType
		want string
	}{
		{2, Float32, "2.0f"}, {-0.5, Float64, "(-0.5)"}, {math.Inf(-1), Float32, "(-__builtin_inff())"},
		{math.NaN(), Float64, `__builtin_nan("")`}, {math.MinInt32, Int32, "(-2147483647-1)"},
		{math.MinInt64, Int64, "(-9223372036854775807LL-1)"}, {7, Index, "7LL"}, {1, Bool, "1"}, {255, Uint8, "255"},
		{1e-45, Float32, "1e-45f"},
	} {
		if got := cConst(tc.v, tc.d); got != tc.want {
			t.Errorf("cConst(%v, %s) = %s, want %s", tc.v, tc.d, got, tc.want)
		}
	}
}

// TestRenderCForms checks that the C follows codegen's loop shapes (the
// lanes of a row sum as one accumulator array kept in two vector variables
// through the reduce, a transpose's 16 x 16 tiles as four 8 x 8 register
// transposes of 4-byte elements, four loops for wider ones), the
// finish function of a split reduce, and the same text on every call (the
// cache key).
func TestRenderCForms(t *testing.T) {
	x := shape.FromInts(256, 256)
	rowSum := cLower(t, cStore(shape.FromInts(256, 1), &Node{Op: OpReduce, DType: Float32, ReduceOp: OpAdd, Axes: []int{1}, Src: []*Node{cLoad(1, x)}}),
		BufSpec{Float32, 256}, BufSpec{Float32, 256 * 256})
	tr := must2(x.Permute([]int{1, 0}))
	transpose := cLower(t, cStore(x, cLoad(1, tr)), BufSpec{Float32, 256 * 256}, BufSpec{Float32, 256 * 256})
	wide := &Node{Op: OpLoad, DType: Float64, Buf: 1, ST: tr}
	transpose64 := cLower(t, cStore(x, wide), BufSpec{Float64, 256 * 256}, BufSpec{Float64, 256 * 256})
	long := shape.FromInts(1 << 16)
	total := cLower(t, cStore(shape.FromInts(1), &Node{Op: OpReduce, DType: Float32, ReduceOp: OpMax, Axes: []int{0}, Src: []*Node{cLoad(1, long)}}),
		BufSpec{Float32, 1}, BufSpec{Float32, 1 << 16})
	for _, tc := range []struct {
		p    *Program
		want []string
	}{
		{rowSum, []string{"[16];", "tiny_v8 acc21_1 = {0};", "const long ridx2_1 = 8LL;", "__builtin_memcpy(&acc21[8], &acc21_1, sizeof acc21_1);"}},
		{transpose, []string{"for (long ridx0 = start; ridx0 < end; ridx0++)", "const long ridx2 = 0LL, ridx3 = 0LL;",
			"for (long ta = 0; ta < 16; ta += 8) for (long tb = 0; tb < 16; tb += 8)", "tiny_tr8(&data1[", " + ta + tb*256LL], 256LL, &data0[", " + ta*256LL + tb], 256LL);"}},
		{transpose64, []string{"for (long ridx0 = start; ridx0 < end; ridx0++)", "for (long ridx3 = 0LL; ridx3 < 16LL; ridx3++)"}},
		{total, []string{"void r_65536_finish(", "for (long step = 1; step < nparts; step *= 2)", "unsigned char* restrict part)"}},
	} {
		src := RenderC(tc.p)
		for _, w := range tc.want {
			if !strings.Contains(src, w) {
				t.Errorf("%s: source lacks %q:\n%s", tc.p.Name, w, src)
			}
		}
		if again := RenderC(tc.p); again != src {
			t.Errorf("%s: two renderings differ", tc.p.Name)
		}
	}
	if strings.Contains(RenderC(transpose64), "tiny_tr8") {
		t.Errorf("a transpose of 8-byte elements uses the 4-byte register transpose")
	}
	if abi := CABIOf(total); abi.Finish == "" || abi.PartBytes != 16*8 {
		t.Errorf("split reduce ABI %+v", abi)
	}
	if abi := CABIOf(rowSum); abi.Finish != "" || abi.Entry != "tiny_r_256_256" {
		t.Errorf("row sum ABI %+v", abi)
	}
}

func must2(st shape.Tracker, err error) shape.Tracker {
	if err != nil {
		panic(err)
	}
	return st
}

// TestRenderCPack checks that a matmul's B panel, which strides by a whole
// row per step of the reduce, is copied into a contiguous buffer before the
// loop over row tiles and read from there, as the Program's Opts say
// (PACK), not when OptPack is skipped, and that a panel already contiguous
// in the nest's order (a matmul with one column tile) is not.
func TestRenderCPack(t *testing.T) {
	mmOpts := func(m, n, k int, opts Options) *Program { return matmulProgram(t, m, n, k, opts) }
	mm := func(m, n, k int) *Program { return mmOpts(m, n, k, Options{}) }
	p := mm(64, 256, 128)
	if want := (Opt{Op: OptPack, Axis: 2, Arg: 128 * DefaultTarget.Cols}); !slices.Contains(p.Opts, want) {
		t.Errorf("matmul: Opts %s lack %s", p.Opts, want)
	}
	src := RenderC(p)
	// The pack reads one line of each row of B and asks for the line
	// beside it, the next column panel's, 16 floats on (prefetchNext), in
	// a loop of its own a line a step, so that the copy's loop is plain.
	for _, w := range []string{"static __thread float pk", "__builtin_memcpy(&v", "&pk", "ridx3 += 16) __builtin_prefetch(", " + 64LL), 0, 2);\n", "ridx3++) pk"} {
		if !strings.Contains(src, w) {
			t.Errorf("matmul: source lacks %q:\n%s", w, src)
		}
	}
	if q := mmOpts(64, 256, 128, Options{Skip: []OptOp{OptPack}}); q.Opts.Has(OptPack) || strings.Contains(RenderC(q), "__thread") {
		t.Errorf("PACK skipped, the panel is packed: %s", q.Opts)
	}
	// A batched matmul packs each batch's panels in a loop inside the
	// global one (the batches): the prefetch asks for that loop's next panel.
	const bs, bm, bn, bk = 4, 64, 128, 64
	a := must2(shape.FromInts(bs, bm, 1, bk).ExpandInts([]int{bs, bm, bn, bk}))
	b := must2(must2(must2(shape.FromInts(bs, bk, bn).Permute([]int{0, 2, 1})).ReshapeInts([]int{bs, 1, bn, bk})).ExpandInts([]int{bs, bm, bn, bk}))
	red := &Node{Op: OpReduce, DType: Float32, ReduceOp: OpAdd, Axes: []int{3}, Src: []*Node{{Op: OpMul, DType: Float32, Src: []*Node{cLoad(1, a), cLoad(2, b)}}}}
	bmm, err := Lower(&Kernel{AST: cStore(shape.FromInts(bs, bm, bn, 1), red), Bufs: []BufSpec{{Float32, bs * bm * bn}, {Float32, bs * bm * bk}, {Float32, bs * bk * bn}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if src := RenderC(bmm); !strings.Contains(src, "static __thread float pk") || !strings.Contains(src, " + 64LL), 0, 2);\n") {
		t.Errorf("batched matmul: the pack does not ask for the next panel:\n%s", src)
	}
	if src := RenderC(mm(64, DefaultTarget.Cols, 128)); strings.Contains(src, "__thread") {
		t.Errorf("one column tile: the contiguous panel is packed:\n%s", src)
	}
}

// matmulProgram lowers an (m, k) @ (k, n) float32 matmul under opts.
func matmulProgram(t *testing.T, m, n, k int, opts Options) *Program {
	t.Helper()
	a := must2(shape.FromInts(m, 1, k).ExpandInts([]int{m, n, k}))
	b := must2(must2(must2(shape.FromInts(k, n).Permute([]int{1, 0})).ReshapeInts([]int{1, n, k})).ExpandInts([]int{m, n, k}))
	red := &Node{Op: OpReduce, DType: Float32, ReduceOp: OpAdd, Axes: []int{2}, Src: []*Node{{Op: OpMul, DType: Float32, Src: []*Node{cLoad(1, a), cLoad(2, b)}}}}
	k0 := &Kernel{AST: cStore(shape.FromInts(m, n, 1), red), Bufs: []BufSpec{{Float32, m * n}, {Float32, m * k}, {Float32, k * n}}}
	p, err := Lower(k0, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRenderCVector16 checks that a matmul lowered for AVX512Target keeps
// its 6 x 64 register tile in 24 vectors of 16 floats that fold with
// tiny_fma16, and that DefaultTarget's keeps vectors of 8.
func TestRenderCVector16(t *testing.T) {
	p := matmulProgram(t, 96, 256, 128, Options{Target: &AVX512Target})
	src := RenderC(p)
	if !strings.Contains(p.String(), "\nvector 16 floats\n") {
		t.Errorf("the Program does not print its vector width:\n%s", p)
	}
	if p.Vector != 16 || strings.Contains(src, "tiny_v8") || !strings.Contains(src, "tiny_fma16(") {
		t.Errorf("Vector %d, want 16 and tiny_fma16 without tiny_v8:\n%s", p.Vector, src)
	}
	if n := strings.Count(src, "tiny_v16 acc"); n != 24 {
		t.Errorf("%d vector accumulators, want 24:\n%s", n, src)
	}
	if src := RenderC(matmulProgram(t, 96, 256, 128, Options{})); !strings.Contains(src, "tiny_fma8(") || strings.Contains(src, "tiny_v16") {
		t.Errorf("DefaultTarget: want vectors of 8:\n%s", src)
	}
}
