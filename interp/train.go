package interp

import "tiny/tensor"

// This file defines what training needs from the interpreter beside the
// stdlib's nn: t.assign(v), and the train/eval switch, tinygrad's
// Tensor.training, which nn's BatchNorm and Dropout and the optimizers read.

func init() {
	addMethods("tensor", map[string]methodFn{"assign": assignMethod})
	tensorBuiltins["train"] = train_
	tensorBuiltins["training"] = training_
}

// assignMethod gives the receiver v's values (tensor.Assign: in place when
// the receiver is a realized buffer) and returns it. A number fills it.
func assignMethod(it *Interp, r Value, c *call) Value {
	var v Value
	it.unpack(c, "x", &v)
	t := recvT(r)
	var x *tensor.Tensor
	switch o := v.(type) {
	case *TensorValue:
		x = o.t
	default:
		f, ok := toFloat(v)
		if !ok {
			it.failf(c.pos, "assign: want a tensor or a number, got %s", v.Type())
		}
		x = t.FullLike(f)
	}
	t.Assign(x)
	return r
}

// train_ sets the training switch (true when called with no argument) and
// returns its previous value, so that `was = train(); ...; train(was)`
// restores it.
func train_(it *Interp, c *call) Value {
	on := true
	it.unpack(c, "mode?", &on)
	was := it.training
	it.training = on
	return Bool(was)
}

// training_ returns the training switch.
func training_(it *Interp, c *call) Value {
	it.unpack(c)
	return Bool(it.training)
}
