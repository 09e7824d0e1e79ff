package interp

import (
	"tiny/tensor"
)

// This file defines the convolution and pooling methods of tensors, with
// tinygrad's arguments and defaults: conv2d, conv_transpose2d, max_pool2d,
// avg_pool2d.

// optTensor reads an optional tensor argument (none: nil).
func (it *Interp) optTensor(c *call, name string, v Value) *tensor.Tensor {
	if v == nil || v == None {
		return nil
	}
	t, ok := v.(*TensorValue)
	if !ok {
		it.failf(c.pos, "%s: %s must be a tensor or none, got %s", c.name, name, v.Type())
	}
	return t.t
}

// optInts reads an optional int-or-sequence argument (none: nil).
func (it *Interp) optInts(c *call, name string, v Value) []int {
	if v == nil || v == None {
		return nil
	}
	return it.intsArg(c, name, v)
}

// intsArg reads an int, a tuple or list of ints, or a bracket literal of
// ints (which the language makes an int tensor of rank 1).
func (it *Interp) intsArg(c *call, name string, v Value) []int {
	if t, ok := v.(*TensorValue); ok && t.t.Ndim() <= 1 && !t.t.DType().IsFloat() && t.t.DType() != tensor.Bool {
		var out []int
		for _, x := range t.t.Ints() {
			out = append(out, int(x))
		}
		if len(out) > 0 {
			return out
		}
	}
	ints, ok := intsOf(v)
	if !ok || len(ints) == 0 {
		it.failf(c.pos, "%s: %s must be an int or a tuple of ints, got %s", c.name, name, v.String())
	}
	return ints
}

// kernelArg reads a pooling kernel size: an int k means (k, k).
func (it *Interp) kernelArg(c *call, v Value) []int {
	if v == nil {
		return []int{2, 2}
	}
	if k, ok := v.(Int); ok {
		return []int{int(k), int(k)}
	}
	return it.intsArg(c, "kernel_size", v)
}

func init() {
	addMethods("tensor", map[string]methodFn{
		"conv2d": func(it *Interp, r Value, c *call) Value {
			var w *TensorValue
			var bias Value = None
			groups := 1
			var stride, dilation, padding Value = Int(1), Int(1), Int(0)
			it.unpack(c, "weight", &w, "bias?", &bias, "groups?", &groups, "stride?", &stride,
				"dilation?", &dilation, "padding?", &padding)
			return tv(recvT(r).Conv2d(w.t, it.optTensor(c, "bias", bias), groups, it.intsArg(c, "stride", stride),
				it.intsArg(c, "dilation", dilation), it.intsArg(c, "padding", padding)))
		},
		"conv_transpose2d": func(it *Interp, r Value, c *call) Value {
			var w *TensorValue
			var bias Value = None
			groups := 1
			var stride, dilation, padding, outPad Value = Int(1), Int(1), Int(0), Int(0)
			it.unpack(c, "weight", &w, "bias?", &bias, "groups?", &groups, "stride?", &stride,
				"dilation?", &dilation, "padding?", &padding, "output_padding?", &outPad)
			return tv(recvT(r).ConvTranspose2d(w.t, it.optTensor(c, "bias", bias), groups, it.intsArg(c, "stride", stride),
				it.intsArg(c, "dilation", dilation), it.intsArg(c, "padding", padding), it.intsArg(c, "output_padding", outPad)))
		},
		"max_pool2d": func(it *Interp, r Value, c *call) Value {
			var kernel, stride, dilation, padding Value = nil, None, Int(1), Int(0)
			ceil := false
			it.unpack(c, "kernel_size?", &kernel, "stride?", &stride, "dilation?", &dilation,
				"padding?", &padding, "ceil_mode?", &ceil)
			return tv(recvT(r).MaxPool2d(it.kernelArg(c, kernel), it.optInts(c, "stride", stride),
				it.intsArg(c, "dilation", dilation), it.intsArg(c, "padding", padding), ceil))
		},
		"avg_pool2d": func(it *Interp, r Value, c *call) Value {
			var kernel, stride, dilation, padding Value = nil, None, Int(1), Int(0)
			ceil, include := false, true
			it.unpack(c, "kernel_size?", &kernel, "stride?", &stride, "dilation?", &dilation,
				"padding?", &padding, "ceil_mode?", &ceil, "count_include_pad?", &include)
			return tv(recvT(r).AvgPool2d(it.kernelArg(c, kernel), it.optInts(c, "stride", stride),
				it.intsArg(c, "dilation", dilation), it.intsArg(c, "padding", padding), ceil, include))
		},
	})
}

func init() {
	addMethods("tensor", map[string]methodFn{
		"interpolate": func(it *Interp, r Value, c *call) Value {
			var size Value
			mode := "linear"
			align := false
			it.unpack(c, "size", &size, "mode?", &mode, "align_corners?", &align)
			return tv(recvT(r).Interpolate(it.intsArg(c, "size", size), mode, align))
		},
	})
}
