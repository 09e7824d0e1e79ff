package tensor

import (
	"slices"
	"weak"

	"tiny/codegen"
	"tiny/devices"
)

// Assign gives t the values of v from now on, as tinygrad's assign: t keeps
// its identity (every holder of t sees the new values, and its
// requires_grad mark and grad stay), and when t is a realized buffer the
// kernel that computes v writes into that buffer, so an optimizer step
// allocates nothing for its parameters. Like any op it is lazy: the write
// happens when t is realized, usually with the rest of a step by
// Realize(params...). v must have t's shape and dtype. Assign returns t.
//
// A write in place is skipped, for a fresh buffer, when it would be unsafe:
// when a later kernel of the same schedule still reads the old values, or
// when the kernel reads the buffer anywhere but at the element it writes.
// Either way t reads v's values afterwards.
func (t *Tensor) Assign(v *Tensor) *Tensor {
	if !slices.Equal(t.n.shape, v.n.shape) {
		fail("assign: shape %s does not match the tensor's shape %s", FormatShape(v.n.shape), FormatShape(t.n.shape))
	}
	if t.n.dtype != v.n.dtype {
		fail("assign: dtype %s does not match the tensor's dtype %s", v.n.dtype, t.n.dtype)
	}
	old := t.n
	n := &lazy{kind: kContiguous, dtype: old.dtype, shape: old.shape, src: []*lazy{v.n}, eng: old.eng,
		requiresGrad: old.requiresGrad, gradSet: old.gradSet, grad: old.grad, assign: true}
	if old.kind == kBuffer {
		n.into = old
	}
	t.n = n
	return t
}

// inPlace returns the buffer item it of items[i:] may write into: the buffer
// of the node its Assign overwrites, when no later item reads it and the
// kernel reads it only at the element it stores.
func inPlace(items []*item, i int, bufOf func(*lazy) *devices.Buffer) *devices.Buffer {
	it := items[i]
	into := it.out.into
	if into == nil || into.kind != kBuffer || into.buf == nil || into.buf.Len != prod(it.out.shape) || into.buf.DType != it.out.dtype {
		return nil
	}
	b := into.buf
	for _, later := range items[i+1:] {
		for _, in := range later.inputs {
			if bufOf(in) == b {
				return nil
			}
		}
	}
	idx := -1
	for j, in := range it.inputs {
		if bufOf(in) == b {
			idx = j + 1
		}
	}
	if idx < 0 {
		return b
	}
	store := it.kernel.AST.ST
	ok := true
	seen := map[*codegen.Node]bool{}
	var walk func(x *codegen.Node)
	walk = func(x *codegen.Node) {
		if !ok || seen[x] {
			return
		}
		seen[x] = true
		if x.Op == codegen.OpGather && x.Buf == idx {
			ok = false // reads at positions computed from data
		}
		if x.Op == codegen.OpLoad && x.Buf == idx {
			if !x.ST.Contiguous() || !slices.Equal(x.ST.IntShape(), store.IntShape()) {
				ok = false
			}
		}
		for _, s := range x.Src {
			walk(s)
		}
	}
	walk(it.kernel.AST)
	if !ok {
		return nil
	}
	return b
}

// pending keeps, weakly, the losses and gradients of Backward calls that no
// realization with an in-place write has run since. Such a realization
// computes them too (tinygrad's JIT realizes a step's returned loss with
// it): their graphs read the parameters' buffers, so after a step wrote the
// parameters in place they would otherwise compute with the new values.
func (e *Engine) addPending(ns ...*lazy) {
	e.pendMu.Lock()
	defer e.pendMu.Unlock()
	live := e.pending[:0]
	for _, p := range e.pending {
		if n := p.Value(); n != nil && n.kind != kBuffer {
			live = append(live, p)
		}
	}
	e.pending = live
	for _, n := range ns {
		e.pending = append(e.pending, weak.Make(n))
	}
}

// takePending returns the pending nodes still alive and unrealized, and
// forgets them all.
func (e *Engine) takePending() []*lazy {
	e.pendMu.Lock()
	defer e.pendMu.Unlock()
	var out []*lazy
	for _, p := range e.pending {
		if n := p.Value(); n != nil && n.baseOf().kind != kBuffer {
			out = append(out, n)
		}
	}
	e.pending = nil
	return out
}

// SetGrad replaces the gradient Backward stored for t: nil clears it, as an
// optimizer's zero_grad does. g must have t's shape.
func (t *Tensor) SetGrad(g *Tensor) {
	if g == nil {
		t.n.grad = nil
		return
	}
	if !slices.Equal(g.n.shape, t.n.shape) {
		fail("grad: shape %s does not match the tensor's shape %s", FormatShape(g.n.shape), FormatShape(t.n.shape))
	}
	t.n.grad = g.n
}

// Clone returns a copy of t in a buffer of its own, as tinygrad's clone:
// later assigns to t do not change it.
func (t *Tensor) Clone() *Tensor {
	return &Tensor{&lazy{kind: kContiguous, dtype: t.n.dtype, shape: t.n.shape, src: []*lazy{t.n}, eng: t.n.eng}}
}
