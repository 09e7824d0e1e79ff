package interp

import (
	"tiny/tensor"
)

// This file defines tinygrad's high-level shape ops as tensor methods:
// repeat, repeat_interleave, split, chunk, roll, tril, triu, meshgrid,
// unflatten, lerp and clamp; the pad and reshape methods' argument forms
// (torch-style flat padding, modes, None entries) are read here too.

func tensorsValue(ts []*tensor.Tensor, list bool) Value {
	out := make([]Value, len(ts))
	for i, t := range ts {
		out[i] = tv(t)
	}
	if list {
		return NewList(out)
	}
	return Tuple(out)
}

// clampMethod is clip/clamp: either bound may be none (not both).
func clampMethod(it *Interp, r Value, c *call) Value {
	var lo, hi Value = None, None
	it.unpack(c, "min_|lo|min?", &lo, "max_|hi|max?", &hi)
	var l, h any
	if lo != None {
		l = it.operand(c, lo)
	}
	if hi != None {
		h = it.operand(c, hi)
	}
	return tv(recvT(r).Clamp(l, h))
}

// padMethod reads tinygrad's pad: padding is flat ints, torch-style (left
// and right of the last axis first), or one (before, after) pair or none per
// axis; mode is constant, reflect, replicate or circular; negative amounts
// cut.
func padMethod(it *Interp, r Value, c *call) Value {
	var p Value
	mode := "constant"
	value := 0.0
	it.unpack(c, "padding|arg", &p, "mode?", &mode, "value?", &value)
	t := recvT(r)
	return tv(t.PadMode(it.padPairs(c, p, t.Ndim()), mode, value))
}

func (it *Interp) padPairs(c *call, p Value, n int) [][2]int {
	if tv, ok := p.(*TensorValue); ok {
		x := tv.t
		if x.DType().IsFloat() || x.DType() == tensor.Bool || x.Ndim() > 2 || (x.Ndim() == 2 && x.Shape()[1] != 2) {
			it.failf(c.pos, "%s: padding must be ints or (before, after) pairs, got a tensor of shape %s", c.name, tensor.FormatShape(x.Shape()))
		}
		vals := x.Ints()
		ints := make([]int, len(vals))
		for i, v := range vals {
			ints[i] = int(v)
		}
		if x.Ndim() <= 1 {
			return tensor.FlatPads(ints, n)
		}
		if x.Shape()[0] != n {
			it.failf(c.pos, "%s: padding length is improper: %d pairs for a tensor of rank %d", c.name, x.Shape()[0], n)
		}
		out := make([][2]int, n)
		for i := range out {
			out[i] = [2]int{ints[2*i], ints[2*i+1]}
		}
		return out
	}
	seq, ok := p.(Sequence)
	if !ok {
		it.failf(c.pos, "%s: padding must be a tuple of ints or of (before, after) pairs, got %s", c.name, p.Type())
	}
	if ints, ok := intsOf(p); ok {
		return tensor.FlatPads(ints, n)
	}
	if seq.Len() != n {
		it.failf(c.pos, "%s: padding length is improper: %d pairs for a tensor of rank %d", c.name, seq.Len(), n)
	}
	out := make([][2]int, n)
	for i := range out {
		e := seq.At(i)
		if e == None {
			continue
		}
		ints, ok := intsOf(e)
		if tv, isT := e.(*TensorValue); isT && tv.t.Ndim() == 1 && !tv.t.DType().IsFloat() {
			ints, ok = nil, true
			for _, v := range tv.t.Ints() {
				ints = append(ints, int(v))
			}
		}
		if !ok || len(ints) != 2 {
			it.failf(c.pos, "%s: each entry must be a (before, after) pair of ints or none, got %s", c.name, e.String())
		}
		out[i] = [2]int{ints[0], ints[1]}
	}
	return out
}

