package codegen

import (
	"slices"
	"sort"
)

// This file defines the loop order of a lowered kernel: which axis each loop
// walks, which loops sit inside the accumulators, which axes are upcast into
// copies with their own accumulators (register tiles), which reduce loops
// keep lanes of partial accumulators, which elementwise loops run in square
// tiles, which small axes are unrolled, and which loop is split across
// workers.

// loop is one loop of the nest: its variable adds var*mul to axis. An
// upcast or unrolled loop is not a loop at run time: the body is emitted
// once for each of its size values.
//
// A tile loop whose mul does not divide its axis has a shift: its last
// iteration starts shift positions early, overlapping the one before, so
// every tile is whole and its loads stay in bounds with no mask; the store
// skips the positions the overlapped tile already wrote. (tinygrad pads
// such an axis with a mask instead, which gates every load in the tile.)
//
// A reduce loop with a rest (cascade.go) walks rest more positions of its
// axis after its last iteration, restMul apart: a loop of rest iterations
// in its place whose body is that of the loop restSkip levels inside it.
type loop struct {
	axis, size, mul int
	kind            RangeKind
	shift           int

	rest, restMul, restSkip int
}

// tileLoop returns the global loop over tiles of mul along an axis of n,
// the last one shifted back when mul does not divide n.
func tileLoop(axis, n, mul int) loop {
	size := (n + mul - 1) / mul
	return loop{axis: axis, size: size, mul: mul, kind: RangeGlobal, shift: size*mul - n}
}

// nest is the loop order chosen for a plan.
//
//	for outer...            (global output loops)
//	  acc[copy] = init      (one per reduce and upcast copy; an array when inner or lanes is set)
//	  for red...            (reduce loops)
//	    for inner...        (output loops walked inside the reduce)
//	      for lanes         (the last reduce axis, one accumulator per lane)
//	        each upcast copy: acc[copy][inner, lane] op= value
//	    for tail            (the lane axis's last positions, when lanes does not divide it)
//	      each upcast copy: acc[copy][tail] op= value
//	  for inner...
//	    each upcast copy: store post(acc[copy][inner] folded over its lanes)
//
// Unrolled axes take each of their values in turn inside the innermost loop.
type nest struct {
	outer, red, inner []loop
	lanes             []loop // at most one: the lanes of the innermost reduce axis
	tail              int    // lane-axis positions past the last whole group, folded into lanes 0..tail-1 after it
	tailAt            int    // the reduce loop after which the lane tail runs
	oneBlock          bool   // the float sums' reduce loops walk one block in all: no compensation (cascade.go)
	upcast            []loop // output axes emitted as copies with their own accumulators
	unroll            []loop // axes unrolled, each taking every value in [0, size)
	split             bool   // the first reduce loop is the global loop (SplitReduce)
	peel              []int  // positions the innermost output loop is cut at, increasing (PEEL)
}

// Target describes the loop shapes the device running a program executes
// well. Codegen shapes every nest for it; a zero field turns its
// optimization off.
type Target struct {
	// Lanes is the number of partial accumulators a reduce over a
	// contiguous axis keeps, one per lane, folded after the reduce loop:
	// the lane loop has no loop-carried dependency, so it vectorizes
	// without reassociating floating point.
	Lanes int
	// Rows and Cols shape the register tile of a reduce with an output axis
	// inside it (matmul): Rows copies of the body along the output axis
	// whose values some load does not depend on, each folding Cols
	// accumulators in an inner loop, so each load of the shared operand
	// serves Rows rows.
	Rows, Cols int
	// Dot upcasts a reduce with lanes (a @ b.T: dot products of rows that
	// are both contiguous): up to two output axes that some load does not
	// depend on are emitted Dot times each, every copy with its own lanes,
	// so each loaded vector serves Dot outputs.
	Dot int
	// Steps is the number of iterations a reduce loop around a register
	// tile applies per pass over its accumulators (STEP, step.go), for a
	// device that runs the tile's rows as runs of the inner loop.
	Steps int
	// Tile is the side of the square tiles an elementwise kernel whose
	// loads stride along its innermost axis (a transpose) walks, so each
	// cache line a tile touches is used whole.
	Tile int
	// Block bounds the innermost reduce loop of a kernel with a float sum
	// (0 means 256): each loop of its reduce folds into an accumulator of
	// its own, so that rounding errors grow like the log of the length
	// (cascade.go).
	Block int
	// Accs bounds the inner loop of an output axis walked inside a long
	// reduce without a register tile (a sum over a middle axis), so that
	// its accumulators fit in registers: the loop then walks the axis in
	// tiles of Accs, each over the whole reduce. 0: no bound, the inner
	// loop as innerSize chooses it (an accumulator array in memory, each
	// step of the reduce loading and storing every accumulator).
	Accs int
	// Vector is the number of float32 values in one vector register (8,
	// AVX2's 256 bits, when 0; 16 for AVX-512): the C renderer writes the
	// register tile's columns and reduce lanes as vectors of this width.
	Vector int
}

