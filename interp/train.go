package interp

import (
	"unsafe"

	"tiny/lang"
	"tiny/tensor"
)

// This file defines what training needs from the interpreter beside the
// stdlib's nn: t.assign(v), and the train/eval switch, tinygrad's
// Tensor.training, which nn's BatchNorm and Dropout and the optimizers read.

func init() {
	addMethods("tensor", map[string]methodFn{"assign": assignMethod, "clone": unaryMethod((*tensor.Tensor).Clone), "sequential": sequentialMethod})
	tensorBuiltins["train"] = train_
	tensorBuiltins["training"] = training_
	tensorBuiltins["id"] = id_
	tensorBuiltins["engine_stats"] = engineStats_
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

// setAttr sets x.name = v: a dict's key, or a tensor's grad (none or a
// tensor of its shape, as an optimizer's zero_grad sets it) or
// requires_grad.
func (it *Interp) setAttr(pos lang.Pos, x Value, name string, v Value) {
	switch o := x.(type) {
	case *Dict:
		o.Set(name, v)
		return
	case *TensorValue:
		switch name {
		case "grad":
			var g *tensor.Tensor
			if gv, ok := v.(*TensorValue); ok {
				g = gv.t
			} else if v != None {
				it.failf(pos, "grad must be a tensor or none, got %s", v.Type())
			}
			it.guard(pos, func() { o.t.SetGrad(g) })
			return
		case "requires_grad":
			b, ok := v.(Bool)
			if !ok {
				it.failf(pos, "requires_grad must be a bool, got %s", v.Type())
			}
			it.guard(pos, func() { o.t.SetRequiresGrad(bool(b)) })
			return
		}
	}
	it.failf(pos, "cannot assign to attribute %s of %s", name, x.Type())
}

// id_ returns a number that identifies a value while it lives, as Python's
// id: the same tensor, list or dict gives the same number (optimizers
// dedup their parameters with it).
func id_(it *Interp, c *call) Value {
	var v Value
	it.unpack(c, "x", &v)
	var p uintptr
	switch o := v.(type) {
	case *TensorValue:
		p = uintptr(unsafe.Pointer(o.t))
	case *List:
		p = uintptr(unsafe.Pointer(o))
	case *Dict:
		p = uintptr(unsafe.Pointer(o))
	case *Function:
		p = uintptr(unsafe.Pointer(o))
	default:
		it.failf(c.pos, "id: want a tensor, list, dict or fn, got %s", v.Type())
	}
	return Int(p)
}

// engineStats_ returns what the tensor engine has done so far, for timing
// a training step: kernels run and compiled, seconds spent running kernels
// and scheduling, and schedules taken from the cache.
func engineStats_(it *Interp, c *call) Value {
	it.unpack(c)
	st := it.engine().Stats()
	d := NewDict()
	d.Set("kernels", Int(st.Kernels))
	d.Set("compiles", Int(st.Compiles))
	d.Set("kernel_time", Float(st.Time.Seconds()))
	d.Set("schedule_time", Float(st.Schedule.Seconds()))
	d.Set("schedule_hits", Int(st.ScheduleHits))
	return d
}

// sequentialMethod runs the receiver through a list (or tuple) of layers
// and functions in order, as tinygrad's x.sequential(ll).
func sequentialMethod(it *Interp, r Value, c *call) Value {
	var ll Value
	it.unpack(c, "ll", &ll)
	seq, ok := ll.(Sequence)
	if !ok || ll.Type() == "string" || ll.Type() == "tensor" {
		it.failf(c.pos, "sequential: want a list of layers and functions, got %s", ll.Type())
	}
	x := r
	for i := 0; i < seq.Len(); i++ {
		x = it.callValue(c.pos, seq.At(i), []Value{x}, nil)
	}
	return x
}
