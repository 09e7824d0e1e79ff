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

// fold reduces the last axis.
func (op scanOp) fold(t *Tensor) *Tensor {
	if op == scanMax {
		return t.Max([]int{-1}, false)
	}
	return t.Sum([]int{-1}, false)
}

// combine folds two values elementwise.
func (op scanOp) combine(a, b *Tensor) *Tensor {
	if op == scanMax {
		return a.Maximum(b)
	}
	return a.Add(b)
}

// scanLast returns the inclusive running fold along the last axis.
func (t *Tensor) scanLast(op scanOp) *Tensor {
	shp := t.Shape()
	last := len(shp) - 1
	n := shp[last]
	if n <= 2*scanBlock {
		return t.scanMask(op)
	}
	m := (n + scanBlock - 1) / scanBlock
	pad := make([][2]int, len(shp))
	pad[last] = [2]int{0, m*scanBlock - n}
	blocks := t.Pad(pad, op.identity(t.DType())).Reshape(append(append([]int{}, shp[:last]...), m, scanBlock)...)
	// The fold of the blocks before each block: the running fold of the
	// block totals, shifted right by one.
	shift := make([][2]int, len(shp))
	shift[last] = [2]int{1, 0}
	keep := make([][2]int, len(shp))
	for i, d := range shp {
		keep[i] = [2]int{0, d}
	}
	keep[last] = [2]int{0, m}
	before := op.fold(blocks).scanLast(op)
	before = before.Pad(shift).Shrink(keep).Unsqueeze(-1)
	if id := op.identity(before.DType()); id != 0 {
		// The first block has nothing before it. Padding with a value
		// other than 0, or a where before the expand over the block,
		// would be a kernel of its own; a where over the expanded view
		// with a mask of the first block (a constant padded with false:
		// an index comparison in the kernel) fuses into the last one.
		isFirst := t.n.eng.Full([]int{1, 1}, 1, Bool).Pad([][2]int{{0, m - 1}, {0, 0}})
		before = isFirst.Where(t.n.eng.Scalar(id, before.DType()), before.Expand(blocks.Shape()...))
	}
	out := op.combine(blocks.scanMask(op), before)
	out = out.Reshape(append(append([]int{}, shp[:last]...), m*scanBlock)...)
	if m*scanBlock == n {
		return out
	}
	keep[last] = [2]int{0, n}
	return out.Shrink(keep)
}

// scanMask returns the running fold along the last axis as one reduce over
// a triangular mask.
func (t *Tensor) scanMask(op scanOp) *Tensor {
	n := t.Shape()[t.Ndim()-1]
	// mask[j, i] = i <= j, a constant seen through views (tri): the
	// kernel computes it from its indices, and where the block's loops
	// are unrolled the C compiler folds it away, with the masked-out
	// terms (a mask loaded from a buffer kept every term of the square).
	mask := t.n.eng.tri(n, n, 0).Permute(1, 0)
	id := t.n.eng.Scalar(op.identity(t.DType()), t.DType()) // a scalar of t's dtype, not promoted
	return op.fold(mask.Where(t.Unsqueeze(-2), id))
}
