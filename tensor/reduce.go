package tensor

import (
	"sort"

	"tiny/codegen"
)

// Reductions take the axes to fold (nil means all; negative axes count from
// the end) and keepdim, which keeps the folded axes as size 1. They panic
// with a *Error on a bad or repeated axis.

// reduceAxes normalizes axes against t's rank: sorted, unique, nil = all.
func (t *Tensor) reduceAxes(op string, axes []int) []int {
	n := t.Ndim()
	if n == 0 {
		// A 0-d tensor takes axis 0 or -1 (as torch's): nothing to fold.
		for _, a := range axes {
			normAxis(op, a, 1)
		}
		return []int{}
	}
	if axes == nil {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	seen := map[int]bool{}
	var out []int
	for _, a := range axes {
		a = normAxis(op, a, n)
		if seen[a] {
			fail("%s: axis %d repeated", op, a)
		}
		seen[a] = true
		out = append(out, a)
	}
	sort.Ints(out)
	return out
}

// reduce folds axes of t with op (OpAdd, OpMax or OpMul) in t's dtype.
func (t *Tensor) reduce(name string, op codegen.Op, axes []int, keepdim bool) *Tensor {
	ax := t.reduceAxes(name, axes)
	kshape := append([]int(nil), t.n.shape...)
	folds, empty := false, false
	for _, a := range ax {
		folds = folds || kshape[a] != 1
		empty = empty || kshape[a] == 0
		kshape[a] = 1
	}
	var out *Tensor
	switch {
	case empty:
		ident := 0.0
		switch op {
		case codegen.OpMul:
			ident = 1
		case codegen.OpMax:
			ident = minValue(t.n.dtype)
		}
		out = t.n.eng.Full(kshape, ident, t.n.dtype)
	case !folds:
		out = t.Reshape(kshape...)
	default:
		out = &Tensor{&lazy{kind: kReduce, op: op, dtype: t.n.dtype, shape: kshape,
			src: []*lazy{t.n}, axes: ax, eng: t.n.eng}}
	}
	if keepdim {
		return out
	}
	shp := []int{}
	j := 0
	for i, d := range t.n.shape {
		if j < len(ax) && ax[j] == i {
			j++
			continue
		}
		shp = append(shp, d)
	}
	return out.Reshape(shp...)
}

// sumDType is the dtype sums accumulate in, tinygrad's sum_acc_dtype:
// unsigned ints at least uint32, bool and signed ints at least int32,
// floats at least float32.
func sumDType(d DType) DType {
	switch {
	case d.IsUnsigned():
		return codegen.Promote(d, Uint32)
	case d.IsFloat():
		return codegen.Promote(d, Float32)
	}
	return codegen.Promote(d, Int32)
}

// Sum returns the sum over axes in sumDType (uint8 sums as uint32, bool and
// int8 as int32); float16 accumulates in float32 and gives float16.
func (t *Tensor) Sum(axes []int, keepdim bool) *Tensor {
	s := t.Cast(sumDType(t.n.dtype)).reduce("sum", codegen.OpAdd, axes, keepdim)
	if t.n.dtype == Float16 {
		return s.Cast(Float16)
	}
	return s
}

// SumAcc returns the sum over axes accumulated in, and given as, dtype acc
// (tinygrad's acc_dtype=).
func (t *Tensor) SumAcc(axes []int, keepdim bool, acc DType) *Tensor {
	checkDType("sum", acc)
	if acc == Bool {
		return t.Cast(Int32).reduce("sum", codegen.OpAdd, axes, keepdim).Cast(Bool)
	}
	return t.Cast(acc).reduce("sum", codegen.OpAdd, axes, keepdim)
}

// Prod returns the product over axes in t's dtype, as tinygrad's: a bool
// product is bool (all of them true), computed in int32.
func (t *Tensor) Prod(axes []int, keepdim bool) *Tensor {
	if t.n.dtype == Bool {
		return t.ProdAcc(axes, keepdim, Bool)
	}
	return t.reduce("prod", codegen.OpMul, axes, keepdim)
}

// ProdAcc returns the product over axes computed in, and given as, dtype
// acc (tinygrad's acc_dtype=).
func (t *Tensor) ProdAcc(axes []int, keepdim bool, acc DType) *Tensor {
	checkDType("prod", acc)
	if acc == Bool {
		return t.Cast(Int32).reduce("prod", codegen.OpMul, axes, keepdim).Cast(Bool)
	}
	return t.Cast(acc).reduce("prod", codegen.OpMul, axes, keepdim)
}

// Max returns the maximum over axes.
func (t *Tensor) Max(axes []int, keepdim bool) *Tensor {
	if t.n.dtype == Bool {
		return t.Cast(Int32).reduce("max", codegen.OpMax, axes, keepdim).Cast(Bool)
	}
	return t.reduce("max", codegen.OpMax, axes, keepdim)
}

// Min returns the minimum over axes.
func (t *Tensor) Min(axes []int, keepdim bool) *Tensor {
	switch t.n.dtype {
	case Bool:
		return t.Not().Max(axes, keepdim).Not()
	}
	if t.n.dtype.IsInt() {
		// ~x reverses the order without overflow (-x wraps at the minimum
		// and is not an order for unsigned ints).
		return t.Xor(-1).Max(axes, keepdim).Xor(-1)
	}
	return t.Neg().Max(axes, keepdim).Neg()
}

// Mean returns the average over axes, in float32 for int and bool tensors.
func (t *Tensor) Mean(axes []int, keepdim bool) *Tensor {
	n := t.foldedCount("mean", axes)
	// The sum stays in its accumulation dtype through the division, as
	// tinygrad's: a float16 mean of 65536 values of 60000 is 60000, not
	// the float16 sum's inf over n (and its gradient 1/n is not 1/inf).
	s := t.Cast(sumDType(t.n.dtype)).reduce("sum", codegen.OpAdd, axes, keepdim)
	// n == 0 divides 0 by 0: NaN, as torch's mean of nothing.
	return s.floatOf().Div(float64(n)).Cast(t.floatOf().n.dtype)
}

// Var returns the variance over axes with Bessel's correction (divides by
// n-1), as tinygrad's default.
func (t *Tensor) Var(axes []int, keepdim bool) *Tensor {
	n := t.foldedCount("var", axes)
	x := t.floatOf()
	sq := x.Sub(x.Mean(axes, true)).Square()
	return sq.Sum(axes, keepdim).Div(float64(max(n-1, 0)))
}

// Std returns the standard deviation over axes, sqrt of Var.
func (t *Tensor) Std(axes []int, keepdim bool) *Tensor { return t.Var(axes, keepdim).Sqrt() }

// foldedCount returns how many elements each output of a reduce folds.
func (t *Tensor) foldedCount(op string, axes []int) int {
	n := 1
	for _, a := range t.reduceAxes(op, axes) {
		n *= t.n.shape[a]
	}
	return n
}

// Argmax returns the int32 index of the first maximum along one axis, or of
// the flattened tensor when axes is nil; a NaN counts as the maximum, as in
// torch. It panics with a *Error when given
// more than one axis.
func (t *Tensor) Argmax(axes []int, keepdim bool) *Tensor {
	if axes == nil {
		r := t.Flatten().Argmax([]int{0}, false)
		if keepdim {
			return r.Reshape(padLeft(nil, t.Ndim())...)
		}
		return r
	}
	if len(axes) != 1 {
		fail("argmax: got %d axes, want 1", len(axes))
	}
	a := normAxis("argmax", axes[0], t.Ndim())
	n := t.n.shape[a]
	isMax := t.Eq(t.Max([]int{a}, true))
	if t.n.dtype.IsFloat() {
		// As torch: a NaN is the maximum (the max is NaN), and the first
		// NaN is the answer; NaN == NaN would point past the axis.
		isMax = isMax.Or(t.Ne(t))
	}
	rev := make([]int, t.Ndim()-a)
	rev[0] = n
	for i := 1; i < len(rev); i++ {
		rev[i] = 1
	}
	desc := t.n.eng.Arange(float64(n), 0, -1, Int32).Reshape(rev...)
	idx := isMax.Mul(desc).Max([]int{a}, keepdim)
	return idx.RSub(n).Cast(Int32)
}

// Argmin returns the int32 index of the first minimum; see Argmax.
func (t *Tensor) Argmin(axes []int, keepdim bool) *Tensor {
	switch t.n.dtype {
	case Bool:
		return t.Not().Argmax(axes, keepdim)
	}
	if t.n.dtype.IsInt() {
		return t.Xor(-1).Argmax(axes, keepdim)
	}
	return t.Neg().Argmax(axes, keepdim)
}

// Cumsum returns running sums along axis (dtype as Sum's), as a blocked
// scan (scan.go).
func (t *Tensor) Cumsum(axis int) *Tensor {
	if t.Ndim() == 0 {
		normAxis("cumsum", axis, 1) // 0 and -1 only
		return t.Cast(sumDType(t.n.dtype))
	}
	a := normAxis("cumsum", axis, t.Ndim())
	return t.scan(scanAdd, a)
}

// Softmax returns e**t normalized to sum 1 along axis.
func (t *Tensor) Softmax(axis int) *Tensor {
	_, e, s := t.softmaxParts(axis)
	return e.Div(s)
}

// LogSoftmax returns the log of Softmax, computed stably.
func (t *Tensor) LogSoftmax(axis int) *Tensor {
	m, _, s := t.softmaxParts(axis)
	return m.Sub(s.Log())
}

func (t *Tensor) softmaxParts(axis int) (m, e, s *Tensor) {
	x := t.floatOf()
	if t.Ndim() == 0 {
		// Axis 0 or -1 of a 0-d tensor: the softmax of one element.
		normAxis("softmax", axis, 1)
		m, e, s = x.Reshape(1).softmaxParts(0)
		return m.Reshape(), e.Reshape(), s.Reshape()
	}
	a := []int{normAxis("softmax", axis, t.Ndim())}
	m = x.Sub(x.Max(a, true))
	e = m.Exp()
	return m, e, e.Sum(a, true)
}

// minValue returns the smallest value of dtype d (-inf for floats).
func minValue(d DType) float64 {
	lo, _ := d.MinMax()
	return lo
}
