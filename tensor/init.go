package tensor

import "math"

// Random creators and weight initializers after tinygrad's Tensor.uniform,
// randint, normal and the glorot/kaiming family. Each draws once from the
// engine's random state (or from its own seed), as Rand does, and builds
// the rest lazily from that one uniform or normal tensor, so that the
// rounding is tinygrad's: the float32 draw is scaled, then cast, then
// shifted.

// Empty returns a tensor of shape shp and dtype d whose values are not
// specified (tiny gives zeros).
func (e *Engine) Empty(shp []int, d DType) *Tensor {
	checkShape("empty", shp)
	checkAlloc("empty", d, prod(shp))
	return e.Full(shp, 0, d)
}

// Uniform returns values uniform in [low, high) of dtype d:
// ((high-low)*rand).cast(d) + low.
func (e *Engine) Uniform(shp []int, low, high float64, d DType, seed ...int64) *Tensor {
	checkDType("uniform", d)
	r := e.Rand(shp, seed...).Mul(high - low).Cast(d)
	if d.IsFloat() {
		return r.Add(low)
	}
	return r.Add(e.Scalar(low, d))
}

// Randint returns integers uniform in [low, high) of the integer dtype d
// (tinygrad's default is int32). It panics with a *Error for a non-integer
// dtype.
func (e *Engine) Randint(shp []int, low, high int64, d DType, seed ...int64) *Tensor {
	if !d.IsInt() {
		fail("randint: dtype %s must be an integer dtype", d)
	}
	return e.Uniform(shp, float64(low), float64(high), d, seed...)
}

// Normal returns values from the normal distribution with the given mean
// and standard deviation: std*randn + mean.
func (e *Engine) Normal(shp []int, mean, std float64, d DType, seed ...int64) *Tensor {
	checkDType("normal", d)
	if !d.IsFloat() {
		fail("normal: dtype %s must be a float dtype", d)
	}
	return e.Randn(shp, seed...).Cast(d).Mul(std).Add(mean)
}

// fanIn is the product of shp[1:], the number of inputs of one output unit
// of a weight of shape shp.
func fanIn(op string, shp []int) float64 {
	if len(shp) == 0 {
		fail("%s: needs a shape of at least one dimension", op)
	}
	return float64(prod(shp[1:]))
}

// ScaledUniform returns uniform(-1, 1) scaled by prod(shp)**-0.5.
func (e *Engine) ScaledUniform(shp []int, d DType, seed ...int64) *Tensor {
	checkFloatInit("scaled_uniform", d)
	return e.Uniform(shp, -1, 1, d, seed...).Mul(math.Pow(float64(prod(shp)), -0.5))
}

// GlorotUniform returns uniform(-1, 1) scaled by sqrt(6/(shp[0]+prod(shp[1:]))).
func (e *Engine) GlorotUniform(shp []int, d DType, seed ...int64) *Tensor {
	checkFloatInit("glorot_uniform", d)
	fi := fanIn("glorot_uniform", shp)
	return e.Uniform(shp, -1, 1, d, seed...).Mul(math.Sqrt(6 / (float64(shp[0]) + fi)))
}

// KaimingUniform returns values uniform in [-b, b) with
// b = sqrt(3)*sqrt(2/(1+a²))/sqrt(prod(shp[1:])), as torch's
// kaiming_uniform_ with leaky-relu slope a and fan-in mode.
func (e *Engine) KaimingUniform(shp []int, a float64, d DType, seed ...int64) *Tensor {
	checkFloatInit("kaiming_uniform", d)
	b := math.Sqrt(3) * math.Sqrt(2/(1+a*a)) / math.Sqrt(fanIn("kaiming_uniform", shp))
	return e.Uniform(shp, -b, b, d, seed...)
}

// KaimingNormal returns normal values of mean 0 and standard deviation
// sqrt(2/(1+a²))/sqrt(prod(shp[1:])).
func (e *Engine) KaimingNormal(shp []int, a float64, d DType, seed ...int64) *Tensor {
	checkFloatInit("kaiming_normal", d)
	std := math.Sqrt(2/(1+a*a)) / math.Sqrt(fanIn("kaiming_normal", shp))
	return e.Normal(shp, 0, std, d, seed...)
}

func checkFloatInit(op string, d DType) {
	checkDType(op, d)
	if !d.IsFloat() {
		fail("%s: dtype %s must be a float dtype", op, d)
	}
}
