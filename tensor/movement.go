package tensor

// Movement ops change only the view: each returns a tensor over the same base
// through a new shape.Tracker, so no data moves.

// Reshape returns t with a new shape of the same size; one dimension may be
// -1 and is then inferred. It panics with a *Error if the sizes differ or the
// shape is malformed.
func (t *Tensor) Reshape(shp ...int) *Tensor {
	out := append([]int(nil), shp...)
	infer, known := -1, 1
	for i, d := range out {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d < 0:
			fail("reshape: cannot reshape %s to %s", FormatShape(t.n.shape), FormatShape(shp))
		default:
			known *= d
		}
	}
	if infer >= 0 {
		if known == 0 || t.Numel()%known != 0 {
			fail("reshape: cannot reshape %s to %s", FormatShape(t.n.shape), FormatShape(shp))
		}
		out[infer] = t.Numel() / known
	}
	if prod(out) != t.Numel() {
		fail("reshape: cannot reshape %s to %s", FormatShape(t.n.shape), FormatShape(shp))
	}
	return &Tensor{t.n.reshape(out)}
}

// Permute returns t with its axes reordered: axis i of the result is axis
// order[i] of t. Negative axes count from the end. It panics with a *Error if
// order is not a permutation of t's axes.
func (t *Tensor) Permute(order ...int) *Tensor {
	n := t.Ndim()
	if len(order) != n {
		fail("permute: order %s does not match shape %s", FormatShape(order), FormatShape(t.n.shape))
	}
	norm := make([]int, n)
	seen := make([]bool, n)
	for i, a := range order {
		norm[i] = normAxis("permute", a, n)
		if seen[norm[i]] {
			fail("permute: order %s repeats an axis", FormatShape(order))
		}
		seen[norm[i]] = true
	}
	identity := true
	for i, a := range norm {
		identity = identity && a == i
	}
	if identity {
		return t
	}
	return &Tensor{t.n.view(move{op: mvPermute, order: norm})}
}

// Expand returns t broadcast to shp. t's shape is first padded with leading
// 1s to shp's rank; dims of size 1 may grow, and -1 keeps a dim. It panics
// with a *Error when t cannot broadcast to shp.
func (t *Tensor) Expand(shp ...int) *Tensor {
	if len(shp) < t.Ndim() {
		fail("expand: cannot broadcast %s to %s", FormatShape(t.n.shape), FormatShape(shp))
	}
	src := padLeft(t.n.shape, len(shp))
	out := make([]int, len(shp))
	for i, d := range shp {
		switch {
		case d == -1 || d == src[i]:
			out[i] = src[i]
		case src[i] == 1 && d >= 0:
			out[i] = d
		default:
			fail("expand: cannot broadcast %s to %s", FormatShape(t.n.shape), FormatShape(shp))
		}
	}
	return &Tensor{t.n.reshape(src).expand(out)}
}

// Pad adds p[i][0] elements before and p[i][1] after axis i, all equal to
// value (0 if omitted); p may cover fewer axes than t has (the rest are not
// padded). It panics with a *Error on negative or too many pads.
func (t *Tensor) Pad(p [][2]int, value ...float64) *Tensor {
	if len(p) > t.Ndim() {
		fail("pad: %d pads for shape %s", len(p), FormatShape(t.n.shape))
	}
	full := make([][2]int, t.Ndim())
	copy(full, p)
	any := false
	for _, x := range full {
		if x[0] < 0 || x[1] < 0 {
			fail("pad: negative padding %v for shape %s", p, FormatShape(t.n.shape))
		}
		any = any || x[0] != 0 || x[1] != 0
	}
	if !any {
		return t
	}
	padded := &Tensor{t.n.view(move{op: mvPad, bounds: full})}
	if len(value) == 0 || value[0] == 0 {
		return padded
	}
	// value fills where a padded all-true mask reads false.
	mask := t.n.eng.Full(t.n.shape, 1, Bool).Pad(full)
	return mask.Where(padded, t.n.eng.Scalar(value[0], t.n.dtype))
}

