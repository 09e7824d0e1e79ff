package shape

import (
	"fmt"

	"tiny/symbolic"
)

// This file defines the movement ops of a View other than Reshape. Each one
// returns a new canonical view or an error naming the shapes involved.

// Permute returns the view with its axes reordered: axis i of the result is
// axis order[i] of v.
func (v View) Permute(order []int) (View, error) {
	if !isPermutation(order, len(v.Shape)) {
		return View{}, fmt.Errorf("permute: %s is not a permutation of the axes of %s", intsTuple(order), Tuple(v.Shape))
	}
	shape, strides := make([]node, len(order)), make([]node, len(order))
	var mask [][2]node
	if v.Mask != nil {
		mask = make([][2]node, len(order))
	}
	for i, a := range order {
		shape[i], strides[i] = v.Shape[a], v.Strides[a]
		if mask != nil {
			mask[i] = v.Mask[a]
		}
	}
	return create(shape, strides, v.Offset, mask), nil
}

func isPermutation(order []int, n int) bool {
	if len(order) != n {
		return false
	}
	seen := make([]bool, n)
	for _, a := range order {
		if a < 0 || a >= n || seen[a] {
			return false
		}
		seen[a] = true
	}
	return true
}

// Expand returns the view broadcast to shape: only size-1 dims may grow.
func (v View) Expand(shape []*symbolic.Node) (View, error) {
	if len(shape) != len(v.Shape) || hasNegative(shape) {
		return View{}, fmt.Errorf("expand: cannot expand %s to %s", Tuple(v.Shape), Tuple(shape))
	}
	if hasZero(v.Shape) {
		for i, s := range v.Shape {
			if !(isInt(s, 0) && isInt(shape[i], 0)) && !(!isInt(s, 0) && s.IsConst() && shape[i].IsConst() && shape[i].Val%s.Val == 0) {
				return View{}, fmt.Errorf("expand: cannot expand %s to %s", Tuple(v.Shape), Tuple(shape))
			}
		}
		return create(shape, nil, nil, nil), nil
	}
	for i, s := range v.Shape {
		if !eq(s, shape[i]) && !(isInt(s, 1) && isInt(v.Strides[i], 0)) {
			return View{}, fmt.Errorf("expand: cannot expand %s to %s", Tuple(v.Shape), Tuple(shape))
		}
	}
	var mask [][2]node
	if v.Mask != nil {
		mask = make([][2]node, len(shape))
		for i, m := range v.Mask {
			mask[i] = m
			if !eq(v.Shape[i], shape[i]) {
				mask[i] = [2]node{c(0), c(0)}
				if isInt(m[0], 0) && isInt(m[1], 1) {
					mask[i] = [2]node{c(0), shape[i]}
				}
			}
		}
	}
	return create(shape, v.Strides, v.Offset, mask), nil
}

func hasNegative(shape []node) bool {
	for _, s := range shape {
		if s.Min() < 0 {
			return true
		}
	}
	return false
}

func hasZero(shape []node) bool {
	for _, s := range shape {
		if isInt(s, 0) {
			return true
		}
	}
	return false
}

// Pad returns the view with p[i][0] invalid elements added before axis i and
// p[i][1] after it; the added elements are masked off.
func (v View) Pad(p [][2]*symbolic.Node) (View, error) {
	if len(p) != len(v.Shape) {
		return View{}, fmt.Errorf("pad: got %d pairs for shape %s, want %d", len(p), Tuple(v.Shape), len(v.Shape))
	}
	nonzero := false
	for _, x := range p {
		if x[0].Min() < 0 || x[1].Min() < 0 {
			return View{}, fmt.Errorf("pad: negative padding %s for shape %s", pairs(p), Tuple(v.Shape))
		}
		nonzero = nonzero || !isInt(x[0], 0) || !isInt(x[1], 0)
	}
	if !nonzero {
		return v, nil
	}
	arg, mask := make([][2]node, len(p)), make([][2]node, len(p))
	for i, x := range p {
		arg[i] = [2]node{sub(c(0), x[0]), add(v.Shape[i], x[1])}
		mask[i] = [2]node{x[0], add(v.Shape[i], x[0])}
	}
	return v.resize("pad", arg, mask)
}

