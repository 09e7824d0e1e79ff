package codegen

import (
	"slices"
	"strings"
	"testing"

	"tiny/shape"
)

// matmulKernel returns the kernel of (m, k) @ (k, n) as the scheduler
// builds it: (m, n, k) with the reduce over axis 2.
func matmulKernel(m, n, k int) *Kernel {
	a := must(shape.FromInts(m, 1, k).ExpandInts([]int{m, n, k}))
	b := must(must(must(shape.FromInts(k, n).Permute([]int{1, 0})).ReshapeInts([]int{1, n, k})).ExpandInts([]int{m, n, k}))
	return &Kernel{AST: store(Float32, shape.FromInts(m, n, 1), sum([]int{2}, alu(OpMul, Float32, load(1, Float32, a), load(2, Float32, b)))),
		Bufs: []BufSpec{{Float32, m * n}, {Float32, m * k}, {Float32, k * n}}}
}

// dotKernel returns the kernel of (m, k) @ (n, k).T: dot products of rows
// that are both contiguous, (m, n, k) with the reduce over axis 2.
func dotKernel(m, n, k int) *Kernel {
	a := must(shape.FromInts(m, 1, k).ExpandInts([]int{m, n, k}))
	b := must(shape.FromInts(1, n, k).ExpandInts([]int{m, n, k}))
	return &Kernel{AST: store(Float32, shape.FromInts(m, n, 1), sum([]int{2}, alu(OpMul, Float32, load(1, Float32, a), load(2, Float32, b)))),
		Bufs: []BufSpec{{Float32, m * n}, {Float32, m * k}, {Float32, n * k}}}
}

// loadsOf counts the LOADs of buffer buf in p.
func loadsOf(p *Program, buf int) int {
	n := 0
	for _, u := range p.UOps {
		if u.Op == OpLoad && p.UOps[u.Src[0]].Op == OpDefineGlobal && p.UOps[u.Src[0]].Buf == buf {
			n++
		}
	}
	return n
}

// rangeSizes lists the sizes of p's loops in program order.
func rangeSizes(p *Program) []int {
	var out []int
	for _, u := range p.UOps {
		if u.Op == OpRange {
			out = append(out, int(p.UOps[u.Src[1]].Val))
		}
	}
	return out
}

// TestRegisterTile checks the matmul nest: Rows copies along the rows,
// each with its own accumulators over Cols columns, sharing one load of the
// right operand per reduce step.
func TestRegisterTile(t *testing.T) {
	k := matmulKernel(64, 96, 40)
	tgt := Target{Rows: 4, Cols: 32}
	p := lower(t, k, Options{Target: &tgt})
	if n := count(p, OpDefineAcc); n != 4 {
		t.Errorf("want 4 accumulators (one per row copy), got %d\n%s", n, p)
	}
	for _, u := range p.UOps {
		if u.Op == OpDefineAcc && u.Size != 32 {
			t.Errorf("accumulator of %d, want 32 columns\n%s", u.Size, p)
		}
	}
	if a, b := loadsOf(p, 1), loadsOf(p, 2); a != 4 || b != 1 {
		t.Errorf("want 4 loads of the left operand (one per row) and 1 shared of the right, got %d and %d\n%s", a, b, p)
	}
	// column blocks, row blocks, reduce, columns, then the store loop
	if got, want := rangeSizes(p), []int{3, 16, 40, 32, 32}; !slices.Equal(got, want) {
		t.Errorf("loops %v, want %v\n%s", got, want, p)
	}
	// 1000 columns: the nearest divisor that is a whole vector, 40.
	p = lower(t, matmulKernel(16, 1000, 8), Options{Target: &Target{Rows: 8, Cols: 32}})
	for _, u := range p.UOps {
		if u.Op == OpDefineAcc && u.Size != 40 {
			t.Errorf("1000 columns: accumulator of %d, want 40\n%s", u.Size, p)
		}
	}
	// Too few rows for two tiles of 4: tiles of 3 where 3 divides them,
	// otherwise no copies, the plain inner loop.
	p = lower(t, matmulKernel(6, 96, 40), Options{Target: &tgt})
	if n := count(p, OpDefineAcc); n != 3 || !slices.Contains(p.Opts, Opt{OptUpcast, 0, 3}) {
		t.Errorf("6 rows by 4: want 3 row copies\n%s", p)
	}
	p = lower(t, matmulKernel(7, 96, 40), Options{Target: &tgt})
	if n := count(p, OpDefineAcc); n != 1 {
		t.Errorf("7 rows by 4: want no row copies\n%s", p)
	}
	// 25 rows in tiles of 6 would compute 30: 5 tiles of 5.
	p = lower(t, matmulKernel(25, 96, 40), Options{Target: &Target{Rows: 6, Cols: 16}})
	if !slices.Contains(p.Opts, Opt{OptUpcast, 0, 5}) {
		t.Errorf("25 rows by 6: want tiles of 5, got %s", p.Opts)
	}
	// 32 columns under AVX-512's 6 x 64 tile: 8 rows of 32 (16 of its 24
	// vector accumulators, where 6 rows kept 12); 64 or more: 6 x 64.
	p = lower(t, matmulKernel(96, 32, 40), Options{Target: &AVX512Target})
	if !slices.Contains(p.Opts, Opt{OptUpcast, 0, 8}) || !slices.Contains(p.Opts, Opt{OptInner, 1, 32}) {
		t.Errorf("32 columns, AVX512Target: want 8 x 32 tiles, got %s", p.Opts)
	}
	p = lower(t, matmulKernel(96, 128, 40), Options{Target: &AVX512Target})
	if !slices.Contains(p.Opts, Opt{OptUpcast, 0, 6}) || !slices.Contains(p.Opts, Opt{OptInner, 1, 64}) {
		t.Errorf("128 columns, AVX512Target: want 6 x 64 tiles, got %s", p.Opts)
	}
	for _, c := range []struct{ rows, cols, w, want int }{{6, 64, 32, 8}, {6, 64, 48, 8}, {6, 64, 16, 8}, {6, 64, 64, 6}, {6, 64, 12, 6}, {6, 16, 8, 8}, {4, 32, 16, 6}} {
		if got := tileRows(&Target{Rows: c.rows, Cols: c.cols}, c.w); got != c.want {
			t.Errorf("tileRows(%d x %d tile, %d columns) = %d, want %d", c.rows, c.cols, c.w, got, c.want)
		}
	}
}