// DefaultTarget is the target of the C renderer: 16 float lanes (one
// 512-bit register), a 6 x 16 register tile (the C renderer keeps its 12
// vectors of 8 accumulators in AVX registers, render_c_vec.go, with the 2
// vectors of a step's panel and one broadcast row factor: 15 of the 16;
// one panel load serves 6 fused multiply-adds, where a 3 x 32 tile's
// served 3 and its 15 loads per 12 multiply-adds bound the loop), 4 x 4 dot
// products, 16 x 16 transpose tiles (each four 8 x 8 register transposes
// in RenderC, whose reads then use whole cache lines: the suite's 4096x4096
// transpose 16.5 against 20 ms with 8 x 8 tiles), and inner loops of 64 accumulators
// without a tile (8 vectors: x.sum(axis=1) of 64x256x256 took 1.5 ms on
// one thread in tiles of 64 against 2.3 ms with its 256 accumulators in an
// array, NumPy 1.3-2.0 ms).
var DefaultTarget = Target{Lanes: 16, Rows: 6, Cols: 16, Dot: 4, Tile: 16, Accs: 64}

// AVX512Target is DefaultTarget for a CPU with AVX-512 (the CLANG device
// chooses it, devices/clang/target.go): vectors of 16 floats, 32 registers,
// and a 6 x 64 register tile, 24 vector accumulators that each step feeds
// with 4 panel loads and 6 broadcasts. On a 2-core Xeon with AVX-512 (an
// FMA-only loop: 176 GFLOP/s a core against 94 with 256-bit vectors) the
// suite's matmul1024 took 8.7-9.3 ms against 16-19 with DefaultTarget,
// 10.4-14.9 with 8 x 32 tiles and 10.6-14.8 with 6 x 32 (alternated rounds).
// Lanes stay 16 (one vector): the sums fold in the same order as on AVX2,
// and 32 lanes were no faster.
var AVX512Target = func() Target {
	t := DefaultTarget
	t.Cols, t.Vector = 64, 16
	return t
}()

// Tuning constants.
const (
	lineFloats    = 16      // elements of 4 bytes in a 64-byte cache line
	maxLinesInner = 256     // an output axis walked inside a reduce for cache lines' sake is at most this long
	maxUnroll     = 8       // unroll an innermost loop of at most this many iterations
	maxUnrollProd = 32      // copies of the loop body at most
	minInner      = 16      // an output axis goes inside the reduce only when at least this long
	innerBlock    = 1024    // the largest inner (accumulator array) loop
	maxInnerAll   = 4096    // the largest single output axis walked whole inside the reduce
	maxPartFloats = 1 << 16 // a split reduce's parts times its accumulators per part, at most (when parts can be 8)
	minSplit      = 1 << 15
	maxLanes      = 64        // lanes are folded by unrolled code
	minShifted    = 4         // a tile that does not divide its axis needs at least this many tiles: the overlap then wastes under a quarter
	minAccsReduce = 32        // Target.Accs bounds the inner loop only of reduces at least this long: a short one (a blocked scan's 4) loads and stores its accumulators a few times, and the tiles would cut each input row into separate streams
	maxAccsSpan   = 512 << 10 // ... and only where one pass of the reduce spans at most this many bytes of each input (an L2): a pass over partial sums 100 KiB apart (beautiful_mnist's weight gradients, 256 x 25600) would touch a new page at each of its steps for 256 bytes
)

