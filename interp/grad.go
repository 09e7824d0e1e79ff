package interp

import "tiny/tensor"

// This file defines the language's side of autograd: loss.gradient(w, b),
// loss.backward(), x.requires_grad_(), and the requires_grad= keyword of the
// tensor constructors (the attributes requires_grad and grad are in
// methods_tensor.go).

// gradientMethod returns the gradients of a scalar loss with respect to
// each argument, as a list.
func gradientMethod(it *Interp, r Value, c *call) Value {
	if len(c.kw) > 0 {
		it.failf(c.pos, "%s: unexpected keyword argument %s", c.name, c.kw[0].name)
	}
	if len(c.args) == 0 {
		it.failf(c.pos, "%s: want at least one tensor to differentiate with respect to", c.name)
	}
	targets := make([]*tensor.Tensor, len(c.args))
	for i, a := range c.args {
		x, ok := a.(*TensorValue)
		if !ok {
			it.failf(c.pos, "%s: argument %d must be a tensor, got %s", c.name, i+1, a.Type())
		}
		targets[i] = x.t
	}
	grads := recvT(r).Gradient(targets...)
	out := make([]Value, len(grads))
	for i, g := range grads {
		out[i] = tv(g)
	}
	return NewList(out)
}

// backwardMethod stores the gradients of a scalar loss in the tensors that
// require them. It returns none, not the loss as tinygrad does: the REPL
// would echo the loss, and reading it realizes it, which cuts its graph off
// from the next backward.
func backwardMethod(it *Interp, r Value, c *call) Value {
	it.unpack(c)
	recvT(r).Backward()
	return None
}

// requiresGradMethod marks (or with false unmarks) the tensor, and returns
// it, as tinygrad's requires_grad_.
func requiresGradMethod(it *Interp, r Value, c *call) Value {
	on := true
	it.unpack(c, "requires_grad?", &on)
	recvT(r).SetRequiresGrad(on)
	return r
}

// markGrad applies a constructor's requires_grad= keyword, taken from kw, to
// t.
func (it *Interp) markGrad(c *call, kw map[string]Value, t *tensor.Tensor) *tensor.Tensor {
	v, ok := kw["requires_grad"]
	if !ok || v == None {
		return t
	}
	on, isBool := v.(Bool)
	if !isBool {
		it.failf(c.pos, "%s: requires_grad must be a bool, got %s", c.name, v.Type())
	}
	it.guard(c.pos, func() { t.SetRequiresGrad(bool(on)) })
	return t
}
