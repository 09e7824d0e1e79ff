package tensor

import (
	"runtime"

	"tiny/devices"
	"tiny/shape"
)

// Reading a tensor realizes it. A tensor that is a plain view of a buffer
// (same layout) is read in place; any other view is first copied by a
// contiguous kernel, which is freed after the read.

// withData calls f with t's values in row-major order in a buffer.
func (t *Tensor) withData(f func(b *devices.Buffer)) {
	n := t.n
	if n.baseOf().kind == kConst {
		b := alloc("read", n.dtype, prod(n.shape))
		vals := make([]float64, b.Len)
		for i := range vals {
			vals[i] = n.baseOf().val
		}
		if n.kind != kView || !masked(n.st) {
			writeFloats(b, vals)
			f(b)
			b.Free()
			return
		}
		b.Free()
	}
	defer runtime.KeepAlive(n) // its buffer must outlive f
	if n.kind != kView {
		t.realizeRead()
		f(n.buf)
		return
	}
	if n.base.kind == kBuffer && keepsLayout(n) {
		f(n.base.buf)
		return
	}
	c := t.Contiguous()
	c.Realize()
	f(c.n.buf)
	c.n.buf.Free()
	runtime.KeepAlive(c.n)
}

// ShapeTracker returns the view through which t reads its base: the
// movement ops applied since the last computed value (one contiguous view
// for a base).
func (t *Tensor) ShapeTracker() shape.Tracker {
	if t.n.kind == kView {
		return t.n.st
	}
	return shape.FromInts(t.n.shape...)
}

// Floats returns t's values, row-major, as float64s (int64 values beyond
// 2**53 round). It realizes t.
func (t *Tensor) Floats() []float64 {
	var out []float64
	t.withData(func(b *devices.Buffer) { out = readFloats(b) })
	return out
}

// Ints returns t's values, row-major, as int64s (floats truncate toward
// zero). It realizes t.
func (t *Tensor) Ints() []int64 {
	var out []int64
	t.withData(func(b *devices.Buffer) { out = readInts(b) })
	return out
}

// Bools returns t's values, row-major, as bools (nonzero is true). It
// realizes t.
func (t *Tensor) Bools() []bool {
	out := make([]bool, 0, t.Numel())
	for _, v := range t.Floats() {
		out = append(out, v != 0)
	}
	return out
}

// Item returns the value of a one-element tensor as a float64 (see Value
// for a typed form). It panics with a *Error if t has another size.
func (t *Tensor) Item() float64 {
	if t.Numel() != 1 {
		fail("item: tensor of shape %s has %d elements, want 1", FormatShape(t.n.shape), t.Numel())
	}
	return t.Floats()[0]
}

// Value returns the value of a one-element tensor as a Go bool, int64 or
// float64 according to its dtype. It panics with a *Error if t has another
// size.
func (t *Tensor) Value() any {
	if t.Numel() != 1 {
		fail("item: tensor of shape %s has %d elements, want 1", FormatShape(t.n.shape), t.Numel())
	}
	v := t.ToList()
	for {
		l, ok := v.([]any)
		if !ok {
			return v
		}
		v = l[0] // shape (1,), (1, 1), ...: the one leaf
	}
}

// ToList returns t as nested []any (one level per axis) of bool, int64
// (uint64 for a uint64 tensor) or float64 leaves according to its dtype; a rank-0 tensor gives the bare
// leaf. It realizes t.
func (t *Tensor) ToList() any {
	var leaves []any
	switch d := t.n.dtype; {
	case d == Bool:
		for _, v := range t.Bools() {
			leaves = append(leaves, v)
		}
	case d == Uint64:
		for _, v := range t.Ints() {
			leaves = append(leaves, uint64(v)) // the bits: 2**63 and above stay positive
		}
	case d.IsInt():
		for _, v := range t.Ints() {
			leaves = append(leaves, v)
		}
	default:
		for _, v := range t.Floats() {
			leaves = append(leaves, v)
		}
	}
	var nest func(axis, off int) any
	nest = func(axis, off int) any {
		if axis == len(t.n.shape) {
			return leaves[off]
		}
		step := prod(t.n.shape[axis+1:])
		out := make([]any, t.n.shape[axis])
		for i := range out {
			out[i] = nest(axis+1, off+i*step)
		}
		return out
	}
	return nest(0, 0)
}
