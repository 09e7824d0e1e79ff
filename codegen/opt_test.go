package codegen

import (
	"slices"
	"strings"
	"testing"

	"tiny/shape"
)

// optKernels are kernels that between them get every kind of optimization
// under DefaultTarget or the small target of TestReplay.
func optKernels() []*Kernel {
	sq := shape.FromInts(64, 48)
	tr := must(shape.FromInts(48, 64).Permute([]int{1, 0}))
	c := &Node{Op: OpConst, DType: Float32, Val: 1.4426950408889634, ST: must(shape.FromInts(1, 1).ExpandInts([]int{64, 48}))}
	big := shape.FromInts(1 << 16)
	huge := shape.FromInts(1 << 23) // 32 MiB: a streamed store
	return []*Kernel{
		matmulKernel(64, 96, 40),
		convLikeKernel(128, 4, 32, 8),
		dotKernel(40, 48, 64), // b has more rows: SWAP
		{AST: store(Float32, shape.FromInts(1), sum([]int{0}, load(1, Float32, big))), Bufs: []BufSpec{{Float32, 1}, {Float32, 1 << 16}}},
		{AST: store(Float32, shape.FromInts(64, 1), sum([]int{1}, load(1, Float32, shape.FromInts(64, 4000)))), Bufs: []BufSpec{{Float32, 64}, {Float32, 64 * 4000}}},
		{AST: store(Float32, shape.FromInts(64, 1), sum([]int{1}, load(1, Float32, shape.FromInts(64, 4)))), Bufs: []BufSpec{{Float32, 64}, {Float32, 256}}},
		{AST: store(Float32, sq, load(1, Float32, tr)), Bufs: []BufSpec{{Float32, 64 * 48}, {Float32, 64 * 48}}},
		{AST: store(Float32, sq, alu(OpExp2, Float32, alu(OpMul, Float32, load(1, Float32, sq), c))), Bufs: []BufSpec{{Float32, 64 * 48}, {Float32, 64 * 48}}},
		{AST: store(Float32, shape.FromInts(66, 50), load(1, Float32, must(sq.PadInts([][2]int{{1, 1}, {1, 1}})))), Bufs: []BufSpec{{Float32, 66 * 50}, {Float32, 64 * 48}}},
		{AST: store(Float32, huge, alu(OpNeg, Float32, load(1, Float32, huge))), Bufs: []BufSpec{{Float32, 1 << 23}, {Float32, 1 << 23}}},
	}
}

// convLikeKernel returns a convolution's shape of matmul: out[b, y, o] =
// sum over c of x[b, y, c] * w[c, o], with x laid out (y, b, c) as a tiled
// convolution's input is, so that b and y do not merge.
func convLikeKernel(batch, pos, cout, cin int) *Kernel {
	x := must(must(must(shape.FromInts(pos, batch, cin).Permute([]int{1, 0, 2})).ReshapeInts([]int{batch, pos, 1, cin})).ExpandInts([]int{batch, pos, cout, cin}))
	w := must(must(must(shape.FromInts(cin, cout).Permute([]int{1, 0})).ReshapeInts([]int{1, 1, cout, cin})).ExpandInts([]int{batch, pos, cout, cin}))
	return &Kernel{AST: store(Float32, shape.FromInts(batch, pos, cout, 1), sum([]int{3}, alu(OpMul, Float32, load(1, Float32, x), load(2, Float32, w)))),
		Bufs: []BufSpec{{Float32, batch * pos * cout}, {Float32, batch * pos * cin}, {Float32, cin * cout}}}
}

var smallTarget = Target{Lanes: 4, Rows: 2, Cols: 8, Dot: 2, Tile: 4, Block: 16, Steps: 4}

// TestReplay lowers kernels, then lowers them again with their recorded
// optimizations: the Programs must be the same, and every kind must occur.
func TestReplay(t *testing.T) {
	seen := map[OptOp]bool{}
	for _, tgt := range []*Target{nil, &smallTarget} {
		for _, k := range optKernels() {
			p := lower(t, k, Options{Target: tgt})
			for _, o := range p.Opts {
				seen[o.Op] = true
			}
			q := lower(t, k, Options{Target: tgt, Replay: p.Opts})
			if q.String() != p.String() {
				t.Errorf("replaying %s did not give the same program:\n%s\nreplayed:\n%s", p.Opts, p, q)
			}
			// Nothing to replay: the plain lowering, with no opts.
			if r := lower(t, k, Options{Target: tgt, Replay: Opts{}}); len(r.Opts) != 0 {
				t.Errorf("an empty replay applied %s", r.Opts)
			}
		}
	}
	for _, op := range append(kinds(OptInner, OptStep), OptPeel, OptSwap) {
		if !seen[op] {
			t.Errorf("no kernel got %s", op)
		}
	}
}

// kinds returns the kinds from first to last.
func kinds(first, last OptOp) []OptOp {
	var out []OptOp
	for op := first; op <= last; op++ {
		out = append(out, op)
	}
	return out
}