// TestLanes checks a row sum keeping Lanes partial sums per row, folded in
// order after the reduce loop.
func TestLanes(t *testing.T) {
	full := shape.FromInts(8, 256)
	k := &Kernel{AST: store(Float32, shape.FromInts(8, 1), sum([]int{1}, load(1, Float32, full))), Bufs: []BufSpec{{Float32, 8}, {Float32, 8 * 256}}}
	p := lower(t, k, Options{Target: &Target{Lanes: 16}})
	if got, want := rangeSizes(p), []int{8, 16, 16}; !slices.Equal(got, want) {
		t.Errorf("loops %v, want %v (rows, groups, lanes)\n%s", got, want, p)
	}
	if !strings.Contains(p.String(), "x16") || count(p, OpAdd) < 15 {
		t.Errorf("want 16 lanes folded by 15 adds\n%s", p)
	}
	// A strided reduce axis gets no lanes.
	tr := must(shape.FromInts(256, 8).Permute([]int{1, 0}))
	k = &Kernel{AST: store(Float32, shape.FromInts(8, 1), sum([]int{1}, load(1, Float32, tr))), Bufs: []BufSpec{{Float32, 8}, {Float32, 8 * 256}}}
	if p := lower(t, k, Options{Target: &Target{Lanes: 16}}); strings.Contains(p.String(), "x16") {
		t.Errorf("strided reduce: want no lanes\n%s", p)
	}
	// A full reduce keeps its lanes when split across workers.
	all := &Kernel{AST: store(Float32, shape.FromInts(1), sum([]int{0}, load(1, Float32, shape.FromInts(1<<20)))), Bufs: []BufSpec{{Float32, 1}, {Float32, 1 << 20}}}
	p = lower(t, all, Options{Target: &Target{Lanes: 16}})
	if !p.SplitReduce || !strings.Contains(p.String(), "x16") {
		t.Errorf("full reduce: want a split reduce with lanes\n%s", p)
	}
}

