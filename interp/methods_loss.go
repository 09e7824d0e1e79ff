package interp

import (
	"tiny/tensor"
)

// This file registers losses and statistics (tinygrad's names, arguments
// and defaults): var, std, std_mean, var_mean, logsumexp, logcumsumexp,
// cummax, any, all, the cross entropies, nll_loss,
// scaled_dot_product_attention and the einsum builtin.

// statMethod makes var/std-like methods: axis, keepdim and correction.
func statMethod(f func(t *tensor.Tensor, axes []int, keepdim bool, correction float64) Value) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		var axis Value = None
		keepdim := false
		correction := 1.0
		it.unpack(c, "axis|dim?", &axis, "keepdim?", &keepdim, "correction?", &correction)
		return f(recvT(r), it.axesArg(c, axis), keepdim, correction)
	}
}

// reductionArg reads a loss's reduction= (a string).
func (it *Interp) reductionArg(c *call, v Value) string {
	s, ok := v.(String)
	if !ok {
		it.failf(c.pos, "%s: reduction must be a string, got %s", c.name, v.Type())
	}
	return string(s)
}

func init() {
	addMethods("tensor", map[string]methodFn{
		"var": statMethod(func(t *tensor.Tensor, axes []int, keepdim bool, corr float64) Value {
			return tv(t.VarCorrection(axes, keepdim, corr))
		}),
		"std": statMethod(func(t *tensor.Tensor, axes []int, keepdim bool, corr float64) Value {
			return tv(t.StdCorrection(axes, keepdim, corr))
		}),
		"std_mean": statMethod(func(t *tensor.Tensor, axes []int, keepdim bool, corr float64) Value {
			return Tuple{tv(t.StdCorrection(axes, keepdim, corr)), tv(t.Mean(axes, keepdim))}
		}),
		"var_mean": statMethod(func(t *tensor.Tensor, axes []int, keepdim bool, corr float64) Value {
			return Tuple{tv(t.VarCorrection(axes, keepdim, corr)), tv(t.Mean(axes, keepdim))}
		}),
		"logsumexp":    reduceMethod((*tensor.Tensor).LogSumExp),
		"any":          reduceMethod((*tensor.Tensor).Any),
		"all":          reduceMethod((*tensor.Tensor).All),
		"logcumsumexp": axisMethod("axis|dim?", 0, (*tensor.Tensor).LogCumSumExp),
		"cummax":       axisMethod("axis|dim?", 0, (*tensor.Tensor).Cummax),
		"binary_crossentropy": func(it *Interp, r Value, c *call) Value {
			var y *TensorValue
			var red Value = String("mean")
			it.unpack(c, "Y", &y, "reduction?", &red)
			return tv(recvT(r).BinaryCrossEntropy(y.t, it.reductionArg(c, red)))
		},
		"binary_crossentropy_logits": func(it *Interp, r Value, c *call) Value {
			var y *TensorValue
			var red Value = String("mean")
			it.unpack(c, "Y", &y, "reduction?", &red)
			return tv(recvT(r).BinaryCrossEntropyLogits(y.t, it.reductionArg(c, red)))
		},
		"sparse_categorical_crossentropy": func(it *Interp, r Value, c *call) Value {
			var y *TensorValue
			ignore, smoothing := -1, 0.0
			var red Value = String("mean")
			it.unpack(c, "Y", &y, "ignore_index?", &ignore, "label_smoothing?", &smoothing, "reduction?", &red)
			return tv(recvT(r).SparseCategoricalCrossEntropy(y.t, ignore, smoothing, it.reductionArg(c, red)))
		},
		"cross_entropy": func(it *Interp, r Value, c *call) Value {
			var y *TensorValue
			smoothing := 0.0
			var red Value = String("mean")
			it.unpack(c, "Y", &y, "reduction?", &red, "label_smoothing?", &smoothing)
			return tv(recvT(r).CrossEntropy(y.t, it.reductionArg(c, red), smoothing))
		},
		"nll_loss": func(it *Interp, r Value, c *call) Value {
			var y *TensorValue
			var weight Value = None
			var ignore optInt
			var red Value = String("mean")
			it.unpack(c, "Y", &y, "weight?", &weight, "ignore_index?", &ignore, "reduction?", &red)
			var w *tensor.Tensor
			if weight != None {
				wt, ok := weight.(*TensorValue)
				if !ok {
					it.failf(c.pos, "nll_loss: weight must be a tensor or none, got %s", weight.Type())
				}
				w = wt.t
			}
			return tv(recvT(r).NLLLoss(y.t, w, ignore.V, ignore.Set, it.reductionArg(c, red)))
		},
		"scaled_dot_product_attention": func(it *Interp, r Value, c *call) Value {
			var key, value *TensorValue
			var mask Value = None
			dropout, causal := 0.0, false
			it.unpack(c, "key", &key, "value", &value, "attn_mask?", &mask, "dropout_p?", &dropout, "is_causal?", &causal)
			var m *tensor.Tensor
			if mask != None {
				mt, ok := mask.(*TensorValue)
				if !ok {
					it.failf(c.pos, "scaled_dot_product_attention: attn_mask must be a tensor or none, got %s", mask.Type())
				}
				m = mt.t
			}
			if dropout < 0 || dropout > 1 {
				it.failf(c.pos, "scaled_dot_product_attention: dropout_p must be in [0, 1], got %v", dropout)
			}
			if !it.training {
				dropout = 0 // tinygrad's dropout acts only in training
			}
			return tv(recvT(r).ScaledDotProductAttention(key.t, value.t, m, dropout, causal))
		},
	})
	tensorBuiltins["einsum"] = func(it *Interp, c *call) Value {
		if len(c.args) < 1 {
			it.failf(c.pos, "einsum: missing argument formula")
		}
		f, ok := c.args[0].(String)
		if !ok {
			it.failf(c.pos, "einsum: formula must be a string, got %s", c.args[0].Type())
		}
		if len(c.kw) > 0 {
			it.failf(c.pos, "einsum: unexpected keyword argument %s", c.kw[0].name)
		}
		return tv(tensor.Einsum(string(f), it.tensorList(c, c.args[1:])...))
	}
}
