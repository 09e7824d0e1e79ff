package codegen

import (
	"slices"
	"strings"
	"testing"

	"tiny/shape"
)

func load(buf int, d DType, st shape.Tracker) *Node {
	return &Node{Op: OpLoad, DType: d, Buf: buf, ST: st}
}

func store(d DType, st shape.Tracker, v *Node) *Node {
	return &Node{Op: OpStore, DType: d, Buf: 0, ST: st, Src: []*Node{v}}
}

func alu(op Op, d DType, src ...*Node) *Node { return &Node{Op: op, DType: d, Src: src} }

func sum(axes []int, v *Node) *Node {
	return &Node{Op: OpReduce, DType: v.DType, ReduceOp: OpAdd, Axes: axes, Src: []*Node{v}}
}

func must(st shape.Tracker, err error) shape.Tracker {
	if err != nil {
		panic(err)
	}
	return st
}

func lower(t *testing.T, k *Kernel, opts Options) *Program {
	t.Helper()
	p, err := Lower(k, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// count returns how many uops of p have op (and, for RANGE, kind).
func count(p *Program, op Op, kind ...RangeKind) int {
	n := 0
	for _, u := range p.UOps {
		if u.Op == op && (len(kind) == 0 || u.Kind == kind[0]) {
			n++
		}
	}
	return n
}

func TestDocExample(t *testing.T) {
	s := shape.FromInts(3)
	two := must(shape.FromInts(1).ExpandInts([]int{3}))
	k := &Kernel{AST: store(Int32, s, alu(OpAdd, Int32, load(1, Int32, s), &Node{Op: OpConst, DType: Int32, Val: 2, ST: two})),
		Bufs: []BufSpec{{Int32, 3}, {Int32, 3}}}
	p := lower(t, k, Options{})
	want := `   0 CONST        : index   [] 0
   1 CONST        : index   [] 3
   2 DEFINE_GLOBAL: int32   [] data1
   3 CONST        : int32   [] 2
   4 DEFINE_GLOBAL: int32   [] data0
   5 RANGE        : index   [0, 1] ridx0 global
   6   LOAD         : int32   [2, 5]
   7   ADD          : int32   [6, 3]
   8   STORE        : int32   [4, 5, 7]
   9 ENDRANGE     : index   [5]
`
	if got := p.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if p.Name != "E_3" || KernelName(k) != "E_3" {
		t.Errorf("name %s", p.Name)
	}
}

func TestMerge(t *testing.T) {
	s := shape.FromInts(4096, 4096)
	k := &Kernel{AST: store(Float32, s, alu(OpAdd, Float32, load(1, Float32, s), load(2, Float32, s))),
		Bufs: []BufSpec{{Float32, 1 << 24}, {Float32, 1 << 24}, {Float32, 1 << 24}}}
	p := lower(t, k, Options{})
	if p.Name != "E_16777216" || p.Global != 1<<24 || count(p, OpRange) != 1 {
		t.Errorf("contiguous add: want one loop of 16M, got %s\n%s", p.Name, p)
	}
	if p.Flops != 1<<24 || p.Bytes != 3*4<<24 {
		t.Errorf("estimates: %d flops %d bytes", p.Flops, p.Bytes)
	}
	if p := lower(t, k, Options{NoMerge: true}); count(p, OpRange) != 2 {
		t.Errorf("NoMerge: want two loops\n%s", p)
	}
	tr := must(shape.FromInts(64, 32).Permute([]int{1, 0}))
	s2 := shape.FromInts(32, 64)
	k = &Kernel{AST: store(Float32, s2, alu(OpAdd, Float32, load(1, Float32, s2), load(2, Float32, tr))),
		Bufs: []BufSpec{{Float32, 2048}, {Float32, 2048}, {Float32, 2048}}}
	if p := lower(t, k, Options{Target: &Target{}}); count(p, OpRange) != 2 || p.Name != "E_32_64" {
		t.Errorf("a transposed input must keep two loops, got %s\n%s", p.Name, p)
	}
}

func TestReduceOrder(t *testing.T) {
	full := shape.FromInts(4096, 4096)
	rows := &Kernel{AST: store(Float32, shape.FromInts(4096, 1), sum([]int{1}, load(1, Float32, full))),
		Bufs: []BufSpec{{Float32, 4096}, {Float32, 1 << 24}}}
	p := lower(t, rows, Options{Target: &Target{}})
	// Blocks of 16 (cascade.go): the sum, its compensation, a block's sum.
	if count(p, OpRange, RangeInner) != 0 || count(p, OpRange, RangeReduce) != 2 || count(p, OpDefineAcc) != 3 || p.Name != "r_4096_4096" {
		t.Errorf("sum over axis 1: want the reduce loops innermost, in two levels\n%s", p)
	}
	cols := &Kernel{AST: store(Float32, shape.FromInts(1, 4096), sum([]int{0}, load(1, Float32, full))),
		Bufs: []BufSpec{{Float32, 4096}, {Float32, 1 << 24}}}
	p = lower(t, cols, Options{})
	// The whole output row inside the reduce, whose rows the workers share
	// in parts (each walking whole rows of the input), into partials.
	if count(p, OpRange, RangeInner) != 4 || !strings.Contains(p.String(), "x4096") || count(p, OpDefineAcc) != 3 ||
		!p.SplitReduce || p.Global != 16 || !slices.Equal(p.Opts[:2], Opts{{OptInner, 1, 4096}, {OptSplit, 0, 16}}) {
		t.Errorf("sum over axis 0: want whole rows accumulated into partial output rows\n%s", p)
	}
	if p := lower(t, cols, Options{NoReorder: true}); count(p, OpRange, RangeInner) != 0 {
		t.Errorf("NoReorder: want no inner loop\n%s", p)
	}
	all := &Kernel{AST: store(Float32, shape.FromInts(1, 1), sum([]int{0, 1}, load(1, Float32, full))),
		Bufs: []BufSpec{{Float32, 1}, {Float32, 1 << 24}}}
	if p := lower(t, all, Options{}); !p.SplitReduce || p.Global < 2 || p.Name != "r_16777216" {
		t.Errorf("full sum: want a split reduce\n%s", p)
	}
}

func TestUnroll(t *testing.T) {
	full := shape.FromInts(100, 3)
	k := &Kernel{AST: store(Float32, shape.FromInts(100, 1), sum([]int{1}, load(1, Float32, full))),
		Bufs: []BufSpec{{Float32, 100}, {Float32, 300}}}
	p := lower(t, k, Options{})
	if count(p, OpDefineAcc) != 0 || count(p, OpLoad) != 3 || count(p, OpRange) != 1 {
		t.Errorf("a reduce over 3 must unroll into three loads\n%s", p)
	}
	if p := lower(t, k, Options{NoUnroll: true}); count(p, OpDefineAcc) != 1 {
		t.Errorf("NoUnroll: want an accumulator\n%s", p)
	}
}

func TestPaddedLoadIsGated(t *testing.T) {
	pad := must(shape.FromInts(3, 3).PadInts([][2]int{{1, 1}, {1, 1}}))
	s := shape.FromInts(5, 5)
	k := &Kernel{AST: store(Float32, s, load(1, Float32, pad)), Bufs: []BufSpec{{Float32, 25}, {Float32, 9}}}
	p := lower(t, k, Options{NoUnroll: true})
	found := false
	for _, u := range p.UOps {
		found = found || (u.Op == OpLoad && len(u.Src) == 3 && p.UOps[u.Src[2]].DType == Bool)
	}
	if !found {
		t.Errorf("want a gated load\n%s", p)
	}
}

// TestPeelPad checks that a pad's inner loop is cut at the pad's edges
// (PEEL): three loops, the interior's load gated only by the row's test,
// invariant in it, and the edges storing zeros without loading.
func TestPeelPad(t *testing.T) {
	pad := must(shape.FromInts(64, 100).PadInts([][2]int{{1, 1}, {2, 3}}))
	k := &Kernel{AST: store(Float32, shape.FromInts(66, 105), load(1, Float32, pad)), Bufs: []BufSpec{{Float32, 66 * 105}, {Float32, 6400}}}
	p := lower(t, k, Options{})
	if want := (Opts{{OptPeel, 1, 2}, {OptPeel, 1, 102}}); !slices.Equal(p.Opts, want) {
		t.Fatalf("want opts %s, got %s\n%s", want, p.Opts, p)
	}
	if n := count(p, OpRange); n != 4 || count(p, OpLoad) != 1 || count(p, OpStore) != 3 {
		t.Errorf("want a row loop around three pieces, one load\n%s", p)
	}
	// The gate is the row's test, computed outside the interior loop.
	for i, u := range p.UOps {
		if u.Op == OpLoad {
			if len(u.Src) != 3 || p.UOps[u.Src[2]].Op != OpAnd {
				t.Fatalf("want the interior's load gated by the row's test\n%s", p)
			}
			g := u.Src[2]
			r := slices.IndexFunc(p.UOps, func(v UOp) bool { return v.Op == OpRange && v.Name == "ridx2" })
			if g > r || r > i {
				t.Errorf("the interior's gate (uop %d) is not invariant in its loop (uop %d)\n%s", g, r, p)
			}
		}
	}
	if q := lower(t, k, Options{Skip: []OptOp{OptPeel}}); count(q, OpRange) != 2 || q.Opts.Has(OptPeel) {
		t.Errorf("Skip PEEL: want the plain two loops\n%s", q)
	}
}

// TestSharedChain lowers x = x + x sixty times: a DAG whose tree form has
// 2**60 nodes must lower in time linear in its depth.
func TestSharedChain(t *testing.T) {
	s := shape.FromInts(4, 3)
	x := load(1, Float32, s)
	for range 60 {
		x = alu(OpAdd, Float32, x, x)
	}
	k := &Kernel{AST: store(Float32, s, x), Bufs: []BufSpec{{Float32, 12}, {Float32, 12}}}
	p := lower(t, k, Options{})
	if n := count(p, OpAdd); n != 60 {
		t.Errorf("want 60 ADDs, got %d\n%s", n, p)
	}
	red := &Kernel{AST: store(Float32, shape.FromInts(4, 1), sum([]int{1}, x)), Bufs: []BufSpec{{Float32, 4}, {Float32, 12}}}
	if p := lower(t, red, Options{}); count(p, OpAdd) < 60 {
		t.Errorf("reduce of the chain: want at least 60 ADDs\n%s", p)
	}
}

// TestNeverValidLoad lowers loads whose mask is empty everywhere (a shrink
// into padding) to the constant 0, on shapes where dropping the size-1 axes
// would otherwise need a view the empty mask cannot be carried into.
func TestNeverValidLoad(t *testing.T) {
	for _, sh := range [][]int{{1, 1}, {1}, {3, 1}, {2, 4}} {
		pads, shr := make([][2]int, len(sh)), make([][2]int, len(sh))
		for a, d := range sh {
			shr[a] = [2]int{0, d}
		}
		last := len(sh) - 1
		pads[last] = [2]int{0, sh[last]}
		shr[last] = [2]int{sh[last], 2 * sh[last]}
		st := must(must(shape.FromInts(sh...).PadInts(pads)).ShrinkInts(shr))
		s := shape.FromInts(sh...)
		k := &Kernel{AST: store(Float32, s, alu(OpAdd, Float32, load(1, Float32, st), load(2, Float32, s))),
			Bufs: []BufSpec{{Float32, 8}, {Float32, 8}, {Float32, 8}}}
		p := lower(t, k, Options{})
		for _, u := range p.UOps {
			if u.Op == OpDefineGlobal && u.Buf == 1 {
				t.Errorf("%v: a never-valid load must not read its buffer\n%s", sh, p)
			}
		}
		red := &Kernel{AST: store(Float32, shape.FromInts(1), sum([]int{0}, load(1, Float32, must(st.ReshapeInts([]int{prodInts(sh)}))))),
			Bufs: []BufSpec{{Float32, 1}, {Float32, 8}}}
		lower(t, red, Options{})
	}
}

func prodInts(s []int) int {
	p := 1
	for _, d := range s {
		p *= d
	}
	return p
}

// TestMixedLayoutReduce: a per-channel sum of a channels-innermost tensor
// times a channels-outer one (BatchNorm's backward after a conv) walks the
// channels inside the reduce, so that no load uses one float a cache line;
// with both tensors channels-outer the reduce stays innermost.
func TestMixedLayoutReduce(t *testing.T) {
	nhwc := must(shape.FromInts(8, 6, 6, 32).Permute([]int{0, 3, 1, 2}))
	nchw := shape.FromInts(8, 32, 6, 6)
	out := shape.FromInts(1, 32, 1, 1)
	k := func(a shape.Tracker) *Kernel {
		return &Kernel{AST: store(Float32, out, sum([]int{0, 2, 3}, alu(OpMul, Float32, load(1, Float32, a), load(2, Float32, nchw)))),
			Bufs: []BufSpec{{Float32, 32}, {Float32, 8 * 32 * 36}, {Float32, 8 * 32 * 36}}}
	}
	if p := lower(t, k(nhwc), Options{}); !slices.ContainsFunc(p.Opts, func(o Opt) bool { return o.Op == OptInner && o.Axis == 1 }) {
		t.Errorf("mixed layouts: want the channel axis inside the reduce, got %s\n%s", p.Opts, p)
	}
	if p := lower(t, k(nchw), Options{}); p.Opts.Has(OptInner) {
		t.Errorf("both channels-outer: want no inner output axis, got %s", p.Opts)
	}
}

// TestNestedReduce lowers argmax's form, a max inside the max of the
// positions equal to it, with lanes and without: two reduce nests one
// after the other, the inner one's value read from outside the outer
// one's loops (the CPU device runs a loop with no accumulator load as a
// run), and no split of the reduce across workers for a single output.
func TestNestedReduce(t *testing.T) {
	for _, sh := range [][]int{{8, 100}, {1, 5000}} {
		full := shape.FromInts(sh...)
		x := load(1, Float32, full)
		m := &Node{Op: OpReduce, DType: Float32, ReduceOp: OpMax, Axes: []int{1}, Src: []*Node{x}}
		pos := load(2, Int32, must(shape.FromInts(1, sh[1]).ExpandInts(sh)))
		eq := alu(OpMul, Int32, alu(OpCast, Int32, alu(OpCmpEq, Bool, x, m)), pos)
		outer := &Node{Op: OpReduce, DType: Int32, ReduceOp: OpMax, Axes: []int{1}, Src: []*Node{eq}}
		k := &Kernel{Name: "nested", AST: store(Int32, shape.FromInts(sh[0], 1), outer),
			Bufs: []BufSpec{{Int32, sh[0]}, {Float32, sh[0] * sh[1]}, {Int32, sh[1]}}}
		for _, tgt := range []Target{DefaultTarget, {}} {
			p := lower(t, k, Options{Target: &tgt})
			if p.SplitReduce || count(p, OpRange, RangeReduce) < 2 {
				t.Errorf("%v lanes %d: split %v, %d reduce loops, want two nests unsplit\n%s", sh, tgt.Lanes, p.SplitReduce, count(p, OpRange, RangeReduce), p)
			}
			depth := 0
			for _, u := range p.UOps {
				switch {
				case u.Op == OpRange && u.Kind == RangeReduce:
					depth++
				case u.Op == OpEnd && p.UOps[u.Src[0]].Kind == RangeReduce:
					depth--
				case u.Op == OpLoad && p.UOps[u.Src[0]].Op == OpDefineAcc && depth > 0:
					t.Errorf("%v lanes %d: an accumulator loaded inside a reduce loop\n%s", sh, tgt.Lanes, p)
				}
			}
		}
	}
}

// TestSpan checks Program.Span, the rows of the output each iteration of
// the global loop owns: every element of a merged elementwise kernel's one
// loop, a reduce's row per output row, the whole output's row-major rows
// for a transposed input (loops over the output's rows), and 0 where an
// iteration's writes are strided across the output (a store through a
// transposed view) or the last tile starts early (a shift).
func TestSpan(t *testing.T) {
	s := shape.FromInts(4096, 4096)
	k := &Kernel{AST: store(Float32, s, alu(OpAdd, Float32, load(1, Float32, s), load(2, Float32, s))),
		Bufs: []BufSpec{{Float32, 1 << 24}, {Float32, 1 << 24}, {Float32, 1 << 24}}}
	if p := lower(t, k, Options{}); p.Span == 0 || p.Span*p.Global != 1<<24 {
		t.Errorf("merged add: span %d, global %d", p.Span, p.Global)
	}
	in := shape.FromInts(64, 128)
	out := must(shape.FromInts(64, 1).ExpandInts([]int{64, 128}))
	k = &Kernel{AST: store(Float32, out, sum([]int{1}, load(1, Float32, in))), Bufs: []BufSpec{{Float32, 64}, {Float32, 64 * 128}}}
	if p := lower(t, k, Options{}); p.Span == 0 || p.Span*p.Global != 64 {
		t.Errorf("row sums: span %d, global %d", p.Span, p.Global)
	}
	tr := must(shape.FromInts(96, 40).Permute([]int{1, 0}))
	s2 := shape.FromInts(40, 96)
	k = &Kernel{AST: store(Float32, s2, load(1, Float32, tr)), Bufs: []BufSpec{{Float32, 3840}, {Float32, 3840}}}
	if p := lower(t, k, Options{}); p.Span != 96 || p.Global != 40 {
		t.Errorf("transposing copy: span %d, global %d, want 96 and 40\n%s", p.Span, p.Global, p)
	}
	k = &Kernel{AST: store(Float32, tr, load(1, Float32, s2)), Bufs: []BufSpec{{Float32, 3840}, {Float32, 3840}}}
	if p := lower(t, k, Options{NoMerge: true}); p.Span != 0 {
		t.Errorf("store through a transposed view: span %d, want 0\n%s", p.Span, p)
	}
	// A matmul's register tile of 6 rows: 16 tiles of 6 rows own 384
	// elements each; over 100 rows the last of 17 tiles starts early.
	for _, c := range []struct{ m, span int }{{96, 6 * 64}, {100, 0}} {
		const n, kk = 64, 64
		a := must(must(shape.FromInts(c.m, kk).ReshapeInts([]int{c.m, 1, kk})).ExpandInts([]int{c.m, n, kk}))
		b := must(must(must(shape.FromInts(kk, n).Permute([]int{1, 0})).ReshapeInts([]int{1, n, kk})).ExpandInts([]int{c.m, n, kk}))
		o := must(shape.FromInts(c.m, n, 1).ExpandInts([]int{c.m, n, kk}))
		k := &Kernel{AST: store(Float32, o, sum([]int{2}, alu(OpMul, Float32, load(1, Float32, a), load(2, Float32, b)))),
			Bufs: []BufSpec{{Float32, c.m * n}, {Float32, c.m * kk}, {Float32, kk * n}}}
		if p := lower(t, k, Options{Target: &AVX512Target}); p.Span != c.span {
			t.Errorf("matmul of %d rows: span %d, want %d\n%s", c.m, p.Span, c.span, p)
		}
	}
}
