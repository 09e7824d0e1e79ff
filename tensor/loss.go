package tensor

import (
	"math"
	"slices"
	"sort"
	"strings"
)

// This file holds losses and statistics after tinygrad's Tensor: each is
// built from the primitive ops, so it fuses and has gradients.

// VarCorrection returns the variance over axes (nil: all) divided by
// n - correction (tinygrad's and torch's var(correction=)); a divisor of 0
// or less gives inf or nan, as in torch.
func (t *Tensor) VarCorrection(axes []int, keepdim bool, correction float64) *Tensor {
	n := t.foldedCount("var", axes)
	x := t.floatOf()
	sq := x.Sub(x.Mean(axes, true)).Square()
	return sq.Sum(axes, keepdim).Div(math.Max(0, float64(n)-correction))
}

// StdCorrection returns the square root of VarCorrection.
func (t *Tensor) StdCorrection(axes []int, keepdim bool, correction float64) *Tensor {
	return t.VarCorrection(axes, keepdim, correction).Sqrt()
}

// LogSumExp returns log(sum(exp(t))) over axes (nil: all), computed from
// the maximum so that it does not overflow. Infinite maxima give torch's
// result (-inf for an all -inf row, inf for a row holding inf).
func (t *Tensor) LogSumExp(axes []int, keepdim bool) *Tensor {
	x := t.floatOf()
	m := x.Max(axes, true).Detach()
	m = m.Abs().Eq(math.Inf(1)).Where(0, m)
	s := x.Sub(m).Exp().Sum(axes, keepdim).Log()
	return s.Add(m.Reshape(s.Shape()...))
}

// LogCumSumExp returns log(cumsum(exp(t))) along axis, shifted by the
// axis's maximum so that it does not overflow.
func (t *Tensor) LogCumSumExp(axis int) *Tensor {
	x := t.floatOf()
	if x.Ndim() == 0 {
		normAxis("logcumsumexp", axis, 1)
		return x
	}
	a := normAxis("logcumsumexp", axis, x.Ndim())
	m := x.Max([]int{a}, true).Detach()
	m = m.Abs().Eq(math.Inf(1)).Where(0, m)
	return x.Sub(m).Exp().Cumsum(a).Log().Add(m)
}

// Cummax returns the running maximum along axis (values only, as
// tinygrad's cummax).
func (t *Tensor) Cummax(axis int) *Tensor {
	if t.Ndim() == 0 {
		normAxis("cummax", axis, 1)
		return t
	}
	a := normAxis("cummax", axis, t.Ndim())
	return t.scan(scanMax, a)
}

// Any reports whether some element over axes is nonzero (bool); an empty
// axis gives false. (The max of the bools as int32 is compared with 0, not
// cast: an empty max is int32's minimum.)
func (t *Tensor) Any(axes []int, keepdim bool) *Tensor {
	return t.Bool().Cast(Int32).Max(axes, keepdim).Gt(0)
}

// All reports whether every element over axes is nonzero (bool); an empty
// axis gives true.
func (t *Tensor) All(axes []int, keepdim bool) *Tensor {
	return t.Bool().Not().Any(axes, keepdim).Not()
}

// reduction applies a loss's reduction: "mean", "sum" or "none".
func (t *Tensor) reduction(r string) *Tensor {
	switch r {
	case "mean":
		return t.Mean(nil, false)
	case "sum":
		return t.Sum(nil, false)
	case "none":
		return t
	}
	fail("reduction='%s' must be one of ('mean', 'sum', 'none')", r)
	return nil
}

func checkReduction(r string) {
	if r != "mean" && r != "sum" && r != "none" {
		fail("reduction='%s' must be one of ('mean', 'sum', 'none')", r)
	}
}

// BinaryCrossEntropy returns -(y*log(t) + (1-y)*log(1-t)) for
// probabilities t, reduced.
func (t *Tensor) BinaryCrossEntropy(y *Tensor, reduction string) *Tensor {
	checkReduction(reduction)
	one := y.RSub(1)
	return y.Neg().Mul(t.Log()).Sub(one.Mul(t.RSub(1).Log())).reduction(reduction)
}

