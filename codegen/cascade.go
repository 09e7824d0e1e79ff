package codegen

import "slices"

// This file makes float sums accurate. A sum of n terms folded into one
// accumulator in order has an error that grows like n (a float32 sum of
// 1e8 ones stops at 2^24 or 2^25); NumPy's pairwise summation has one that
// grows like log n. A kernel with a float sum gets a bound independent of
// n instead, at the cost of a few operations per block of terms:
//
//   - blocks: the innermost reduce loop walks at most Block iterations
//     (the target's, smaller for a plain sum than for a register tile,
//     where each block ends in work for every accumulator), folding into
//     accumulators of its own, started at 0 for every block;
//   - compensation: each block's sum is added into the kernel's
//     accumulator with Kahan's compensated addition, the rounding error of
//     the last addition kept in a second accumulator, taken out of the next
//     block's sum and, at the end, out of the total (unless the sum is an
//     infinity or NaN);
//   - order: lanes are folded pairwise, and the devices combine the
//     partial sums of a split reduce pairwise, one partial per chunk of the
//     global loop, in chunk order, whatever the workers' scheduling.
//
// A sum of 1e7 float32 values of 0.1 then is within a few ulps of 1e6, and
// ones(1e8).sum() is 1e8 exactly, every run the same.

// Block sizes: the innermost reduce loop of a plain sum (lanes only, memory
// bound) walks at most sumBlock iterations when the target does not say;
// one with an inner loop or upcast copies (a register tile, dot products),
// whose every block ends in a compensated addition per accumulator, at
// least tileBlock. (With blocks of 128, gcc no longer kept a 512 x 512
// matmul's register tile in registers: 5 ms became 33.)
const (
	sumBlock  = 16
	tileBlock = 1024
)

// cascades reports whether reduce r folds in compensated blocks: a float sum.
func cascades(r *Node) bool { return r.ReduceOp == OpAdd && r.DType.IsFloat() }

// cascade splits the innermost reduce loop of nt into blocks of at most the
// block size, when the kernel has a float sum: a loop over whole blocks, a
// loop inside it over one block, and a rest after them when no block size
// divides the loop (loop.rest).
func (nt *nest) cascade(pl *plan, block int, ch *chooser) {
	if len(nt.red) == 0 || !slices.ContainsFunc(pl.reduces, cascades) {
		return
	}
	if block <= 0 {
		block = sumBlock
	}
	if len(nt.inner) > 0 || len(nt.upcast) > 0 {
		block = max(block, tileBlock)
	}
	total := 1
	for _, l := range nt.red {
		total *= l.size
	}
	if total <= block {
		// Nested reduce loops that walk one block's worth of terms in all
		// (a convolution's channels and kernel positions) are one block,
		// as a single short loop is: a compensated addition after each
		// innermost loop cost beautiful_mnist's convolutions 3x.
		nt.oneBlock = true
		return
	}
	k := len(nt.red) - 1
	l := nt.red[k]
	o, ok := ch.decide(OptBlock, func() (Opt, bool) {
		_, f, _ := blocks(l.size, block)
		return Opt{Axis: l.axis, Arg: f}, l.size > block // else one block already
	})
	if !ok {
		return
	}
	check(o.Axis == l.axis && o.Arg >= 2 && o.Arg < l.size, o)
	q, f, rest := blocks(l.size, o.Arg)
	if rest > 0 && k == 0 && len(nt.outer) == 0 {
		// The rest would run after the global loop, where a device combines
		// its workers' partial sums: run it all inside a loop of one.
		nt.red = []loop{{axis: l.axis, size: 1, mul: 0, kind: RangeReduce}}
		k = 1
	} else {
		nt.red = nt.red[:k]
	}
	nt.tailAt = k
	nt.red = append(nt.red,
		loop{axis: l.axis, size: q, mul: l.mul * f, kind: l.kind, rest: rest, restMul: l.mul, restSkip: 1},
		loop{axis: l.axis, size: f, mul: l.mul, kind: l.kind})
}

// blocks writes n as q blocks of f plus a rest: the largest f of at most
// block (and at least a quarter of it) that divides n, or block itself
// with a rest.
func blocks(n, block int) (q, f, rest int) {
	for d := block; d >= max(block/4, 2); d-- {
		if n%d == 0 {
			return n / d, d, 0
		}
	}
	return n / block, block, n % block
}