// Shrink returns the view restricted to [p[i][0], p[i][1]) on each axis i.
func (v View) Shrink(p [][2]*symbolic.Node) (View, error) {
	if len(p) != len(v.Shape) {
		return View{}, fmt.Errorf("shrink: got %d pairs for shape %s, want %d", len(p), Tuple(v.Shape), len(v.Shape))
	}
	for i, x := range p {
		if x[0].Min() < 0 || x[0].Min() > x[1].Max() || x[1].Min() > v.Shape[i].Max() {
			return View{}, fmt.Errorf("shrink: invalid shrink %s for shape %s", pairs(p), Tuple(v.Shape))
		}
	}
	return v.resize("shrink", p, nil)
}

// resize moves the window to [arg[i][0], arg[i][1]) on each axis, shifting
// the old mask and intersecting it with mask (when given).
func (v View) resize(op string, arg [][2]node, mask [][2]node) (View, error) {
	offset := v.Offset
	for i, a := range arg {
		offset = add(offset, mul(v.Strides[i], a[0]))
	}
	if v.Mask != nil {
		nmask := make([][2]node, len(arg))
		for i, m := range v.Mask {
			a, ext := arg[i], sub(arg[i][1], arg[i][0])
			var ok [4]bool
			nmask[i][0], ok[0] = clamp(sub(m[0], a[0]), ext)
			nmask[i][1], ok[1] = clamp(sub(m[1], a[0]), ext)
			if mask != nil {
				nmask[i][0], ok[2] = maxN(nmask[i][0], mask[i][0])
				nmask[i][1], ok[3] = minN(nmask[i][1], mask[i][1])
			} else {
				ok[2], ok[3] = true, true
			}
			if ok != [4]bool{true, true, true, true} {
				return View{}, fmt.Errorf("%s: cannot order the symbolic mask %s of shape %s", op, pairs(v.Mask), Tuple(v.Shape))
			}
		}
		mask = nmask
	}
	shape := make([]node, len(arg))
	for i, a := range arg {
		shape[i] = sub(a[1], a[0])
	}
	if mask != nil && fullMask(mask, shape) {
		mask = nil
	}
	return create(shape, v.Strides, offset, mask), nil
}

// clamp returns x clamped to [0, hi], and false when the bounds of the
// symbolic values cannot decide it.
func clamp(x, hi node) (node, bool) {
	y, ok1 := minN(x, hi)
	z, ok2 := maxN(c(0), y)
	return z, ok1 && ok2
}

// Stride returns the view keeping every k[i]-th element of axis i, starting
// from the end when k[i] is negative; Stride with all k in {1, -1} is a flip.
func (v View) Stride(k []int) (View, error) {
	if len(k) != len(v.Shape) {
		return View{}, fmt.Errorf("stride: got %d steps for shape %s, want %d", len(k), Tuple(v.Shape), len(v.Shape))
	}
	n := len(k)
	shape, strides, offset := make([]node, n), make([]node, n), v.Offset
	for i, m := range k {
		if m == 0 {
			return View{}, fmt.Errorf("stride: zero step in %s for shape %s", intsTuple(k), Tuple(v.Shape))
		}
		am := c(int64(abs(m)))
		strides[i] = mul(v.Strides[i], c(int64(m)))
		shape[i] = ceilDiv(v.Shape[i], am)
		if m < 0 {
			offset = add(offset, mul(sub(v.Shape[i], c(1)), v.Strides[i]))
		}
	}
	var mask [][2]node
	if v.Mask != nil {
		mask = make([][2]node, n)
		for i, m := range k {
			b, e, am := v.Mask[i][0], v.Mask[i][1], c(int64(abs(m)))
			if m < 0 {
				b, e = sub(v.Shape[i], e), sub(v.Shape[i], b)
			}
			mask[i] = [2]node{ceilDiv(b, am), ceilDiv(e, am)}
		}
	}
	return create(shape, strides, offset, mask), nil
}

// ceilDiv returns ceil(a/b) for a >= 0 and b > 0.
func ceilDiv(a, b node) node {
	return symbolic.Simplify(symbolic.Div(symbolic.Add(a, sub(b, c(1))), b))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