// BinaryCrossEntropyLogits is BinaryCrossEntropy of sigmoid(t), computed
// stably from the logits t: max(t, 0) - y*t + log(1 + exp(-|t|)).
func (t *Tensor) BinaryCrossEntropyLogits(y *Tensor, reduction string) *Tensor {
	checkReduction(reduction)
	soft := t.Abs().Neg().Exp().Add(1).Log()
	return t.Maximum(0).Sub(y.Mul(t)).Add(soft).reduction(reduction)
}

// SparseCategoricalCrossEntropy returns the cross entropy of logits t
// (classes on the last axis) against integer classes y (tinygrad's
// sparse_categorical_crossentropy): entries whose class is ignoreIndex count
// for nothing (with -1, the default, nothing is ignored and a class of -1
// contributes 0 but still counts in the mean), and labelSmoothing mixes in
// the mean log-probability.
func (t *Tensor) SparseCategoricalCrossEntropy(y *Tensor, ignoreIndex int, labelSmoothing float64, reduction string) *Tensor {
	if labelSmoothing < 0 || labelSmoothing > 1 {
		fail("sparse_categorical_crossentropy: label_smoothing must be in [0.0, 1.0]")
	}
	checkReduction(reduction)
	if !y.DType().IsInt() {
		fail("sparse_categorical_crossentropy: target dtype %s is not an integer", y.DType())
	}
	if t.Ndim() == 0 {
		fail("sparse_categorical_crossentropy: logits must have a class axis")
	}
	classes := t.n.shape[t.Ndim()-1]
	logp := t.LogSoftmax(-1)
	mask := y.Ne(ignoreIndex)
	if ignoreIndex == -1 {
		mask = y.n.eng.Full(y.n.shape, 1, Bool)
	}
	hit := y.Reshape(-1, 1).Eq(t.n.eng.Arange(0, float64(classes), 1, y.DType()))
	oh := hit.Mul(mask.Reshape(-1, 1)).Reshape(append(y.Shape(), classes)...)
	smooth := logp.Mean([]int{-1}, false).Mul(mask).Mul(labelSmoothing)
	un := logp.Mul(oh).Sum([]int{-1}, false).Mul(1 - labelSmoothing).Add(smooth)
	switch reduction {
	case "mean":
		return un.Sum(nil, false).Div(mask.Sum(nil, false)).Neg()
	case "sum":
		return un.Sum(nil, false).Neg()
	}
	return un.Neg()
}

// CrossEntropy returns the cross entropy of logits t (classes on axis 1)
// against y: integer classes when y has fewer than 2 axes, else
// probabilities of t's shape (tinygrad's cross_entropy); labelSmoothing
// mixes the targets with the uniform distribution.
func (t *Tensor) CrossEntropy(y *Tensor, reduction string, labelSmoothing float64) *Tensor {
	if labelSmoothing < 0 || labelSmoothing > 1 {
		fail("cross_entropy: label_smoothing must be in [0.0, 1.0]")
	}
	checkReduction(reduction)
	if t.Ndim() < 2 {
		fail("cross_entropy: logits of shape %s have no class axis 1", FormatShape(t.n.shape))
	}
	if y.Ndim() < 2 {
		if !y.DType().IsInt() {
			fail("cross_entropy: class targets must be integers, got %s", y.DType())
		}
		y = y.OneHot(t.n.shape[1])
	}
	y = y.Mul(1 - labelSmoothing).Add(labelSmoothing / float64(y.Shape()[1]))
	return t.LogSoftmax(1).Mul(y).Sum([]int{1}, false).Neg().reduction(reduction)
}

