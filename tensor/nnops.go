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

// Batchnorm returns (t - mean) * weight * invstd + bias with the 1-d
// statistics and parameters laid along axis (tinygrad's batchnorm;
// weight and bias may be nil; an invstd of more than one axis is used as
// it is).
func (t *Tensor) Batchnorm(weight, bias, mean, invstd *Tensor, axis int) *Tensor {
	a := normAxis("batchnorm", axis, t.Ndim())
	along := func(x *Tensor) *Tensor {
		shp := make([]int, t.Ndim())
		for i := range shp {
			shp[i] = 1
		}
		shp[a] = -1
		return x.Reshape(shp...)
	}
	x := t.Sub(along(mean))
	if weight != nil {
		x = x.Mul(along(weight))
	}
	if invstd.Ndim() == 1 {
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
