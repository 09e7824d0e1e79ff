package tensor

// tinygrad's neural-network helpers on Tensor (layernorm, batchnorm, linear,
// dropout), built from the primitive ops so that their
// gradients come from those ops' rules.

// Layernorm normalizes over axes to zero mean and unit variance (the
// biased variance, plus eps under the root), as tinygrad's layernorm.
func (t *Tensor) Layernorm(axes []int, eps float64) *Tensor {
	y := t.floatOf()
	y = y.Sub(y.Mean(axes, true))
	return y.Mul(y.Mul(y).Mean(axes, true).Add(eps).Rsqrt())
}

// Batchnorm returns (t - mean) * weight * invstd + bias with the
// statistics and parameters laid along axes (tinygrad's batchnorm: each of
// them is reshaped to t's shape with 1 outside axes, so a 2-d mean goes
// along two axes; weight and bias may be nil; an invstd whose rank is not
// len(axes) is used as it is).
func (t *Tensor) Batchnorm(weight, bias, mean, invstd *Tensor, axes ...int) *Tensor {
	if len(axes) == 0 {
		axes = []int{1}
	}
	in := make([]bool, t.Ndim())
	for _, ax := range axes {
		a := normAxis("batchnorm", ax, t.Ndim())
		if in[a] {
			fail("batchnorm: axis %d is repeated", ax)
		}
		in[a] = true
	}
	shp := make([]int, t.Ndim())
	for i := range shp {
		shp[i] = 1
		if in[i] {
			shp[i] = t.Shape()[i]
		}
	}
	along := func(x *Tensor) *Tensor { return x.Reshape(shp...) }
	x := t.Sub(along(mean))
	if weight != nil {
		x = x.Mul(along(weight))
	}
	if invstd.Ndim() == len(axes) {
		x = x.Mul(along(invstd))
	} else {
		x = x.Mul(invstd)
	}
	if bias != nil {
		x = x.Add(along(bias))
	}
	return x
}

// Linear returns t @ weight + bias (t * weight for a 1-d weight, as
// tinygrad's linear); bias may be nil.
func (t *Tensor) Linear(weight, bias *Tensor) *Tensor {
	var x *Tensor
	if weight.Ndim() == 1 {
		x = t.Mul(weight)
	} else {
		x = t.Matmul(weight)
	}
	if bias != nil {
		x = x.Add(bias)
	}
	return x
}

// Dropout zeroes each element where keep (a float32 draw uniform in [0,
// 1)) is below p and scales the rest by 1/(1-p), as tinygrad's dropout
// in training; p of 0 gives t, and p of 1 zeros (torch's; 0/0 would be
// NaN).
func (t *Tensor) Dropout(p float64, keep *Tensor) *Tensor {
	if p == 0 {
		return t
	}
	if p < 0 || p > 1 {
		fail("dropout: p must be in [0, 1], got %v", p)
	}
	if p == 1 {
		return t.floatOf().Mul(0.0)
	}
	return keep.Ge(p).Where(t, 0.0).Div(1 - p)
}

// Multinomial draws n indices per row of the weights t (1-d, or 2-d: one
// row per distribution) with probability proportional to the weights, as
// tinygrad's multinomial: each uniform draw u (from unif, of shape (n,
// rows)) picks the number of cumulative-weight fractions at or below u.
// Without replacement only one sample is allowed. The result is int32,
// (n,) for 1-d weights and (rows, n) for 2-d.
func (t *Tensor) Multinomial(n int, replacement bool, unif *Tensor) *Tensor {
	if t.Ndim() < 1 || t.Ndim() > 2 {
		fail("multinomial: weights of rank %d, want 1 or 2", t.Ndim())
	}
	if n < 1 {
		fail("multinomial: num_samples must be positive, got %d", n)
	}
	if !replacement && n != 1 {
		fail("multinomial: without replacement only num_samples=1 is supported")
	}
	w := t
	if t.Ndim() == 1 {
		w = t.Unsqueeze(0)
	}
	rows, k := w.n.shape[0], w.n.shape[1]
	cw := w.Cumsum(1).floatOf()
	cdf := cw.Div(cw.Shrink([][2]int{{0, rows}, {k - 1, k}}))
	u := unif.Reshape(n, rows, 1).Expand(n, rows, k)
	idx := u.Ge(cdf.Unsqueeze(0)).Sum([]int{2}, false).Permute(1, 0)
	if t.Ndim() == 1 {
		idx = idx.Reshape(n)
	}
	return idx.Cast(Int32)
}