// NLLLoss returns the negative log likelihood of log-probabilities t
// (classes on axis 1) at integer classes y, weighted per class by weight
// (nil: 1); entries whose class is ignoreIndex (when hasIgnore) count for
// nothing. The mean divides by the total weight counted (tinygrad's
// nll_loss).
func (t *Tensor) NLLLoss(y, weight *Tensor, ignoreIndex int, hasIgnore bool, reduction string) *Tensor {
	checkReduction(reduction)
	if !y.DType().IsInt() {
		fail("nll_loss: target dtype %s is not an integer", y.DType())
	}
	if t.Ndim() < 1 {
		fail("nll_loss: input must have a class axis")
	}
	var w *Tensor
	if weight == nil {
		w = y.n.eng.Full(y.n.shape, 1, y.DType())
	} else {
		w = weight.Index(TensorIndex(y))
	}
	if hasIgnore {
		w = w.Mul(y.Ne(ignoreIndex))
	}
	axis := min(1, t.Ndim()-1)
	nll := t.Gather(axis, y.Unsqueeze(axis)).Squeeze(axis).Neg().Mul(w)
	if reduction == "mean" {
		return nll.Sum(nil, false).Div(w.Sum(nil, false))
	}
	return nll.reduction(reduction)
}

// ScaledDotProductAttention returns softmax(q k^T / sqrt(d) + mask) v with
// q = t. A bool mask keeps the positions where it is true; isCausal masks
// the positions after each query's own. dropoutP zeroes that fraction of
// the attention weights (drawn like Rand) and scales the rest by
// 1/(1-dropoutP); the caller passes 0 outside training, as tinygrad's
// dropout does nothing there.
func (t *Tensor) ScaledDotProductAttention(key, value, mask *Tensor, dropoutP float64, isCausal bool) *Tensor {
	if t.Ndim() < 2 || key.Ndim() < 2 {
		fail("scaled_dot_product_attention: query and key need at least 2 axes")
	}
	if dropoutP < 0 || dropoutP > 1 {
		fail("scaled_dot_product_attention: dropout_p must be in [0, 1], got %v", dropoutP)
	}
	if isCausal {
		lq, lk := t.n.shape[t.Ndim()-2], key.n.shape[key.Ndim()-2]
		r := t.n.eng.Arange(0, float64(lq), 1, Int32).Reshape(lq, 1)
		c := t.n.eng.Arange(0, float64(lk), 1, Int32).Reshape(1, lk)
		mask = c.Le(r)
	}
	if mask != nil && mask.DType() == Bool {
		mask = mask.Where(0, math.Inf(-1))
	}
	d := t.n.shape[t.Ndim()-1]
	qk := t.Matmul(key.Transpose(-2, -1)).Div(math.Sqrt(float64(d)))
	if mask != nil {
		qk = qk.Add(mask)
	}
	w := qk.Softmax(-1).Cast(t.DType())
	if dropoutP > 0 {
		keep := t.n.eng.Rand(w.Shape()).Ge(dropoutP)
		w = keep.Where(w, 0).Mul(1 / (1 - dropoutP))
	}
	return w.Matmul(value)
}

