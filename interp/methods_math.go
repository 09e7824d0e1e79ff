package interp

import "tiny/tensor"

// This file defines the activations and the unary math of issue 10, with
// tinygrad's names, keyword arguments and defaults.

// floatsMethod makes a method whose arguments are numbers with defaults;
// specs are unpack's parameter specs, each optional.
func floatsMethod(f func(t *tensor.Tensor, args []float64) *tensor.Tensor, specs []string, defs ...float64) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		vals := append([]float64(nil), defs...)
		pairs := make([]any, 0, 2*len(specs))
		for i, s := range specs {
			pairs = append(pairs, s+"?", &vals[i])
		}
		it.unpack(c, pairs...)
		return tv(f(recvT(r), vals))
	}
}

func init() {
	addMethods("tensor", map[string]methodFn{
		"elu": floatsMethod(func(t *tensor.Tensor, a []float64) *tensor.Tensor { return t.Elu(a[0]) },
			[]string{"alpha"}, 1),
		"celu": floatsMethod(func(t *tensor.Tensor, a []float64) *tensor.Tensor { return t.Celu(a[0]) },
			[]string{"alpha"}, 1),
		"selu": floatsMethod(func(t *tensor.Tensor, a []float64) *tensor.Tensor { return t.Selu(a[0], a[1]) },
			[]string{"alpha", "gamma"}, 1.67326, 1.0507),
		"softplus": floatsMethod(func(t *tensor.Tensor, a []float64) *tensor.Tensor { return t.Softplus(a[0], a[1]) },
			[]string{"beta", "threshold"}, 1, 20),
		"hardsigmoid": floatsMethod(func(t *tensor.Tensor, a []float64) *tensor.Tensor { return t.Hardsigmoid(a[0], a[1]) },
			[]string{"alpha", "beta"}, 1.0/6, 0.5),
		"hardtanh": floatsMethod(func(t *tensor.Tensor, a []float64) *tensor.Tensor { return t.Hardtanh(a[0], a[1]) },
			[]string{"min_val", "max_val"}, -1, 1),
		"leakyrelu": floatsMethod(func(t *tensor.Tensor, a []float64) *tensor.Tensor { return t.LeakyRelu(a[0]) },
			[]string{"neg_slope"}, 0.01),

		"mish": unaryMethod((*tensor.Tensor).Mish), "softsign": unaryMethod((*tensor.Tensor).Softsign),
		"hardswish": unaryMethod((*tensor.Tensor).Hardswish), "relu6": unaryMethod((*tensor.Tensor).Relu6),
		"quick_gelu": unaryMethod((*tensor.Tensor).QuickGelu), "swish": unaryMethod((*tensor.Tensor).Swish),
		"silu": unaryMethod((*tensor.Tensor).Swish),
		"sinh": unaryMethod((*tensor.Tensor).Sinh), "cosh": unaryMethod((*tensor.Tensor).Cosh),
		"asin": unaryMethod((*tensor.Tensor).Asin), "acos": unaryMethod((*tensor.Tensor).Acos),
		"atan": unaryMethod((*tensor.Tensor).Atan), "asinh": unaryMethod((*tensor.Tensor).Asinh),
		"acosh": unaryMethod((*tensor.Tensor).Acosh), "atanh": unaryMethod((*tensor.Tensor).Atanh),
		"erf": unaryMethod((*tensor.Tensor).Erf), "isnan": unaryMethod((*tensor.Tensor).IsNan),
		"idiv": func(it *Interp, r Value, c *call) Value {
			var y Value
			reverse := false
			it.unpack(c, "x", &y, "reverse?", &reverse)
			if reverse {
				return tv(recvT(r).RIdiv(it.operand(c, y)))
			}
			return tv(recvT(r).Idiv(it.operand(c, y)))
		},
		"bitcast": func(it *Interp, r Value, c *call) Value {
			var d Value
			it.unpack(c, "dtype", &d)
			return tv(recvT(r).Bitcast(it.dtypeArg(c, d)))
		},
		"isinf": func(it *Interp, r Value, c *call) Value {
			pos, neg := true, true
			it.unpack(c, "detect_positive?", &pos, "detect_negative?", &neg)
			return tv(recvT(r).IsInf(pos, neg))
		},
	})
}

// accReduceMethod makes sum and prod: axis=, keepdim= and tinygrad's
// acc_dtype=, the dtype to accumulate in and give.
func accReduceMethod(f func(t *tensor.Tensor, axes []int, keepdim bool) *tensor.Tensor,
	acc func(t *tensor.Tensor, axes []int, keepdim bool, d tensor.DType) *tensor.Tensor) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		var axis, accd Value = None, None
		keepdim := false
		it.unpack(c, "axis|dim?", &axis, "keepdim?", &keepdim, "acc_dtype?", &accd)
		if accd != None {
			return tv(acc(recvT(r), it.axesArg(c, axis), keepdim, it.dtypeArg(c, accd)))
		}
		return tv(f(recvT(r), it.axesArg(c, axis), keepdim))
	}
}