// TestSkip turns each kind of optimization off in turn: the kind must be
// gone from the Opts and from the nest.
func TestSkip(t *testing.T) {
	for _, op := range append(kinds(OptInner, OptStep), OptPeel, OptSwap) {
		for _, k := range optKernels() {
			p := lower(t, k, Options{Target: &smallTarget, Skip: []OptOp{op}})
			if p.Opts.Has(op) {
				t.Errorf("Skip %s: still applied in %s", op, p.Opts)
			}
		}
	}
	p := lower(t, matmulKernel(64, 96, 40), Options{Skip: []OptOp{OptMulAcc}})
	if count(p, OpMulAcc) != 0 || strings.Contains(p.String(), "MULACC") {
		t.Errorf("Skip MULACC: a multiply-add is left\n%s", p)
	}
}

// TestOptsListed checks the register tile's record and its printing above
// the uops (what DEBUG=3 shows).
func TestOptsListed(t *testing.T) {
	p := lower(t, matmulKernel(64, 96, 40), Options{Target: &Target{Rows: 4, Cols: 32}})
	want := Opts{{OptInner, 1, 32}, {OptUpcast, 0, 4}}
	if len(p.Opts) < 2 || !slices.Equal(p.Opts[:2], want) {
		t.Errorf("want the tile %s first, got %s", want, p.Opts)
	}
	if !strings.HasPrefix(p.String(), "opts [INNER(1, 32) UPCAST(0, 4)") {
		t.Errorf("the listing does not start with the opts:\n%s", p)
	}
	if _, err := Lower(matmulKernel(64, 96, 40), Options{Replay: Opts{{OptInner, 2, 8}}}); err == nil {
		t.Errorf("replaying INNER along the reduce axis: want an error")
	}
}

// TestStreamOpt checks that RenderC streams a large output's store when
// the Program records STREAM, and only then.
func TestStreamOpt(t *testing.T) {
	k := optKernels()[len(optKernels())-1]
	p := lower(t, k, Options{})
	src := RenderC(p)
	if !p.Opts.Has(OptStream) || !strings.Contains(src, "tiny_stream(") {
		t.Errorf("want a streamed store, opts %s", p.Opts)
	}
	// Non-temporal stores for AVX-512 and for AVX alone (AVX2 machines).
	for _, w := range []string{"__builtin_ia32_movntps512(", "__builtin_ia32_movntps256("} {
		if !strings.Contains(src, w) {
			t.Errorf("the streaming prelude lacks %s", w)
		}
	}
	q := lower(t, k, Options{Skip: []OptOp{OptStream}})
	if strings.Contains(RenderC(q), "tiny_stream(") {
		t.Errorf("Skip STREAM: the store is still streamed")
	}
	// A streamed kernel is compiled without loop distribution into memcpy;
	// one computing a LOG2 also without PRE, both in one attribute (gcc
	// keeps the last of two).
	const nodist = `TINY_OPTIMIZE("no-tree-loop-distribute-patterns") void `
	if !strings.Contains(src, nodist) {
		t.Errorf("streamed: want %s", nodist)
	}
	if strings.Contains(RenderC(q), "TINY_OPTIMIZE(") {
		t.Errorf("not streamed: want no optimize attribute")
	}
	huge := shape.FromInts(1 << 23)
	lg := lower(t, &Kernel{AST: store(Float32, huge, alu(OpLog2, Float32, load(1, Float32, huge))), Bufs: []BufSpec{{Float32, 1 << 23}, {Float32, 1 << 23}}}, Options{})
	const both = `TINY_OPTIMIZE("no-tree-pre", "no-tree-loop-distribute-patterns") void `
	if s := RenderC(lg); !strings.Contains(s, both) || strings.Count(s, "TINY_OPTIMIZE(") != 3 {
		t.Errorf("streamed log2: want %s once before the kernel (beside the macro's definitions)", both)
	}
}

// TestStepOpt checks STEP: recorded for the reduce loop around a register
// tile when the target asks for steps, naming the tile StepTiles returns,
// and refused on a loop that holds no tile.
func TestStepOpt(t *testing.T) {
	k := matmulKernel(64, 96, 40)
	p := lower(t, k, Options{Target: &Target{Rows: 4, Cols: 32, Steps: 4}})
	tiles, steps := StepTiles(p)
	if len(tiles) != 1 || steps[0] != 4 || len(tiles[0].Accums) != 4 {
		t.Fatalf("want one tile of 4 rows stepped 4 times, got %v %v in\n%s", tiles, steps, p)
	}
	tl := tiles[0]
	if p.UOps[tl.Loop].Kind != RangeReduce || p.UOps[tl.Inner].Kind != RangeInner || !slices.Contains(p.Opts, Opt{OptStep, tl.Loop, 4}) {
		t.Errorf("STEP names loop %d, inner %d:\n%s", tl.Loop, tl.Inner, p)
	}
	for _, a := range tl.Accums {
		if s := tl.Scalar(p.UOps, a); s == tl.X || p.UOps[s].Op != OpLoad {
			t.Errorf("row %d: scalar %d", a, s)
		}
	}
	if q := lower(t, k, Options{Target: &Target{Rows: 4, Cols: 32}}); q.Opts.Has(OptStep) {
		t.Errorf("a target without Steps got %s", q.Opts)
	}
	if _, err := Lower(k, Options{Target: &Target{Rows: 4, Cols: 32, Steps: 4}, Replay: Opts{{OptInner, 1, 32}, {OptUpcast, 0, 4}, {OptStep, 0, 4}}}); err == nil {
		t.Errorf("replaying STEP on a loop without a tile: want an error")
	}
}