// TestInnerAccs checks a sum over a middle axis: without a register tile,
// the output axis walked inside a long reduce is cut into tiles of
// Target.Accs accumulators, which the C renderer keeps in vector
// variables; a short reduce, one spanning more than an L2, or no Accs,
// keeps the whole axis inside.
func TestInnerAccs(t *testing.T) {
	mid := func(r int) *Kernel {
		return &Kernel{AST: store(Float32, shape.FromInts(4, 1, 256), sum([]int{1}, load(1, Float32, shape.FromInts(4, r, 256)))),
			Bufs: []BufSpec{{Float32, 4 * 256}, {Float32, 4 * r * 256}}}
	}
	accs := func(p *Program) []int {
		var out []int
		for _, u := range p.UOps {
			if u.Op == OpDefineAcc {
				out = append(out, u.Size)
			}
		}
		return out
	}
	p := lower(t, mid(64), Options{})
	if got := accs(p); !slices.Equal(got, []int{64}) || !p.Opts.Has(OptInner) {
		t.Errorf("default target: accumulators %v, want [64]\n%s", got, p)
	}
	// outer, column tiles, reduce, columns, then the store loop
	if got, want := rangeSizes(p), []int{4, 4, 64, 64, 64}; !slices.Equal(got, want) {
		t.Errorf("loops %v, want %v\n%s", got, want, p)
	}
	if src := RenderC(p); !strings.Contains(src, "tiny_v8 acc") || strings.Contains(src, "for (long ridx3 = 0LL; ridx3 < 64LL") {
		t.Errorf("want the 64 accumulators in vector variables, the column loop unrolled:\n%s", src)
	}
	if got := accs(lower(t, mid(64), Options{Target: &Target{Lanes: 16, Rows: 6, Cols: 16}})); !slices.Equal(got, []int{256}) {
		t.Errorf("no Accs: accumulators %v, want [256]", got)
	}
	if got := accs(lower(t, mid(4), Options{})); !slices.Equal(got, []int{256}) {
		t.Errorf("a reduce of 4: accumulators %v, want [256]", got)
	}
	// Rows of 4096 floats: one pass of the reduce spans 1 MiB, more than
	// an L2, so the inner loop keeps innerSize's 1024.
	wide := &Kernel{AST: store(Float32, shape.FromInts(2, 1, 4096), sum([]int{1}, load(1, Float32, shape.FromInts(2, 64, 4096)))),
		Bufs: []BufSpec{{Float32, 2 * 4096}, {Float32, 2 * 64 * 4096}}}
	if got := accs(lower(t, wide, Options{})); !slices.Equal(got, []int{1024}) {
		t.Errorf("a reduce spanning 1 MiB: accumulators %v, want [1024]", got)
	}
}

// TestTransposeTiles checks a transposed copy walking Tile x Tile tiles.
func TestTransposeTiles(t *testing.T) {
	tr := must(shape.FromInts(64, 32).Permute([]int{1, 0}))
	k := &Kernel{AST: store(Float32, shape.FromInts(32, 64), load(1, Float32, tr)), Bufs: []BufSpec{{Float32, 2048}, {Float32, 2048}}}
	p := lower(t, k, Options{Target: &Target{Tile: 8}})
	if got, want := rangeSizes(p), []int{4, 8, 8, 8}; !slices.Equal(got, want) {
		t.Errorf("loops %v, want %v\n%s", got, want, p)
	}
	// A contiguous copy is not tiled.
	s := shape.FromInts(32, 64)
	k = &Kernel{AST: store(Float32, s, load(1, Float32, s)), Bufs: []BufSpec{{Float32, 2048}, {Float32, 2048}}}
	if p := lower(t, k, Options{Target: &Target{Tile: 8}}); count(p, OpRange) != 1 {
		t.Errorf("contiguous copy: want one loop\n%s", p)
	}
}

// TestDot checks a @ b.T, dot products of contiguous rows: lanes along the
// reduce, both output axes upcast by Dot, each loaded vector shared by the
// copies along the other axis.
func TestDot(t *testing.T) {
	p := lower(t, dotKernel(32, 48, 64), Options{Target: &Target{Lanes: 16, Dot: 4}})
	if n := count(p, OpDefineAcc); n != 16 {
		t.Errorf("want 4 x 4 accumulators, got %d\n%s", n, p)
	}
	if la, lb := loadsOf(p, 1), loadsOf(p, 2); la != 4 || lb != 4 {
		t.Errorf("want 4 loads of each operand, got %d and %d\n%s", la, lb, p)
	}
	// b's 48 rows outside a's 32 (SWAP): a, swept inside, stays in cache.
	if got, want := rangeSizes(p), []int{12, 8, 4, 16}; !slices.Equal(got, want) || !p.Opts.Has(OptSwap) {
		t.Errorf("loops %v, want %v, and SWAP\n%s", got, want, p)
	}
	q := lower(t, dotKernel(32, 48, 64), Options{Target: &Target{Lanes: 16, Dot: 4}, Skip: []OptOp{OptSwap}})
	if got, want := rangeSizes(q), []int{8, 12, 4, 16}; !slices.Equal(got, want) {
		t.Errorf("Skip SWAP: loops %v, want %v\n%s", got, want, q)
	}
	r := lower(t, dotKernel(48, 32, 64), Options{Target: &Target{Lanes: 16, Dot: 4}})
	if got, want := rangeSizes(r), []int{12, 8, 4, 16}; !slices.Equal(got, want) || r.Opts.Has(OptSwap) {
		t.Errorf("a with more rows than b: loops %v, want %v, no SWAP\n%s", got, want, r)
	}
}

