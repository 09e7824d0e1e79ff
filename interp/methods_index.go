package interp

import (
	"tiny/tensor"
)

// This file registers the indexing methods of tensors: gather, scatter,
// masked_fill and one_hot (tinygrad's names and arguments).

func init() {
	addMethods("tensor", map[string]methodFn{
		"gather": func(it *Interp, r Value, c *call) Value {
			var dim int
			var idx *TensorValue
			it.unpack(c, "dim|axis", &dim, "index", &idx)
			return tv(recvT(r).Gather(dim, idx.t))
		},
		"scatter": func(it *Interp, r Value, c *call) Value {
			var dim int
			var idx *TensorValue
			var src, reduce Value = nil, None
			it.unpack(c, "dim|axis", &dim, "index", &idx, "src", &src, "reduce?", &reduce)
			red := ""
			if reduce != None {
				s, ok := reduce.(String)
				if !ok {
					it.failf(c.pos, "scatter: reduce must be none, 'add' or 'multiply', got %s", reduce.Type())
				}
				red = string(s)
			}
			t := recvT(r)
			var st *tensor.Tensor
			if s, ok := src.(*TensorValue); ok {
				st = s.t
			} else {
				f, ok := toFloat(src)
				if !ok {
					it.failf(c.pos, "scatter: src must be a tensor or a number, got %s", src.Type())
				}
				st = it.engine().Full(idx.t.Shape(), f, t.DType())
			}
			return tv(t.Scatter(dim, idx.t, st, red))
		},
		"masked_fill": func(it *Interp, r Value, c *call) Value {
			var mask *TensorValue
			var value Value
			it.unpack(c, "mask", &mask, "value", &value)
			return tv(recvT(r).MaskedFill(mask.t, it.operand(c, value)))
		},
		"one_hot": func(it *Interp, r Value, c *call) Value {
			n := -1
			it.unpack(c, "num_classes?", &n)
			return tv(recvT(r).OneHot(n))
		},
	})
}
