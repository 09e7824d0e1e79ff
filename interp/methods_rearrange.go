package interp

import "tiny/tensor"

// This file registers rearrange (einops' patterns, as tinygrad's
// Tensor.rearrange) and contiguous_backward.

func init() {
	addMethods("tensor", map[string]methodFn{
		// x.rearrange(formula, **sizes): every keyword other than
		// formula is the size of an axis the formula splits.
		"rearrange": func(it *Interp, r Value, c *call) Value {
			var formula string
			var sizes []tensor.SizeArg
			rest := &call{name: c.name, pos: c.pos, args: c.args}
			for _, k := range c.kw {
				if k.name == "formula" {
					rest.kw = append(rest.kw, k)
					continue
				}
				var n int
				it.convert(c, k.name, k.value, &n)
				sizes = append(sizes, tensor.SizeArg{Name: k.name, Size: n})
			}
			it.unpack(rest, "formula", &formula)
			return tv(recvT(r).Rearrange(formula, sizes))
		},
		"contiguous_backward": func(it *Interp, r Value, c *call) Value {
			it.unpack(c)
			return tv(recvT(r).ContiguousBackward())
		},
	})
}
