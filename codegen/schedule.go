package codegen

import "sort"

// This file defines the loop order of a lowered kernel: which axis each loop
// walks, which loops sit inside the accumulators, which small axes are
// unrolled, and which loop is split across workers.

// loop is one loop of the nest: its variable adds var*mul to axis.
type loop struct {
	axis, size, mul int
	kind            RangeKind
}

// nest is the loop order chosen for a plan.
//
//	for outer...            (global output loops)
//	  acc = init            (one per reduce; an array when inner is set)
//	  for red...            (reduce loops)
//	    for inner...        (output loops walked inside the reduce)
//	      acc[inner] op= value
//	  for inner...
//	    store post(acc[inner])
//
// Unrolled axes take each of their values in turn inside the innermost loop.
type nest struct {
	outer, red, inner []loop
	unroll            []int // axes unrolled, each taking every value in [0, size)
	split             bool  // the first reduce loop is the global loop (SplitReduce)
}

// Tuning constants.
const (
	maxUnroll     = 8    // unroll an innermost loop of at most this many iterations
	maxUnrollProd = 32   // copies of the loop body at most
	minInner      = 16   // an output axis goes inside the reduce only when at least this long
	innerBlock    = 1024 // the largest inner (accumulator array) loop
	minSplit      = 1 << 15
)

// order chooses the loop nest for pl.
func (pl *plan) order(opts Options) nest {
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
	u := -1
	if len(rs) > 0 && !opts.NoReorder {
		cost := pl.strideCost()
		sort.SliceStable(rs, func(i, j int) bool { return cost[rs[i]] > cost[rs[j]] })
		for _, g := range gs {
			if u < 0 || cost[g] <= cost[u] {
				u = g
			}
		}
		if u >= 0 && (cost[u] >= cost[rs[len(rs)-1]] || pl.shape[u] < minInner) {
			u = -1
		}
	}
	for _, g := range gs {
		if g != u {
			nt.outer = append(nt.outer, loop{axis: g, size: pl.shape[g], mul: 1, kind: RangeGlobal})
		}
	}
	for _, r := range rs {
		nt.red = append(nt.red, loop{axis: r, size: pl.shape[r], mul: 1, kind: RangeReduce})
	}
	if u >= 0 {
		in := innerSize(pl.shape[u])
		if out := pl.shape[u] / in; out > 1 {
			nt.outer = append(nt.outer, loop{axis: u, size: out, mul: in, kind: RangeGlobal})
		}
		nt.inner = []loop{{axis: u, size: in, mul: 1, kind: RangeInner}}
	}
	if !opts.NoUnroll && u < 0 {
		nt.unrollSmall()
	}
	if !opts.NoSplit && len(nt.outer) == 0 && len(nt.red) > 0 {
		nt.splitReduce()
	}
	return nt
}

// innerSize returns the length of the inner loop for an output axis of n:
// a divisor of n no larger than innerBlock, or n itself when n has no
// reasonable divisor.
func innerSize(n int) int {
	for d := innerBlock; d >= 64; d-- {
		if n%d == 0 {
			return d
		}
	}
	return n
}

// unrollSmall unrolls innermost loops of at most maxUnroll iterations: the
// reduce loops first, then, once no reduce loop is left, the output loops;
// the outermost loop always stays.
func (nt *nest) unrollSmall() {
	prod := 1
	for {
		l := &nt.red
		if len(nt.red) == 0 {
			l = &nt.outer
		}
		n := len(*l)
		if n == 0 || (l == &nt.outer && n < 2) || (l == &nt.red && n < 2 && len(nt.outer) == 0) {
			return
		}
		last := (*l)[n-1]
		if last.size < 2 || last.size > maxUnroll || prod*last.size > maxUnrollProd {
			return
		}
		prod *= last.size
		nt.unroll = append(nt.unroll, last.axis)
		*l = (*l)[:n-1]
	}
}

// splitReduce makes the first reduce loop the global loop of a kernel with
// no output loops, splitting a single long reduce loop in two so that
// workers can share it.
func (nt *nest) splitReduce() {
	if len(nt.red) == 1 && len(nt.inner) == 0 {
		r := nt.red[0]
		if r.size < minSplit {
			return
		}
		parts := 0
		for d := 64; d >= 8; d-- {
			if r.size%d == 0 {
				parts = d
				break
			}
		}
		if parts == 0 {
			return
		}
		nt.red = []loop{
			{axis: r.axis, size: parts, mul: r.size / parts, kind: RangeReduce},
			{axis: r.axis, size: r.size / parts, mul: 1, kind: RangeReduce},
		}
	}
	if nt.red[0].size >= 2 {
		nt.split = true
	}
}