// Shrink returns the window [p[i][0], p[i][1]) of each axis i; p may cover
// fewer axes than t has. It panics with a *Error on bounds outside the shape.
func (t *Tensor) Shrink(p [][2]int) *Tensor {
	if len(p) > t.Ndim() {
		fail("shrink: %d bounds for shape %s", len(p), FormatShape(t.n.shape))
	}
	full := make([][2]int, t.Ndim())
	same := true
	for i, d := range t.n.shape {
		full[i] = [2]int{0, d}
		if i < len(p) {
			full[i] = p[i]
		}
		if full[i][0] < 0 || full[i][1] > d || full[i][0] > full[i][1] {
			fail("shrink: bounds %v do not fit shape %s", p, FormatShape(t.n.shape))
		}
		same = same && full[i] == [2]int{0, d}
	}
	if same {
		return t
	}
	return &Tensor{t.n.view(move{op: mvShrink, bounds: full})}
}

// Flip reverses t along the given axes (negative allowed). It panics with a
// *Error on a bad or repeated axis.
func (t *Tensor) Flip(axes ...int) *Tensor {
	flip := make([]bool, t.Ndim())
	for _, a := range axes {
		a = normAxis("flip", a, t.Ndim())
		if flip[a] {
			fail("flip: axis %d repeated", a)
		}
		flip[a] = true
	}
	return &Tensor{t.n.view(move{op: mvFlip, flip: flip})}
}

// stride keeps every k[i]-th element of axis i (k[i] > 0).
func (t *Tensor) stride(k []int) *Tensor {
	return &Tensor{t.n.view(move{op: mvStride, steps: k})}
}

// Transpose swaps axes a and b (negative allowed). It panics with a *Error
// on a bad axis.
func (t *Tensor) Transpose(a, b int) *Tensor {
	n := t.Ndim()
	a, b = normAxis("transpose", a, n), normAxis("transpose", b, n)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	order[a], order[b] = order[b], order[a]
	return t.Permute(order...)
}

// T returns t with its first two axes swapped, as tinygrad's (transpose()
// with its defaults): a matrix's transpose. It panics with a *Error below
// rank 2, as tinygrad raises.
func (t *Tensor) T() *Tensor {
	if t.Ndim() < 2 {
		fail("T: needs a tensor of rank 2 or more, got rank %d (T swaps axes 0 and 1)", t.Ndim())
	}
	return t.Transpose(1, 0)
}

// Flatten merges axes start..end (default all) into one. It panics with a
// *Error on a bad axis.
func (t *Tensor) Flatten(startEnd ...int) *Tensor {
	n := t.Ndim()
	if n == 0 {
		return t.Reshape(1)
	}
	s, e := 0, n-1
	if len(startEnd) > 0 {
		s = normAxis("flatten", startEnd[0], n)
	}
	if len(startEnd) > 1 {
		e = normAxis("flatten", startEnd[1], n)
	}
	if s > e {
		fail("flatten: start axis %d is after end axis %d", s, e)
	}
	shp := append([]int(nil), t.n.shape[:s]...)
	shp = append(shp, prod(t.n.shape[s:e+1]))
	return t.Reshape(append(shp, t.n.shape[e+1:]...)...)
}

// Squeeze removes the given axes, which must have size 1, or with no axes
// every axis of size 1 (tinygrad leaves an axis of another size alone). It
// panics with a *Error on a bad axis.
func (t *Tensor) Squeeze(axes ...int) *Tensor {
	n := t.Ndim()
	drop := make([]bool, n)
	if len(axes) == 0 {
		for i, d := range t.n.shape {
			drop[i] = d == 1
		}
	}
	for _, a := range axes {
		if n == 0 && (a == 0 || a == -1) {
			return t
		}
		a = normAxis("squeeze", a, n)
		drop[a] = t.n.shape[a] == 1
	}
	shp := []int{}
	for i, d := range t.n.shape {
		if !drop[i] {
			shp = append(shp, d)
		}
	}
	return t.Reshape(shp...)
}

// Unsqueeze inserts an axis of size 1 at position axis (negative counts from
// the end of the result). It panics with a *Error on a bad axis.
func (t *Tensor) Unsqueeze(axis int) *Tensor {
	a := normAxis("unsqueeze", axis, t.Ndim()+1)
	shp := append([]int(nil), t.n.shape[:a]...)
	shp = append(shp, 1)
	return t.Reshape(append(shp, t.n.shape[a:]...)...)
}

// padLeft returns s with leading 1s up to rank n.
func padLeft(s []int, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	copy(out[n-len(s):], s)
	return out
}
