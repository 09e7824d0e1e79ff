package tensor

import "fmt"

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
