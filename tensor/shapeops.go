package tensor

import (
	"fmt"
	"slices"
)

// Shape ops built from the movement primitives (tinygrad's high-level
// movement ops): each is a view or a short fused graph, and its gradient
// comes from the primitives'.

// FlatPads turns torch-style flat padding (left, right of the last axis,
// then of the one before, ...) into one (before, after) pair per axis of a
// rank-n tensor; axes it does not reach get (0, 0). It panics with a *Error
// on an odd count or more pairs than axes.
func FlatPads(flat []int, n int) [][2]int {
	if len(flat)%2 != 0 {
		fail("pad: flat padding must have an even number of pads, got %d", len(flat))
	}
	if len(flat)/2 > n {
		fail("pad: %d pads for a tensor of rank %d", len(flat)/2, n)
	}
	out := make([][2]int, n)
	for i := 0; i < len(flat)/2; i++ {
		out[n-1-i] = [2]int{flat[2*i], flat[2*i+1]}
	}
	return out
}

// PadMode pads each axis i by p[i][0] elements before and p[i][1] after, as
// tinygrad's pad: mode is "constant" (filled with value), "reflect" (mirrored
// without repeating the edge), "replicate" (the edge repeated) or
// "circular" (wrapped around). A negative amount cuts that many elements off
// instead. It panics with a *Error on a bad mode, a pad list of the wrong
// length, a reflect pad not below the axis length, or a circular pad that
// wraps more than once or is negative.
func (t *Tensor) PadMode(p [][2]int, mode string, value float64) *Tensor {
	if len(p) != t.Ndim() {
		fail("pad: padding length is improper: %d pairs for a tensor of rank %d", len(p), t.Ndim())
	}
	shp := t.n.shape
	neg := false
	pos := make([][2]int, len(p))
	for i, x := range p {
		pos[i] = [2]int{max(x[0], 0), max(x[1], 0)}
		neg = neg || x[0] < 0 || x[1] < 0
	}
	// cut takes away the negative parts from an axis of length s, after the
	// positive ones were added to x.
	cut := func(x *Tensor) *Tensor {
		b := make([][2]int, len(p))
		for i, q := range p {
			s := x.n.shape[i]
			b[i] = [2]int{-min(q[0], 0), min(q[1]+s, s)}
			if b[i][1] < b[i][0] {
				fail("pad: padding %v cuts more than the shape %s holds", p, FormatShape(shp))
			}
		}
		return x.Shrink(b)
	}
	switch mode {
	case "constant":
		x := t
		if neg {
			b := make([][2]int, len(p))
			for i, q := range p {
				b[i] = [2]int{-min(q[0], 0), min(q[1]+shp[i], shp[i])}
				if b[i][1] < b[i][0] {
					fail("pad: padding %v cuts more than the shape %s holds", p, FormatShape(shp))
				}
			}
			x = x.Shrink(b)
		}
		return x.Pad(pos, value)
	case "circular":
		reps := make([]int, len(p))
		for i, q := range p {
			if q[0] > shp[i] || q[1] > shp[i] {
				fail("pad: circular padding %v wraps around more than once for shape %s", p, FormatShape(shp))
			}
			if q[0] < 0 || q[1] < 0 {
				fail("pad: negative pads are not supported with circular padding")
			}
			reps[i] = 1 + b2i(q[0] > 0) + b2i(q[1] > 0)
		}
		x := t.Repeat(reps...)
		b := make([][2]int, len(p))
		for i, q := range p {
			o, xs := shp[i], x.n.shape[i]
			b[i] = [2]int{0, xs}
			if q[0] > 0 {
				b[i][0] = o - q[0]
			}
			if q[1] > 0 {
				b[i][1] = xs - o + q[1]
			}
		}
		return x.Shrink(b)
	case "reflect", "replicate":
		x := t
		for d, q := range pos {
			s := x.n.shape[d]
			if mode == "reflect" && (q[0] >= s || q[1] >= s) {
				fail("pad: padding (%d, %d) should be less than the input size=%d for dim=%d", q[0], q[1], s, d)
			}
			if mode == "replicate" && s == 0 && (q[0] > 0 || q[1] > 0) {
				fail("pad: cannot replicate-pad axis %d of size 0", d)
			}
			parts := []*Tensor{}
			side := func(lo, hi, n int) *Tensor {
				b := make([][2]int, x.Ndim())
				for i, e := range x.n.shape {
					b[i] = [2]int{0, e}
				}
				b[d] = [2]int{lo, hi}
				part := x.Shrink(b)
				if mode == "reflect" {
					return part.Flip(d)
				}
				e := part.Shape()
				e[d] = n
				return part.Expand(e...)
			}
			if q[0] > 0 {
				if mode == "reflect" {
					parts = append(parts, side(1, q[0]+1, 0))
				} else {
					parts = append(parts, side(0, 1, q[0]))
				}
			}
			parts = append(parts, x)
			if q[1] > 0 {
				if mode == "reflect" {
					parts = append(parts, side(s-1-q[1], s-1, 0))
				} else {
					parts = append(parts, side(s-1, s, q[1]))
				}
			}
			x = Cat(d, parts...)
		}
		if neg {
			x = cut(x)
		}
		return x
	}
	fail("pad: mode=%q is not supported (constant, reflect, replicate, circular)", mode)
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Repeat tiles t reps[i] times along axis i, as torch's repeat; reps may be
// longer than t's rank (leading axes of size 1 are added). It panics with a
// *Error on fewer reps than axes or a negative count.
func (t *Tensor) Repeat(reps ...int) *Tensor {
	if len(reps) < t.Ndim() {
		fail("repeat: %d repeats for a tensor of rank %d", len(reps), t.Ndim())
	}
	base := padLeft(t.n.shape, len(reps))
	var unsq, exp, final []int
	for i, r := range reps {
		if r < 0 {
			fail("repeat: negative repeat count %d", r)
		}
		unsq = append(unsq, 1, base[i])
		exp = append(exp, r, base[i])
		final = append(final, r*base[i])
	}
	return t.Reshape(unsq...).Expand(exp...).Reshape(final...)
}

// tupleOf makes tinygrad's make_tuple: one value for every one of n axes,
// or a list that must have n entries.
func tupleOf(op, what string, v []int, n int) []int {
	if len(v) == 1 && n != 1 {
		out := make([]int, n)
		for i := range out {
			out[i] = v[0]
		}
		return out
	}
	if len(v) != n {
		fail("%s: %s %s does not match %d spatial axes", op, what, fmtInts(v), n)
	}
	return v
}

func fmtInts(v []int) string {
	if len(v) == 1 {
		return fmt.Sprint(v[0])
	}
	return FormatShape(v)
}

// RepeatInterleave repeats each element of t along axis dim repeats times
// (dim nil: t is flattened first), as torch's repeat_interleave.
func (t *Tensor) RepeatInterleave(repeats int, dim *int) *Tensor {
	if repeats < 0 {
		fail("repeat_interleave: repeats must be non-negative, got %d", repeats)
	}
	x, d := t, 0
	if dim == nil {
		x = t.Flatten()
	} else {
		d = resolveDim("repeat_interleave", *dim, t.Ndim())
	}
	shp := x.Shape()
	grown := append(append(append([]int{}, shp[:d+1]...), 1), shp[d+1:]...)
	wide := append(append(append([]int{}, shp[:d+1]...), repeats), shp[d+1:]...)
	final := append(append(append([]int{}, shp[:d]...), shp[d]*repeats), shp[d+1:]...)
	return x.Reshape(grown...).Expand(wide...).Reshape(final...)
}

// resolveDim is tinygrad's _resolve_dim: a 0-d tensor accepts dims 0 and -1.
func resolveDim(op string, dim, n int) int {
	total := max(1, n)
	if dim < -total || dim > total-1 {
		fail("%s: dim=%d out of range [%d, %d]", op, dim, -total, total-1)
	}
	if dim < 0 {
		return dim + n
	}
	return dim
}

// Split cuts t along axis dim into pieces of the given sizes; one size s
// means pieces of s with a smaller last one. It panics with a *Error when
// the sizes do not add up to the axis length.
func (t *Tensor) Split(sizes []int, dim int, even bool) []*Tensor {
	if t.Ndim() == 0 {
		fail("split: a 0-d tensor cannot be split")
	}
	d := resolveDim("split", dim, t.Ndim())
	n := t.n.shape[d]
	if even {
		if len(sizes) != 1 || sizes[0] <= 0 {
			fail("split: split size must be a positive int, got %s", fmtInts(sizes))
		}
		s := sizes[0]
		sizes = nil
		for i := 0; i < max(1, n); i += s {
			sizes = append(sizes, min(s, n-i))
		}
	}
	total := 0
	for _, s := range sizes {
		if s < 0 {
			fail("split: sizes %s must be non-negative", fmtInts(sizes))
		}
		total += s
	}
	if total != n {
		fail("split: expect sizes to sum exactly to %d, but got %d", n, total)
	}
	out := make([]*Tensor, len(sizes))
	at := 0
	for i, s := range sizes {
		b := make([][2]int, t.Ndim())
		for j, e := range t.n.shape {
			b[j] = [2]int{0, e}
		}
		b[d] = [2]int{at, at + s}
		out[i] = t.Shrink(b)
		at += s
	}
	return out
}

// Chunk splits t along dim into chunks pieces of equal size (the last may
// be smaller, and there may be fewer pieces), as torch's chunk.
func (t *Tensor) Chunk(chunks, dim int) []*Tensor {
	if chunks <= 0 {
		fail("chunk: expect chunks to be greater than 0, got: %d", chunks)
	}
	if t.Ndim() == 0 {
		fail("chunk: a 0-d tensor cannot be chunked")
	}
	d := resolveDim("chunk", dim, t.Ndim())
	n := t.n.shape[d]
	if n == 0 {
		return t.Split(make([]int, chunks), d, false)
	}
	return t.Split([]int{ceilDiv(n, chunks)}, d, true)
}

// Roll shifts t's elements along each dims[i] by shifts[i], wrapping around;
// with no dims t is rolled as a flat list and keeps its shape.
func (t *Tensor) Roll(shifts, dims []int) *Tensor {
	if len(dims) == 0 {
		if len(shifts) != 1 {
			fail("roll: %d shifts without dims, want 1", len(shifts))
		}
		return t.Flatten().Roll(shifts, []int{0}).Reshape(t.n.shape...)
	}
	if len(shifts) != len(dims) {
		fail("roll: shifts %s and dims %s must have the same length", fmtInts(shifts), fmtInts(dims))
	}
	x := t
	for i, dim := range dims {
		d := resolveDim("roll", dim, t.Ndim())
		if t.Ndim() == 0 {
			continue
		}
		n := t.n.shape[d]
		if n == 0 {
			continue
		}
		sh := ((shifts[i] % n) + n) % n
		if sh == 0 {
			continue
		}
		parts := x.Split([]int{n - sh, sh}, d, false)
		x = Cat(d, parts[1], parts[0])
	}
	return x
}

// axisShape returns the shape of rank dimensions that is n on axis ax and
// 1 on every other: a table along ax that broadcasts over the rest.
func axisShape(rank, ax, n int) []int {
	out := slices.Repeat([]int{1}, rank)
	out[ax] = n
	return out
}

// tri returns an (r, c) bool tensor, true where column - row >= diagonal,
// built two ways by size. A small one (at most triViewMax elements: the
// blocked scans' masks, scan.go) is a constant seen through views, as
// tinygrad's _tri builds it: rows of an (s, 2s) block of s ones then s
// zeros, read with a row length of 2s-1, start one place earlier each row.
// The kernel computes it from its indices, and where the mask's loops are
// unrolled the C compiler folds it away with the masked-out terms (a
// 4096x1024 cummax took 23 ms instead of 5 with the mask loaded). A large
// one compares two short position tables broadcast over the rows and the
// columns: the view's index is a 64-bit modulo per element, which gcc does
// not vectorize (tril of 4096x1024 took 12 ms that way on a loaded machine,
// 2.4 ms compared; NumPy 6.4).
func (e *Engine) tri(r, c, diagonal int) *Tensor {
	if r == 0 || c == 0 || diagonal >= c {
		return e.Full([]int{r, c}, 0, Bool)
	}
	if r+diagonal <= 0 {
		return e.Full([]int{r, c}, 1, Bool)
	}
	if r*c <= triViewMax {
		s := r + c - 1
		u := e.Full([]int{s, s}, 1, Bool).Pad([][2]int{{0, 0}, {0, s}}).Flatten().
			Shrink([][2]int{{0, s * (2*s - 1)}}).Reshape(s, 2*s-1).Shrink([][2]int{{0, s}, {0, s}})
		if diagonal <= 0 {
			return u.Shrink([][2]int{{0, r}, {-diagonal, c - diagonal}})
		}
		return u.Shrink([][2]int{{diagonal, r + diagonal}, {0, c}})
	}
	// -r < diagonal < c here, so rows + diagonal does not overflow.
	cols := e.positions(c).Reshape(1, c).Expand(r, c)
	rows := e.positions(r)
	rows = rows.Add(e.Scalar(float64(diagonal), rows.n.dtype)).Reshape(r, 1).Expand(r, c)
	return cols.Ge(rows)
}

// triViewMax is the most elements tri builds through views.
const triViewMax = 1 << 12

// Triu keeps the elements of t's last two axes on and above the diagonal
// (diagonal > 0: above it) and sets the rest to 0.
func (t *Tensor) Triu(diagonal int) *Tensor {
	if t.Ndim() < 2 {
		fail("triu: input tensor must have at least 2 dimensions, got shape %s", FormatShape(t.n.shape))
	}
	r, c := t.n.shape[t.Ndim()-2], t.n.shape[t.Ndim()-1]
	return t.n.eng.tri(r, c, diagonal).Where(t, t.n.eng.Scalar(0, t.n.dtype))
}

// Tril keeps the elements of t's last two axes on and below the diagonal
// and sets the rest to 0.
func (t *Tensor) Tril(diagonal int) *Tensor {
	if t.Ndim() < 2 {
		fail("tril: input tensor must have at least 2 dimensions, got shape %s", FormatShape(t.n.shape))
	}
	r, c := t.n.shape[t.Ndim()-2], t.n.shape[t.Ndim()-1]
	return t.n.eng.tri(r, c, diagonal+1).Where(t.n.eng.Scalar(0, t.n.dtype), t)
}

// Meshgrid returns coordinate grids of 0-d or 1-d tensors: with "ij" the
// i-th grid varies along axis i, with "xy" the first two axes swap.
func Meshgrid(indexing string, ts ...*Tensor) []*Tensor {
	if indexing != "ij" && indexing != "xy" {
		fail("meshgrid: indexing must be \"ij\" or \"xy\", got %q", indexing)
	}
	if len(ts) == 0 {
		fail("meshgrid: expects at least one tensor")
	}
	for _, x := range ts {
		if x.Ndim() > 1 {
			fail("meshgrid: expects 0-d or 1-d tensors, got shape %s", FormatShape(x.n.shape))
		}
	}
	if len(ts) == 1 {
		return ts
	}
	n := len(ts)
	out := make([]*Tensor, n)
	shp := make([]int, n)
	for i, x := range ts {
		b := i
		if indexing == "xy" && i < 2 {
			b = 1 - i
		}
		shp[b] = x.Numel()
	}
	for i, x := range ts {
		b := i
		if indexing == "xy" && i < 2 {
			b = 1 - i
		}
		rs := make([]int, n)
		for j := range rs {
			rs[j] = 1
		}
		rs[b] = x.Numel()
		out[i] = x.Reshape(rs...).Expand(shp...)
	}
	return out
}

// Unflatten splits axis dim into sizes (one may be -1).
func (t *Tensor) Unflatten(dim int, sizes []int) *Tensor {
	d := resolveDim("unflatten", dim, t.Ndim())
	if t.Ndim() == 0 {
		fail("unflatten: a 0-d tensor has no axis to unflatten")
	}
	shp := append(append(append([]int{}, t.n.shape[:d]...), sizes...), t.n.shape[d+1:]...)
	return t.Reshape(shp...)
}

// Lerp interpolates linearly from t to end by weight: t + (end-t)*weight.
// Of uint8 by a weight tensor it is tinygrad's fixed point: the weight in
// 7 bits (int16), the difference wrapped to int8, rounded, uint8 again.
func (t *Tensor) Lerp(end *Tensor, weight any) *Tensor {
	if w, ok := weight.(*Tensor); ok && t.n.dtype == Uint8 {
		wi := w.Mul(1 << 7).Add(0.5).Cast(Int16)
		step := end.Sub(t).Cast(Int8).Mul(wi).Add(1 << 6).Cast(Uint16).Rshift(7)
		return t.Add(step).Cast(Uint8)
	}
	return t.Add(end.Sub(t).Mul(weight))
}

// Clamp bounds t below by lo and above by hi; a nil bound is not applied.
// It panics with a *Error when both are nil. The result is
// minimum(maximum(t, lo), hi), so a tie keeps t (clamp(-0.0, 0) is -0.0)
// and a NaN anywhere gives NaN. The gradients are torch's: t gets it where
// lo <= t <= hi (ties included, NaN not), lo where t < lo < hi, hi where
// t > hi or hi < lo, on any dtype the result is a float of.
func (t *Tensor) Clamp(lo, hi any) *Tensor {
	if lo == nil && hi == nil {
		fail("clip: at least one of 'min_' or 'max_' must not be None")
	}
	y := t
	if lo != nil {
		y = y.Maximum(lo)
	}
	if hi != nil {
		y = y.Minimum(hi)
	}
	if !y.n.dtype.IsFloat() {
		return y
	}
	// The operands at the result's shape and dtype; the gradient of each
	// flows back through its cast and expand.
	at := func(v any) *Tensor {
		if v == nil {
			return nil
		}
		return t.operand(v).Cast(y.n.dtype).broadcastTo(y.n.shape)
	}
	x, l, h := at(t), at(lo), at(hi)
	srcs := []*Tensor{x}
	if l != nil {
		srcs = append(srcs, l)
	}
	if h != nil {
		srcs = append(srcs, h)
	}
	return withGrad(y, srcs, func(g *Tensor) []*Tensor {
		var in, gl, gh *Tensor
		switch {
		case h == nil:
			in, gl = ge2(x, l), x.Lt(l)
		case l == nil:
			in, gh = le2(x, h), x.Gt(h)
		default:
			in, gl, gh = ge2(x, l).And(le2(x, h)), x.Lt(l).And(l.Lt(h)), x.Gt(h).Or(h.Lt(l))
		}
		out := []*Tensor{in.Where(g, 0)}
		for _, m := range []*Tensor{gl, gh} {
			if m != nil {
				out = append(out, m.Where(g, 0))
			}
		}
		return out
	})
}

// le2 and ge2 are x <= y and x >= y, false for NaN on either side.
func le2(x, y *Tensor) *Tensor { return x.Lt(y).Or(x.Eq(y)) }
func ge2(x, y *Tensor) *Tensor { return x.Gt(y).Or(x.Eq(y)) }
