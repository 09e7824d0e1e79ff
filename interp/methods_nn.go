package interp

import "tiny/tensor"

// This file registers tinygrad's neural-network helpers and dtype queries
// on tensors: layernorm, batchnorm, linear, dropout, multinomial, half,
// is_floating_point, element_size, nbytes, and the rand_like builtin.

func init() {
	addMethods("tensor", map[string]methodFn{
		"layernorm": func(it *Interp, r Value, c *call) Value {
			var axis Value = Int(-1)
			eps := 1e-5
			it.unpack(c, "axis|dim?", &axis, "eps?", &eps)
			return tv(recvT(r).Layernorm(it.axesArg(c, axis), eps))
		},
		"batchnorm": func(it *Interp, r Value, c *call) Value {
			var weight, bias Value = None, None
			var mean, invstd *TensorValue
			var axis Value = Int(1)
			it.unpack(c, "weight", &weight, "bias", &bias, "mean", &mean, "invstd", &invstd, "axis?", &axis)
			axes := it.axesArg(c, axis)
			if len(axes) == 0 {
				it.failf(c.pos, "batchnorm: axis must name at least one axis")
			}
			return tv(recvT(r).Batchnorm(it.optTensor(c, "weight", weight), it.optTensor(c, "bias", bias), mean.t, invstd.t, axes...))
		},
		"linear": func(it *Interp, r Value, c *call) Value {
			var weight *TensorValue
			var bias Value = None
			it.unpack(c, "weight", &weight, "bias?", &bias)
			return tv(recvT(r).Linear(weight.t, it.optTensor(c, "bias", bias)))
		},
		"dropout": func(it *Interp, r Value, c *call) Value {
			p := 0.5
			it.unpack(c, "p?", &p)
			t := recvT(r)
			if !it.training || p == 0 {
				return tv(t) // tinygrad's dropout acts only in training
			}
			var keep *tensor.Tensor
			if p > 0 && p < 1 {
				keep = it.engine().Rand(t.Shape())
			}
			return tv(t.Dropout(p, keep))
		},
		"multinomial": func(it *Interp, r Value, c *call) Value {
			n, replacement := 1, false
			it.unpack(c, "num_samples?", &n, "replacement?", &replacement)
			t := recvT(r)
			rows := 1
			if t.Ndim() == 2 {
				rows = t.Shape()[0]
			}
			var u *tensor.Tensor
			if n >= 1 && t.Ndim() >= 1 && t.Ndim() <= 2 && (replacement || n == 1) {
				u = it.engine().Rand([]int{n, rows})
			}
			return tv(t.Multinomial(n, replacement, u))
		},
		"half": unaryMethod(func(t *tensor.Tensor) *tensor.Tensor { return t.Cast(tensor.Float16) }),
		"is_floating_point": func(it *Interp, r Value, c *call) Value {
			it.unpack(c)
			return Bool(recvT(r).DType().IsFloat())
		},
		"element_size": func(it *Interp, r Value, c *call) Value {
			it.unpack(c)
			return Int(recvT(r).DType().Size())
		},
		"nbytes": func(it *Interp, r Value, c *call) Value {
			it.unpack(c)
			t := recvT(r)
			return Int(int64(t.Numel()) * int64(t.DType().Size()))
		},
	})
	tensorBuiltins["rand_like"] = func(it *Interp, c *call) Value {
		kw := it.takeKw(c, "dtype", "seed", "requires_grad")
		var t *TensorValue
		it.unpack(c, "t", &t)
		d := it.optDtype(c, kw, t.t.DType())
		if !d.IsFloat() {
			it.failf(c.pos, "rand_like: dtype %s must be a float dtype", d)
		}
		var seed []int64
		if s, ok := kw["seed"]; ok && s != None {
			n, ok := toInt(s)
			if !ok {
				it.failf(c.pos, "rand_like: seed must be an int, got %s", s.Type())
			}
			seed = append(seed, n)
		}
		return &TensorValue{it.markGrad(c, kw, it.engine().RandOf(d, t.t.Shape(), seed...))}
	}
}
