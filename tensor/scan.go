package tensor

// Running sums and maxima (Cumsum, Cummax) as a blocked scan. A short axis
// is one reduce over a triangular mask of bools (at most 2*scanBlock
// squared, never n*n), so each output folds up to 2*scanBlock inputs. A longer axis is cut into blocks of scanBlock:
// the fold of each block (a plain reduce), the exclusive running fold of
// those totals (the same scan, one level down, on n/scanBlock elements),
// and the in-block scan combined with the total before its block. The work
// is about scanBlock per element and each level reads its input twice,
// instead of n per element for one mask over the whole axis (the 16x gap to
// NumPy of a cumsum along 1024 with blocks of 256).

// scanBlock is the length of the runs one triangular mask folds. Shorter
// blocks do less masked work per element and make more levels (each a
// fold and a masked reduce over a quarter of the level below); 4 measured
// fastest on both devices for a 1024-long axis of 4096 rows (CLANG 17 ms of
// CPU time against 26 at 8 and 130 at 32; the CPU device 108 ms against 660
// and 1409).
const scanBlock = 4

// scanOp is the fold of a scan: addition or maximum.
type scanOp int

const (
	scanAdd scanOp = iota
	scanMax
)

// identity returns the value that pads a run without changing its fold.
func (op scanOp) identity(d DType) float64 {
	if op == scanMax {
		return minValue(d)
	}
	return 0
}

// fold reduces axis a.
func (op scanOp) fold(t *Tensor, a int) *Tensor {
	if op == scanMax {
		return t.Max([]int{a}, false)
	}
	return t.Sum([]int{a}, false)
}

// combine folds two values elementwise.
func (op scanOp) combine(a, b *Tensor) *Tensor {
	if op == scanMax {
		return a.Maximum(b)
	}
	return a.Add(b)
}

// scanInnerMin is the size of the axes after a scan's axis from which the
// scan runs along the axis in place; a smaller inner size moves the axis
// last. Besides the transposes costing little there, the kernels of small
// unrolled inner axes met a gcc 12 -O3 miscompile on CLANG (a vectorized
// global loop over 4 x 6 unrolled copies with a masked load of the block
// totals gave wrong sums; main's own kernels reach it too, e.g.
// a.maximum(b shifted by a pad) over (3, 4, 3, 2)).
const scanInnerMin = 64

// scan returns the inclusive running fold along axis a. The blocks are
// cut along a itself, not along a last axis moved there: the axes after a
// stay innermost, so a scan down the columns of a matrix reads and writes
// whole rows (a transpose to the last axis and back read one float per
// cache line).
func (t *Tensor) scan(op scanOp, a int) *Tensor {
	shp := t.Shape()
	if last := len(shp) - 1; a < last && prod(shp[a+1:]) < scanInnerMin {
		return t.Transpose(a, last).scan(op, last).Transpose(a, last)
	}
	n := shp[a]
	if n <= 2*scanBlock {
		return t.scanMask(op, a)
	}
	m := (n + scanBlock - 1) / scanBlock
	pad := make([][2]int, len(shp))
	pad[a] = [2]int{0, m*scanBlock - n}
	blockShape := append(append(append([]int{}, shp[:a]...), m, scanBlock), shp[a+1:]...)
	blocks := t.Pad(pad, op.identity(t.DType())).Reshape(blockShape...)
	// The fold of the blocks before each block: the running fold of the
	// block totals, shifted by one along a.
	shift := make([][2]int, len(shp))
	shift[a] = [2]int{1, 0}
	keep := make([][2]int, len(shp))
	for i, d := range shp {
		keep[i] = [2]int{0, d}
	}
	keep[a] = [2]int{0, m}
	before := op.fold(blocks, a+1).scan(op, a)
	before = before.Pad(shift).Shrink(keep).Unsqueeze(a + 1)
	if id := op.identity(before.DType()); id != 0 {
		// The first block has nothing before it. Padding with a value
		// other than 0, or a where before the expand over the block,
		// would be a kernel of its own; a where over the expanded view
		// with a mask of the first block (a constant padded with false:
		// an index comparison in the kernel) fuses into the last one.
		ones := make([]int, len(blockShape)-a)
		for i := range ones {
			ones[i] = 1
		}
		first := make([][2]int, len(ones))
		first[0] = [2]int{0, m - 1}
		isFirst := t.n.eng.Full(ones, 1, Bool).Pad(first)
		before = isFirst.Where(t.n.eng.Scalar(id, before.DType()), before.Expand(blockShape...))
	}
	out := op.combine(blocks.scanMask(op, a+1), before)
	out = out.Reshape(append(append(append([]int{}, shp[:a]...), m*scanBlock), shp[a+1:]...)...)
	if m*scanBlock == n {
		return out
	}
	keep[a] = [2]int{0, n}
	return out.Shrink(keep)
}

// scanMask returns the running fold along axis a as one reduce over a
// triangular mask.
func (t *Tensor) scanMask(op scanOp, a int) *Tensor {
	n := t.Shape()[a]
	// mask[j, i] = i <= j, a constant seen through views (tri): the
	// kernel computes it from its indices, and where the block's loops
	// are unrolled the C compiler folds it away, with the masked-out
	// terms (a mask loaded from a buffer kept every term of the square).
	inner := t.Ndim() - a - 1
	mask := t.n.eng.tri(n, n, 0).Permute(1, 0)
	for range inner {
		mask = mask.Unsqueeze(-1)
	}
	id := t.n.eng.Scalar(op.identity(t.DType()), t.DType()) // a scalar of t's dtype, not promoted
	return op.fold(mask.Where(t.Unsqueeze(a), id), a+1)
}