// reshapeMethod reads a shape as varargs, one tuple, or shape=; a none
// entry keeps that axis's size.
func reshapeMethod(it *Interp, r Value, c *call) Value {
	t := recvT(r)
	args := c.args
	kw := it.takeKw(c, "shape")
	if s, ok := kw["shape"]; ok {
		if len(args) > 0 {
			it.failf(c.pos, "%s: got the shape both positionally and as shape=", c.name)
		}
		args = []Value{s}
	}
	if len(args) == 1 {
		if seq, ok := args[0].(Sequence); ok {
			args = make([]Value, seq.Len())
			for i := range args {
				args[i] = seq.At(i)
			}
		}
	}
	old := t.Shape()
	for i, a := range args {
		if a == None {
			if i >= len(old) {
				it.failf(c.pos, "%s: none at axis %d of a tensor of rank %d", c.name, i, len(old))
			}
			args[i] = Int(old[i])
		}
	}
	return tv(t.Reshape(it.shapeArgs(c, args)...))
}

func init() {
	addMethods("tensor", map[string]methodFn{
		"clamp": clampMethod,
		"repeat": func(it *Interp, r Value, c *call) Value {
			return tv(recvT(r).Repeat(it.shapeArgs(c, it.argsOrKw(c, "repeats"))...))
		},
		"repeat_interleave": func(it *Interp, r Value, c *call) Value {
			var repeats int
			dim := optInt{}
			it.unpack(c, "repeats", &repeats, "dim?", &dim)
			var d *int
			if dim.Set {
				d = &dim.V
			}
			return tv(recvT(r).RepeatInterleave(repeats, d))
		},
		"split": func(it *Interp, r Value, c *call) Value {
			var sizes Value
			dim := 0
			it.unpack(c, "sizes|split_size_or_sections", &sizes, "dim?", &dim)
			_, even := sizes.(Int)
			return tensorsValue(recvT(r).Split(it.intsArg(c, "sizes", sizes), dim, even), false)
		},
		"chunk": func(it *Interp, r Value, c *call) Value {
			var chunks int
			dim := 0
			it.unpack(c, "chunks", &chunks, "dim?", &dim)
			return tensorsValue(recvT(r).Chunk(chunks, dim), true)
		},
		"roll": func(it *Interp, r Value, c *call) Value {
			var shifts, dims Value = nil, None
			it.unpack(c, "shifts", &shifts, "dims?", &dims)
			return tv(recvT(r).Roll(it.intsArg(c, "shifts", shifts), it.optInts(c, "dims", dims)))
		},
		"tril": func(it *Interp, r Value, c *call) Value {
			d := 0
			it.unpack(c, "diagonal?", &d)
			return tv(recvT(r).Tril(d))
		},
		"triu": func(it *Interp, r Value, c *call) Value {
			d := 0
			it.unpack(c, "diagonal?", &d)
			return tv(recvT(r).Triu(d))
		},
		"meshgrid": func(it *Interp, r Value, c *call) Value {
			kw := it.takeKw(c, "indexing")
			ts := append([]*tensor.Tensor{recvT(r)}, it.tensorList(c, c.args)...)
			return tensorsValue(tensor.Meshgrid(indexingArg(it, c, kw), ts...), false)
		},
		"unflatten": func(it *Interp, r Value, c *call) Value {
			var dim int
			var sizes Value
			it.unpack(c, "dim", &dim, "sizes", &sizes)
			return tv(recvT(r).Unflatten(dim, it.intsArg(c, "sizes", sizes)))
		},
		"lerp": func(it *Interp, r Value, c *call) Value {
			var end *TensorValue
			var w Value
			it.unpack(c, "end", &end, "weight", &w)
			return tv(recvT(r).Lerp(end.t, it.operand(c, w)))
		},
	})
	tensorBuiltins["meshgrid"] = func(it *Interp, c *call) Value {
		kw := it.takeKw(c, "indexing")
		return tensorsValue(tensor.Meshgrid(indexingArg(it, c, kw), it.tensorList(c, c.args)...), false)
	}
}

func indexingArg(it *Interp, c *call, kw map[string]Value) string {
	v, ok := kw["indexing"]
	if !ok {
		return "ij"
	}
	s, ok := v.(String)
	if !ok {
		it.failf(c.pos, "%s: indexing must be a string, got %s", c.name, v.Type())
	}
	return string(s)
}