// order chooses the loop nest for pl, each decision through ch (opt.go):
// by the heuristics below, or replayed from a recorded list.
func (pl *plan) order(opts Options, ch *chooser) nest {
	var nt nest
	var gs, rs []int
	for a := range pl.shape {
		if pl.red[a] {
			rs = append(rs, a)
		} else {
			gs = append(gs, a)
		}
	}
	if pl.emptyReduce() {
		rs = nil // every reduce is its identity: no reduce loops
	}
	t := opts.Target
	u, row, rows, in := -1, -1, 0, 0
	if len(rs) > 0 && !opts.NoReorder {
		cost := pl.strideCost()
		sort.SliceStable(rs, func(i, j int) bool { return cost[rs[i]] > cost[rs[j]] })
		pick, pickRows := -1, t.Rows // the register tile's row axis the heuristics chose, and its rows
		if o, ok := ch.decide(OptInner, func() (Opt, bool) {
			u := -1
			for _, g := range gs {
				if u < 0 || cost[g] <= cost[u] {
					u = g
				}
			}
			if u < 0 || pl.shape[u] < minInner || cost[u] >= cost[rs[len(rs)-1]] && !pl.linesReused(u, rs[len(rs)-1]) {
				return Opt{}, false
			}
			if !ch.skips(OptUpcast) {
				pick, pickRows = pl.rowTile(gs, u, tileRows(t, pl.shape[u]))
			}
			cols := 0
			if pick >= 0 {
				cols = t.Cols // a register tile: the inner loop is its columns
			}
			in := innerSize(pl.shape[u], cols)
			if pick >= 0 && cols > 0 && badColumns(in, cols) && pl.shape[u] >= minShifted*cols {
				in = cols // whole vectors of accumulators; the last tile overlaps
			}
			if pick < 0 && len(gs) == 1 && pl.shape[u] <= maxInnerAll {
				in = pl.shape[u] // the whole output inside: the reduce is split across workers (splitReduce)
			} else if pick < 0 && t.Accs > 0 && in > t.Accs && in%t.Accs == 0 && pl.reduceLen(rs) >= minAccsReduce && pl.reduceSpan(u, rs) <= maxAccsSpan {
				in = t.Accs // accumulators in registers (Target.Accs)
			}
			return Opt{Axis: u, Arg: in}, true
		}); ok {
			u, in = o.Axis, o.Arg
			check(slices.Contains(gs, u) && in >= 1 && in <= pl.shape[u], o)
			if o, ok := ch.decide(OptUpcast, func() (Opt, bool) { return Opt{Axis: pick, Arg: pickRows}, pick >= 0 }); ok {
				row, rows = o.Axis, o.Arg
				check(slices.Contains(gs, row) && row != u && rows >= 1 && rows <= pl.shape[row], o)
			}
		}
	}
	rowLen, blk := 0, 0
	if row >= 0 {
		rowLen = pl.shape[row]
		if o, ok := ch.decide(OptRowBlock, func() (Opt, bool) {
			b := pl.rowBlock(gs, u, row, rows)
			return Opt{Axis: row, Arg: b}, b > 0
		}); ok {
			blk = o.Arg
			check(o.Axis == row && blk >= rows && rowLen%blk == 0 && rowLen > blk, o)
		}
	}
	if blk > 0 {
		nt.outer = append(nt.outer, loop{axis: row, size: rowLen / blk, mul: blk, kind: RangeGlobal})
		rowLen = blk
	}
	for _, g := range gs {
		if g != u && g != row {
			nt.outer = append(nt.outer, loop{axis: g, size: pl.shape[g], mul: 1, kind: RangeGlobal})
		}
	}
	for _, r := range rs {
		nt.red = append(nt.red, loop{axis: r, size: pl.shape[r], mul: 1, kind: RangeReduce})
	}
	if u >= 0 {
		if pl.shape[u] > in {
			nt.outer = append(nt.outer, tileLoop(u, pl.shape[u], in))
		}
		nt.inner = []loop{{axis: u, size: in, mul: 1, kind: RangeInner}}
	}
	if row >= 0 {
		nt.outer = append(nt.outer, tileLoop(row, rowLen, rows))
		nt.upcast = []loop{{axis: row, size: rows, mul: 1}}
	}
	if u < 0 && len(nt.red) > 0 && !opts.NoReorder {
		if o, ok := ch.decide(OptLanes, func() (Opt, bool) {
			return Opt{Axis: nt.red[len(nt.red)-1].axis, Arg: t.Lanes}, nt.lanesFit(pl, t.Lanes)
		}); ok {
			nt.addLanes(o)
		}
		if len(nt.lanes) > 0 {
			nt.upcastDot(pl, t.Dot, ch)
			nt.swapDot(pl, ch)
		}
	}
	tiled := false
	if len(nt.red) == 0 && !opts.NoReorder {
		if o, ok := ch.decide(OptTile, func() (Opt, bool) {
			if !nt.tileFits(pl, t.Tile) {
				return Opt{}, false
			}
			return Opt{Axis: nt.outer[len(nt.outer)-2].axis, Arg: t.Tile}, true
		}); ok {
			nt.tile(o)
			tiled = true
		}
	}
	if u < 0 && !tiled {
		nt.unrollSmall(ch)
	}
	if len(nt.red) == 0 && !tiled && !opts.NoReorder {
		nt.peelEdges(pl, ch)
	}
	if len(nt.outer) == 0 && len(nt.red) > 0 && pl.top == 0 {
		// (A reduce inside another needs its whole reduce before the
		// outer one's first step: a part of it is not enough.)
		nt.splitReduce(ch)
	}
	nt.tailAt = len(nt.red) - 1
	nt.cascade(pl, t.Block, ch)
	return nt
}