// Einsum sums the product of xs over the subscripts that formula's output
// leaves out (Einstein summation, as torch.einsum and tinygrad's einsum):
// "ij,jk->ik" is a matmul; without "->" the output is the subscripts seen
// once, in order; "..." stands for the leading axes each operand has beyond
// its letters, broadcast together. Sizes of 1 broadcast. It is one fused
// reduce.
func Einsum(formula string, xs ...*Tensor) *Tensor {
	f := strings.ReplaceAll(formula, " ", "")
	lhs, out, explicit := strings.Cut(f, "->")
	inputs := strings.Split(lhs, ",")
	if len(xs) == 0 {
		fail("einsum: needs at least one operand")
	}
	if len(inputs) != len(xs) {
		fail("einsum: number of inputs doesn't match number of operands in formula, expected %d, got %d", len(inputs), len(xs))
	}
	used := map[rune]bool{}
	for _, c := range f {
		used[c] = true
	}
	var free []rune
	for c := 'A'; c <= 'Z'; c++ {
		if !used[c] {
			free = append(free, c)
		}
	}
	ell := 0
	for i, in := range inputs {
		if strings.Count(in, "...") > 1 {
			fail("einsum: operand %d has more than one ellipsis", i)
		}
		if strings.Contains(in, "...") {
			k := xs[i].Ndim() - (len(in) - 3)
			if k < 0 {
				fail("einsum: operand %d has %d axes, fewer than the %d subscripts of '%s'", i, xs[i].Ndim(), len(in)-3, in)
			}
			ell = max(ell, k)
		}
	}
	if ell > len(free) {
		fail("einsum: too many axes under the ellipsis")
	}
	ellOf := func(k int) string { return string(free[len(free)-k:]) }
	for i, in := range inputs {
		if strings.Contains(in, "...") {
			inputs[i] = strings.Replace(in, "...", ellOf(xs[i].Ndim()-(len(in)-3)), 1)
		}
	}
	size := map[rune]int{}
	count := map[rune]int{}
	for i, in := range inputs {
		if len(in) != xs[i].Ndim() {
			fail("einsum: the number of subscripts in '%s' (%d) does not match the number of axes (%d) of operand %d",
				in, len(in), xs[i].Ndim(), i)
		}
		seen := map[rune]bool{}
		for a, c := range in {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				fail("einsum: invalid subscript '%c' in '%s'", c, formula)
			}
			if seen[c] {
				fail("einsum: subscript '%c' repeated in operand %d is not supported", c, i)
			}
			seen[c] = true
			count[c]++
			d := xs[i].n.shape[a]
			if old, ok := size[c]; ok && old != d && old != 1 && d != 1 {
				fail("einsum: subscript '%c' has size %d in one operand and %d in operand %d", c, old, d, i)
			}
			if old, ok := size[c]; !ok || old == 1 {
				size[c] = d
			}
		}
	}
	if explicit {
		if strings.Count(out, "...") > 1 {
			fail("einsum: the output has more than one ellipsis")
		}
		out = strings.Replace(out, "...", ellOf(ell), 1)
		seen := map[rune]bool{}
		for _, c := range out {
			if _, ok := size[c]; !ok {
				fail("einsum: output subscript '%c' does not appear in an input", c)
			}
			if seen[c] {
				fail("einsum: output subscript '%c' appears more than once", c)
			}
			seen[c] = true
		}
	} else {
		e := ellOf(ell)
		var once []rune
		for c, n := range count {
			if n == 1 && !strings.ContainsRune(e, c) {
				once = append(once, c)
			}
		}
		slices.Sort(once)
		out = e + string(once)
	}
	var letters []rune
	for c := range size {
		letters = append(letters, c)
	}
	sort.Slice(letters, func(i, j int) bool { return letters[i] < letters[j] })
	full := make([]int, len(letters))
	for i, c := range letters {
		full[i] = size[c]
	}
	var prod *Tensor
	for i, in := range inputs {
		rs := []rune(in)
		order := make([]int, len(rs))
		for a := range order {
			order[a] = a
		}
		sort.Slice(order, func(a, b int) bool { return rs[order[a]] < rs[order[b]] })
		shp := make([]int, len(letters))
		for j, c := range letters {
			shp[j] = 1
			if k := strings.IndexRune(in, c); k >= 0 {
				shp[j] = xs[i].n.shape[k]
			}
		}
		x := xs[i].Permute(order...).Reshape(shp...).Expand(full...)
		if prod == nil {
			prod = x
		} else {
			prod = prod.Mul(x)
		}
	}
	var sum []int
	var kept []rune
	for j, c := range letters {
		if strings.ContainsRune(out, c) {
			kept = append(kept, c)
		} else {
			sum = append(sum, j)
		}
	}
	if len(sum) > 0 {
		prod = prod.Sum(sum, false)
	}
	perm := make([]int, 0, len(out))
	for _, c := range out {
		perm = append(perm, slices.Index(kept, c))
	}
	return prod.Permute(perm...)
}
