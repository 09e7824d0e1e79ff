package interp

import (
	"tiny/tensor"
)

// This file defines the random creators and weight initializers: empty,
// randint, uniform, normal, scaled_uniform, glorot_uniform, kaiming_uniform
// and kaiming_normal, after tinygrad's. Each takes the shape as varargs or
// one tuple, seed= (else the engine's state, see manual_seed), dtype= and
// requires_grad=.

func init() {
	tensorBuiltins["empty"] = func(it *Interp, c *call) Value {
		kw := it.takeKw(c, "dtype", "requires_grad", "device")
		shp := it.shapeArgs(c, c.args)
		return &TensorValue{it.markGrad(c, kw, it.engine().Empty(shp, it.optDtype(c, kw, tensor.Float32)))}
	}
	tensorBuiltins["randint"] = func(it *Interp, c *call) Value {
		kw := it.takeKw(c, "low", "high", "seed", "dtype", "requires_grad", "device")
		shp := it.shapeArgs(c, c.args)
		low, high := it.intKw(c, kw, "low", 0), it.intKw(c, kw, "high", 10)
		d := it.optDtype(c, kw, tensor.Int32)
		return &TensorValue{it.markGrad(c, kw, it.engine().Randint(shp, low, high, d, it.seedKw(c, kw)...))}
	}
	tensorBuiltins["uniform"] = func(it *Interp, c *call) Value {
		kw := it.takeKw(c, "low", "high", "seed", "dtype", "requires_grad", "device")
		shp := it.shapeArgs(c, c.args)
		low, high := it.floatKw(c, kw, "low", 0), it.floatKw(c, kw, "high", 1)
		d := it.optDtype(c, kw, tensor.Float32)
		return &TensorValue{it.markGrad(c, kw, it.engine().Uniform(shp, low, high, d, it.seedKw(c, kw)...))}
	}
	tensorBuiltins["normal"] = func(it *Interp, c *call) Value {
		kw := it.takeKw(c, "mean", "std", "seed", "dtype", "requires_grad", "device")
		shp := it.shapeArgs(c, c.args)
		mean, std := it.floatKw(c, kw, "mean", 0), it.floatKw(c, kw, "std", 1)
		d := it.optDtype(c, kw, tensor.Float32)
		return &TensorValue{it.markGrad(c, kw, it.engine().Normal(shp, mean, std, d, it.seedKw(c, kw)...))}
	}
	plain := func(f func(e *tensor.Engine, shp []int, d tensor.DType, seed ...int64) *tensor.Tensor) func(it *Interp, c *call) Value {
		return func(it *Interp, c *call) Value {
			kw := it.takeKw(c, "seed", "dtype", "requires_grad", "device")
			shp := it.shapeArgs(c, c.args)
			d := it.optDtype(c, kw, tensor.Float32)
			return &TensorValue{it.markGrad(c, kw, f(it.engine(), shp, d, it.seedKw(c, kw)...))}
		}
	}
	tensorBuiltins["scaled_uniform"] = plain((*tensor.Engine).ScaledUniform)
	tensorBuiltins["glorot_uniform"] = plain((*tensor.Engine).GlorotUniform)
	kaiming := func(f func(e *tensor.Engine, shp []int, a float64, d tensor.DType, seed ...int64) *tensor.Tensor) func(it *Interp, c *call) Value {
		return func(it *Interp, c *call) Value {
			kw := it.takeKw(c, "a", "seed", "dtype", "requires_grad", "device")
			shp := it.shapeArgs(c, c.args)
			a := it.floatKw(c, kw, "a", 0.01)
			d := it.optDtype(c, kw, tensor.Float32)
			return &TensorValue{it.markGrad(c, kw, f(it.engine(), shp, a, d, it.seedKw(c, kw)...))}
		}
	}
	tensorBuiltins["kaiming_uniform"] = kaiming((*tensor.Engine).KaimingUniform)
	tensorBuiltins["kaiming_normal"] = kaiming((*tensor.Engine).KaimingNormal)
}

// seedKw reads seed= (none or an int) as the optional seed of a creator.
func (it *Interp) seedKw(c *call, kw map[string]Value) []int64 {
	s, ok := kw["seed"]
	if !ok || s == None {
		return nil
	}
	n, isInt := s.(Int)
	if !isInt {
		it.failf(c.pos, "%s: seed must be an int, got %s", c.name, s.Type())
	}
	return []int64{int64(n)}
}

// intKw reads an int keyword argument with a default; tinygrad's randint
// refuses floats for its bounds.
func (it *Interp) intKw(c *call, kw map[string]Value, name string, def int64) int64 {
	v, ok := kw[name]
	if !ok {
		return def
	}
	n, isInt := v.(Int)
	if !isInt {
		it.failf(c.pos, "%s: %s must be an int, got %s", c.name, name, v.Type())
	}
	return int64(n)
}

// floatKw reads a number keyword argument with a default.
func (it *Interp) floatKw(c *call, kw map[string]Value, name string, def float64) float64 {
	v, ok := kw[name]
	if !ok {
		return def
	}
	f, isNum := toFloat(v)
	if !isNum {
		it.failf(c.pos, "%s: %s must be a number, got %s", c.name, name, v.Type())
	}
	return f
}