// reduceLen returns the number of reduce steps over the axes rs.
func (pl *plan) reduceLen(rs []int) int {
	n := 1
	for _, r := range rs {
		n *= pl.shape[r]
	}
	return n
}

// reduceSpan returns the most bytes (at 4 per element) one pass of the
// reduce loops rs with output axis u inside spans in any input: the
// distance between its first and last element read.
func (pl *plan) reduceSpan(u int, rs []int) int64 {
	var most int64
	for _, s := range pl.loadStrides() {
		span := int64(1)
		for _, a := range append([]int{u}, rs...) {
			span += abs64(s[a]) * int64(pl.shape[a]-1)
		}
		most = max(most, 4*span)
	}
	return most
}

// innerSize returns the length of the inner loop for an output axis of n.
// With cols set (a register tile) it is the divisor of n between cols/2 and
// 2*cols nearest to cols, multiples of 8 (a vector) first; otherwise, or
// when there is none, a divisor of n no larger than innerBlock, or n itself
// when n has no reasonable divisor.
func innerSize(n, cols int) int {
	best := 0
	score := func(d int) int { return abs(d-cols) - 1000*b2i(d%8 == 0) }
	for d := cols / 2; d <= 2*cols && d <= n; d++ {
		if d > 0 && n%d == 0 && (best == 0 || score(d) < score(best)) {
			best = d
		}
	}
	if best > 0 {
		return best
	}
	for d := innerBlock; d >= 64; d-- {
		if n%d == 0 {
			return d
		}
	}
	return n
}

// tileable reports whether tiles of m can cover an axis of n: at least two
// whole tiles, or minShifted tiles when the last must overlap (tileLoop).
func tileable(n, m int) bool {
	return n >= 2*m && (n%m == 0 || n >= minShifted*m)
}