// storeCounts runs the index arithmetic of p (loops, constants, integer and
// boolean ops; float values are not computed) and counts how often each
// element of the output buffer 0 is stored, for n elements.
func storeCounts(t *testing.T, p *Program, n int) []int {
	t.Helper()
	counts := make([]int, n)
	vals := make([]int64, len(p.UOps))
	b2 := func(b bool) int64 {
		if b {
			return 1
		}
		return 0
	}
	for pc := 0; pc < len(p.UOps); pc++ {
		u := p.UOps[pc]
		arg := func(i int) int64 { return vals[u.Src[i]] }
		switch u.Op {
		case OpConst:
			vals[pc] = int64(u.Val)
		case OpRange:
			vals[pc] = arg(0)
			if vals[pc] >= arg(1) { // an empty loop: skip past its end
				for depth := 0; ; pc++ {
					if p.UOps[pc].Op == OpRange {
						depth++
					} else if p.UOps[pc].Op == OpEnd {
						if depth--; depth == 0 {
							break
						}
					}
				}
			}
		case OpEnd:
			r := u.Src[0]
			if vals[r]++; vals[r] < vals[p.UOps[r].Src[1]] {
				pc = r // the loop body starts after its RANGE
			}
		case OpAdd, OpMul, OpIDiv, OpMod, OpCmpLt, OpCmpNe, OpAnd:
			if u.DType != Index && u.DType != Bool {
				continue
			}
			x, y := arg(0), arg(1)
			vals[pc] = map[Op]int64{OpAdd: x + y, OpMul: x * y, OpCmpLt: b2(x < y), OpCmpNe: b2(x != y), OpAnd: x & y}[u.Op]
			if u.Op == OpIDiv {
				vals[pc] = x / y
			} else if u.Op == OpMod {
				vals[pc] = x % y
			}
		case OpStore:
			if g := p.UOps[u.Src[0]]; g.Op != OpDefineGlobal || g.Buf != 0 || (len(u.Src) > 3 && arg(3) == 0) {
				continue
			}
			i := arg(1)
			if i < 0 || i >= int64(n) {
				t.Fatalf("store to %d, outside the %d outputs\n%s", i, n, p)
			}
			counts[i]++
		}
	}
	return counts
}

// TestShiftedTiles checks register tiles over dims the tile does not
// divide: the last tile starts early, so no load is masked, and the store
// writes every output exactly once.
func TestShiftedTiles(t *testing.T) {
	targets := []Target{{Rows: 4, Cols: 16}, {Rows: 8, Cols: 32}, {Rows: 3, Cols: 8}, DefaultTarget}
	for _, tgt := range targets {
		for _, mn := range [][2]int{{37, 70}, {999, 133}, {16, 64}, {50, 1021}, {13, 17}} {
			m, n := mn[0], mn[1]
			p := lower(t, matmulKernel(m, n, 5), Options{Target: &tgt})
			for i, c := range storeCounts(t, p, m*n) {
				if c != 1 {
					t.Fatalf("target %+v, %dx%d: output %d stored %d times\n%s", tgt, m, n, i, c, p)
				}
			}
			for _, u := range p.UOps {
				if u.Op == OpLoad && p.UOps[u.Src[0]].Op == OpDefineGlobal && len(u.Src) > 2 {
					t.Errorf("target %+v, %dx%d: a masked load\n%s", tgt, m, n, p)
				}
			}
		}
	}
	// 37 rows by 4 make 10 tiles, the last starting at 33; 70 columns by 16
	// (no divisor near 16 is a multiple of 8) make 5 tiles, the last at 54.
	p := lower(t, matmulKernel(37, 70, 5), Options{Target: &Target{Rows: 4, Cols: 16}})
	if got, want := rangeSizes(p), []int{5, 10, 5, 16, 16}; !slices.Equal(got, want) {
		t.Errorf("loops %v, want %v\n%s", got, want, p)
	}
	if n := count(p, OpDefineAcc); n != 4 {
		t.Errorf("want 4 row copies, got %d accumulators\n%s", n, p)
	}
}

// TestLaneTail checks lanes over a reduce axis they do not divide: whole
// groups of lanes, then a tail loop folding the rest into the first lanes;
// a full reduce keeps whole groups only. a @ b.T with odd sizes also gets
// its dot copies, ending in shifted tiles, each output stored once.
func TestLaneTail(t *testing.T) {
	k := &Kernel{AST: store(Float32, shape.FromInts(8, 1), sum([]int{1}, load(1, Float32, shape.FromInts(8, 1000)))), Bufs: []BufSpec{{Float32, 8}, {Float32, 8000}}}
	p := lower(t, k, Options{Target: &Target{Lanes: 16}})
	// 62 groups: 3 blocks of 16 and a rest of 14 (cascade.go), then the tail;
	// each block's lanes added into the sum's, and the compensation at the end.
	if got, want := rangeSizes(p), []int{8, 3, 16, 16, 16, 14, 16, 16, 8, 16, 16}; !slices.Equal(got, want) {
		t.Errorf("loops %v, want %v (rows, blocks, groups, lanes, flush, rest, lanes, flush, tail, flush, compensation)\n%s", got, want, p)
	}
	all := &Kernel{AST: store(Float32, shape.FromInts(1), sum([]int{0}, load(1, Float32, shape.FromInts(1000)))), Bufs: []BufSpec{{Float32, 1}, {Float32, 1000}}}
	if p := lower(t, all, Options{Target: &Target{Lanes: 16}}); strings.Contains(p.String(), "x16") {
		t.Errorf("full reduce of 1000: want no lanes\n%s", p)
	}
	for _, mnk := range [][3]int{{37, 70, 999}, {16, 16, 33}, {50, 21, 40}} {
		m, n, kk := mnk[0], mnk[1], mnk[2]
		p := lower(t, dotKernel(m, n, kk), Options{Target: &Target{Lanes: 16, Dot: 4}})
		if n := count(p, OpDefineAcc); n != 16 {
			t.Errorf("%dx%dx%d: want 4 x 4 accumulators, got %d\n%s", m, n, kk, n, p)
		}
		for i, c := range storeCounts(t, p, m*n) {
			if c != 1 {
				t.Fatalf("%dx%dx%d: output %d stored %d times\n%s", m, n, kk, i, c, p)
			}
		}
	}
}

// positionsKernel returns a matmul repeated at p positions with the
// right operand shared, as a 1x1 convolution reads it: the left operand
// laid out (p, b, k), positions outermost, the output (b, p, n), the
// reduce over k.
func positionsKernel(b, p, n, k int) *Kernel {
	x := must(must(shape.FromInts(p, b, 1, k).Permute([]int{1, 0, 2, 3})).ExpandInts([]int{b, p, n, k}))
	w := must(must(must(shape.FromInts(k, n).Permute([]int{1, 0})).ReshapeInts([]int{1, 1, n, k})).ExpandInts([]int{b, p, n, k}))
	return &Kernel{AST: store(Float32, shape.FromInts(b, p, n, 1), sum([]int{3}, alu(OpMul, Float32, load(1, Float32, x), load(2, Float32, w)))),
		Bufs: []BufSpec{{Float32, b * p * n}, {Float32, p * b * k}, {Float32, k * n}}}
}

// TestRowBlock checks that the rows of a register tile walk in blocks
// when other output loops sit outside the tile: 32 where 32 divides the
// rows, else the nearest size from 16 to 64 that does (40 for 200 rows),
// none where no size does.
func TestRowBlock(t *testing.T) {
	for _, c := range []struct{ rows, want int }{{256, 32}, {200, 40}, {240, 40}, {208, 16}, {202, 0}} {
		p := lower(t, positionsKernel(c.rows, 9, 32, 64), Options{Target: &AVX512Target})
		got := 0
		for _, o := range p.Opts {
			if o.Op == OptRowBlock {
				got = o.Arg
			}
		}
		if got != c.want {
			t.Errorf("%d rows: row blocks of %d, want %d (opts %s)", c.rows, got, c.want, p.Opts)
		}
	}
}