// badColumns reports whether in, the inner loop innerSize chose for a
// register tile of cols columns, misses the tile: too many accumulators to
// keep in registers, too few to hide latency, or not whole vectors (a
// vector loop with a scalar tail leaves its accumulators in memory).
func badColumns(in, cols int) bool {
	return in > 2*cols || in < cols/2 || (cols%8 == 0 && in%8 != 0)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rowTile returns the register tile's row axis (rowAxis) and its rows.
// When no axis holds tiles of rows, or the last tile overlaps the one
// before by more than an eighth of the axis, an axis that rows-1 divides
// is taken with rows-1 (a 5x5 convolution's kernel taps): without rows the
// tile has one accumulator vector per column vector, and its loop waits on
// each multiply-add's latency (beautiful_mnist's first layer's weight
// gradient over its 24x24 windows took 25% more CPU time that way), and 25
// taps in tiles of 6 compute 30 (over its im2col copy, 5-8% more).
func (pl *plan) rowTile(gs []int, u, rows int) (int, int) {
	r := pl.rowAxis(gs, u, rows)
	if rows < 3 {
		return r, rows
	}
	if r >= 0 {
		n := pl.shape[r]
		if over := (n+rows-1)/rows*rows - n; over*8 <= n {
			return r, rows
		}
	}
	if e := pl.exactRowAxis(gs, u, rows-1); e >= 0 {
		return e, rows - 1
	}
	return r, rows
}

// tileRows returns the rows of a register tile whose columns are an axis
// of w: t.Rows, or, when the axis is narrower than t.Cols (a convolution
// with 32 output channels under AVX512Target's 64 columns), more rows to
// use some of the accumulators the narrow tile leaves, at most two more.
// beautiful_mnist's step on AVX-512 with 32-channel 5x5 layers: 6 x 32
// tiles 220-253 ms, 8 x 32 206-240 ms (its forward conv 46 -> 40 ms); 12 x
// 32, all 24 accumulators, slowed the weight gradient from 47 to 127 ms.
func tileRows(t *Target, w int) int {
	if t.Cols <= 0 || w >= t.Cols || w < 8 || w%8 != 0 {
		return t.Rows
	}
	return min(t.Rows+2, t.Rows*t.Cols/w)
}

// exactRowAxis is rowAxis for an axis that rows divides.
func (pl *plan) exactRowAxis(gs []int, u, rows int) int {
	best, bestCost := -1, int64(-1)
	for _, g := range gs {
		if g == u || pl.shape[g] < rows || pl.shape[g]%rows != 0 {
			continue
		}
		shared, cost := false, int64(0)
		for _, s := range pl.loadStrides() {
			shared = shared || s[g] == 0
			cost += abs64(s[g])
		}
		if shared && (bestCost < 0 || cost < bestCost) {
			best, bestCost = g, cost // as rowAxis: the smallest stride
		}
	}
	return best
}

// rowAxis returns the output axis other than u to upcast by rows for a
// register tile, or -1: an axis some load does not depend on (its loads
// are then shared by all rows) that rows divides at least twice or that
// holds minShifted tiles (the last one then overlaps), the one with the
// smallest stride among the loads that do depend on it: a convolution's
// batch (its rows' windows adjacent in memory, walked in blocks by
// rowBlock) rather than its output rows (a window row apart, each row's
// windows read again at the next output position); 10-20% less CPU time
// for beautiful_mnist's 5x5 layers.
func (pl *plan) rowAxis(gs []int, u, rows int) int {
	if rows < 2 {
		return -1
	}
	best, bestCost := -1, int64(-1)
	for _, g := range gs {
		if g == u || !tileable(pl.shape[g], rows) {
			continue
		}
		shared, cost := false, int64(0)
		for _, s := range pl.loadStrides() {
			if s[g] == 0 {
				shared = true
			}
			cost += abs64(s[g])
		}
		if shared && (bestCost < 0 || cost < bestCost) {
			best, bestCost = g, cost
		}
	}
	return best
}

// rowBlock returns the size of the blocks the row axis of a register tile
// is cut into, outermost, or 0. It cuts when other output loops the shared
// load does not depend on sit outside the tile (a convolution's output
// positions, with the batch as rows): walking every row at each position
// reads the rows' windows at all positions, megabytes, from L3 again at
// the next position, while a block's stay in L2.
//
// A block is 32 rows, or 64 when the tile's rows leave too much of 32 over:
// the last tile of a block overlaps the one before, so 6-row tiles compute
// 36 rows for 32 (12% more) but 66 for 64 (3%). When that size does not
// divide the rows, the size nearest 32 from 16 to 64 that does and wastes
// at most 5%: beautiful_mnist's evaluation batch of 10,000 images takes
// blocks of 40, where without blocks its 5x5 layer's forward took
// 1.39-1.98 s a call, and 0.88-1.26 s in blocks.
func (pl *plan) rowBlock(gs []int, u, row, rows int) int {
	n := pl.shape[row]
	blockRows := 32
	if rows > 0 && (blockRows+rows-1)/rows*rows*100 > blockRows*105 {
		blockRows = 64
	}
	if n%blockRows != 0 {
		blockRows = 0
		for _, b := range []int{32, 40, 24, 48, 56, 16, 64} {
			if n%b == 0 && (rows <= 0 || (b+rows-1)/rows*rows*100 <= b*105) {
				blockRows = b
				break
			}
		}
	}
	if blockRows == 0 || n < 4*blockRows || !tileable(blockRows, rows) {
		return 0
	}
	other := false
	for _, g := range gs {
		if g == u || g == row {
			continue
		}
		other = true
		for _, s := range pl.loadStrides() {
			if s[row] == 0 && s[g] != 0 {
				return 0 // a batched matmul: the shared operand changes with g
			}
		}
	}
	if !other {
		return 0
	}
	return blockRows
}

// lanesFit reports whether the innermost reduce loop can be split into a
// loop over groups of lanes and a lane loop inside it: every load walks
// that axis contiguously or not at all and the axis holds at least two
// groups. When lanes does not divide the axis (a softmax over 1000
// classes) the rest becomes a tail loop after the groups; a full reduce
// keeps whole groups only, as its reduce loop is split across workers.
func (nt *nest) lanesFit(pl *plan, lanes int) bool {
	if lanes < 2 || lanes > maxLanes {
		return false
	}
	last := nt.red[len(nt.red)-1]
	if last.size < 2*lanes || (last.size%lanes != 0 && len(nt.outer) == 0) {
		return false
	}
	contiguous := false
	for _, s := range pl.loadStrides() {
		switch s[last.axis] {
		case 0:
		case 1:
			contiguous = true
		default:
			return false
		}
	}
	return contiguous
}

// addLanes splits the innermost reduce loop into groups of o.Arg lanes.
func (nt *nest) addLanes(o Opt) {
	last := &nt.red[len(nt.red)-1]
	check(last.axis == o.Axis && last.mul == 1 && o.Arg >= 2 && last.size >= o.Arg, o)
	nt.lanes = []loop{{axis: last.axis, size: o.Arg, mul: 1, kind: RangeInner}}
	nt.tail = last.size % o.Arg
	last.size /= o.Arg
	last.mul = o.Arg
}

// upcastDot upcasts up to two output loops by dot, each along an axis some
// load does not depend on (its loads are then shared by the copies), the
// innermost first; a loop dot does not divide ends in a shifted tile.
func (nt *nest) upcastDot(pl *plan, dot int, ch *chooser) {
	strides := pl.loadStrides()
	for len(nt.upcast) < 2 {
		o, ok := ch.decide(OptUpcast, func() (Opt, bool) {
			if dot < 2 {
				return Opt{}, false
			}
			for i := len(nt.outer) - 1; i >= 0; i-- {
				l := nt.outer[i]
				if l.mul != 1 || !tileable(l.size, dot) || slices.ContainsFunc(nt.upcast, func(x loop) bool { return x.axis == l.axis }) {
					continue
				}
				for _, s := range strides {
					if s[l.axis] == 0 {
						return Opt{Axis: l.axis, Arg: dot}, true
					}
				}
			}
			return Opt{}, false
		})
		if !ok {
			return
		}
		i := slices.IndexFunc(nt.outer, func(l loop) bool { return l.axis == o.Axis && l.mul == 1 })
		check(i >= 0 && o.Arg >= 1 && o.Arg <= nt.outer[i].size, o)
		nt.upcast = append(nt.upcast, loop{axis: o.Axis, size: o.Arg, mul: 1})
		nt.outer[i] = tileLoop(o.Axis, nt.outer[i].size, o.Arg)
	}
}

// swapDot puts the longer of a dot kernel's two innermost output loops
// outside the other when both are upcast (SWAP). Each walks the rows of one
// operand (a @ b.T: a's rows, b's rows), and the inner loop's operand is
// read again for each step of the outer one: kept inner, the shorter one
// is read from the cache, where the longer one came from memory each time.
// A Linear's forward pass, 96x1024 @ (8192x1024).T, swept the weight's
// 32 MiB once per four rows of the batch.
func (nt *nest) swapDot(pl *plan, ch *chooser) {
	n := len(nt.outer)
	if len(nt.upcast) != 2 || n < 2 {
		return
	}
	upcast := func(a int) bool { return slices.ContainsFunc(nt.upcast, func(l loop) bool { return l.axis == a }) }
	o, ok := ch.decide(OptSwap, func() (Opt, bool) {
		p, q := nt.outer[n-2], nt.outer[n-1]
		return Opt{Axis: q.axis, Arg: p.axis}, upcast(p.axis) && upcast(q.axis) && pl.shape[q.axis] > pl.shape[p.axis]
	})
	if !ok {
		return
	}
	check(nt.outer[n-1].axis == o.Axis && nt.outer[n-2].axis == o.Arg, o)
	nt.outer[n-2], nt.outer[n-1] = nt.outer[n-1], nt.outer[n-2]
}

// tileFits reports whether the two innermost output loops of an
// elementwise kernel can walk side x side tiles: some load strides along
// the innermost axis and walks the other contiguously (a transpose).
func (nt *nest) tileFits(pl *plan, side int) bool {
	n := len(nt.outer)
	if side < 2 || n < 2 {
		return false
	}
	o, in := nt.outer[n-2], nt.outer[n-1]
	if o.size%side != 0 || in.size%side != 0 || o.size < 2*side || in.size < 2*side {
		return false
	}
	for _, s := range pl.loadStrides() {
		if abs64(s[in.axis]) >= int64(side) && abs64(s[o.axis]) == 1 {
			return true
		}
	}
	return false
}

// tile walks the two innermost output loops in o.Arg x o.Arg tiles.
func (nt *nest) tile(o Opt) {
	n := len(nt.outer)
	side := o.Arg
	check(n >= 2 && nt.outer[n-2].axis == o.Axis && side >= 1, o)
	a, in := nt.outer[n-2], nt.outer[n-1]
	check(a.size%side == 0 && in.size%side == 0, o)
	nt.outer = append(nt.outer[:n-2],
		loop{axis: a.axis, size: a.size / side, mul: side, kind: RangeGlobal},
		loop{axis: in.axis, size: in.size / side, mul: side, kind: RangeGlobal},
		loop{axis: a.axis, size: side, mul: 1, kind: RangeGlobal},
		loop{axis: in.axis, size: side, mul: 1, kind: RangeGlobal})
}

// unrollSmall unrolls innermost loops of at most maxUnroll iterations: the
// reduce loops first, then, once no reduce loop is left, the output loops;
// the outermost loop always stays. A reduce loop with lanes inside it stays.
func (nt *nest) unrollSmall(ch *chooser) {
	prod := 1
	innermost := func() *[]loop {
		if len(nt.red) == 0 {
			return &nt.outer
		}
		return &nt.red
	}
	for {
		o, ok := ch.decide(OptUnroll, func() (Opt, bool) {
			l := innermost()
			n := len(*l)
			if n == 0 || (l == &nt.outer && n < 2) || (l == &nt.red && n < 2 && len(nt.outer) == 0) || (l == &nt.red && len(nt.lanes) > 0) {
				return Opt{}, false
			}
			last := (*l)[n-1]
			if last.size < 2 || last.size > maxUnroll || prod*last.size > maxUnrollProd {
				return Opt{}, false
			}
			return Opt{Axis: last.axis, Arg: last.size}, true
		})
		if !ok {
			return
		}
		l := innermost()
		n := len(*l)
		check(n > 0 && (*l)[n-1].axis == o.Axis && (*l)[n-1].size == o.Arg && (*l)[n-1].shift == 0, o)
		last := (*l)[n-1]
		prod *= last.size
		nt.unroll = append(nt.unroll, loop{axis: last.axis, size: last.size, mul: last.mul})
		*l = (*l)[:n-1]
	}
}

// splitReduce makes the first reduce loop the global loop of a kernel with
// no output loops, splitting a single long reduce loop in two so that
// workers can share it. With the output inside the reduce (a sum over
// axis 0 of a 4096 x 4096 tensor, its 4096 outputs one accumulator array),
// each part walks whole rows of the input, contiguous in memory, into
// partial accumulators of its own; the parts are fewer when the arrays are
// long, so that all partials stay within maxPartFloats.
func (nt *nest) splitReduce(ch *chooser) {
	o, ok := ch.decide(OptSplit, func() (Opt, bool) {
		r := nt.red[0]
		accs := nt.laneSize()
		for _, l := range nt.inner {
			accs *= l.size
		}
		if len(nt.red) == 1 && r.size*accs >= minSplit {
			for d := min(64, max(8, maxPartFloats/accs)); d >= 8; d-- {
				if r.size%d == 0 && r.size >= 2*d {
					return Opt{Axis: r.axis, Arg: d}, true
				}
			}
		}
		if len(nt.red) != 1 || len(nt.inner) > 0 {
			return Opt{Axis: r.axis}, r.size >= 2
		}
		return Opt{}, false
	})
	if !ok {
		return
	}
	check(nt.red[0].axis == o.Axis, o)
	if parts := o.Arg; parts > 0 {
		r := nt.red[0]
		check(len(nt.red) == 1 && r.size%parts == 0, o)
		nt.red = []loop{
			{axis: r.axis, size: parts, mul: r.mul * (r.size / parts), kind: RangeReduce},
			{axis: r.axis, size: r.size / parts, mul: r.mul, kind: RangeReduce},
		}
	}
	nt.split = true
}

// laneSize returns the number of lanes, 1 when there are none.
func (nt *nest) laneSize() int {
	if len(nt.lanes) == 0 {
		return 1
	}
	return nt.lanes[0].size
}

// linesReused reports whether walking output axis u inside the innermost
// reduce axis r uses every cache line the loads touch, although the strides
// summed say otherwise: some load is strided along r (a new line each step)
// but contiguous along u, and every other load is contiguous along u or
// along r, so that the lines of one step of r are the lines of the next.
// A reduce over (batch, h, w) of a channels-innermost tensor times a
// channels-outer one (BatchNorm's backward after a conv) is the case: walked
// channel-outer, every pass over the first tensor uses one float a line.
func (pl *plan) linesReused(u, r int) bool {
	if pl.shape[u] > maxLinesInner {
		return false
	}
	gain := false
	for _, s := range pl.loadStrides() {
		su, sr := abs64(s[u]), abs64(s[r])
		switch {
		case su <= 1 && sr >= lineFloats:
			gain = true
		case su <= 1 || sr <= 1:
		default:
			return false
		}
	}
	return gain
}

// maxPeel bounds the cuts of one loop (PEEL).
const maxPeel = 4

// peelEdges cuts the innermost output loop of an elementwise kernel where
// a load's mask along its axis begins or ends inside it (a pad's edges), so
// that each piece is emitted knowing its range: in the interior the mask's
// test along that axis is true and drops out of the uops, and what is left
// of the gate is invariant in the loop. The loop must not be the global
// loop (devices split that one) nor a tile.
func (nt *nest) peelEdges(pl *plan, ch *chooser) {
	n := len(nt.outer)
	if n < 2 {
		return
	}
	l := nt.outer[n-1]
	if l.mul != 1 || l.shift != 0 || l.size != pl.shape[l.axis] {
		return
	}
	var cuts []int
	for _, leaf := range pl.leaves {
		if leaf.Op == OpStore || pl.never[leaf] {
			continue
		}
		vs := pl.sts[leaf].Views
		m := vs[len(vs)-1].Mask
		if m == nil || l.axis >= len(m) {
			continue
		}
		for _, b := range m[l.axis] {
			if c, ok := b.Int(); ok && c > 0 && c < int64(l.size) && !slices.Contains(cuts, int(c)) {
				cuts = append(cuts, int(c))
			}
		}
	}
	slices.Sort(cuts)
	var cands []Opt
	if len(cuts) <= maxPeel {
		for _, c := range cuts {
			cands = append(cands, Opt{Axis: l.axis, Arg: c})
		}
	}
	for _, o := range ch.decideEach(OptPeel, cands) {
		check(o.Axis == l.axis && o.Arg > 0 && o.Arg < l.size && (len(nt.peel) == 0 || o.Arg > nt.peel[len(nt.peel)-1]), o)
		nt.peel = append(nt.peel, o.Arg)
	}
}
