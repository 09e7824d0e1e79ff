package interp

import (
	"tiny/tensor"
)

// This file defines the movement methods of tensors: reshape, permute,
// expand, pad, shrink, flip, transpose, flatten and squeeze. Shapes and axis
// lists may be varargs or one tuple.

var movementMethods = map[string]methodFn{
	"reshape": reshapeMethod,
	"view": func(it *Interp, r Value, c *call) Value {
		return tv(recvT(r).Reshape(it.shapeArgs(c, it.argsOrKw(c, "shape"))...))
	},
	"permute": func(it *Interp, r Value, c *call) Value {
		return tv(recvT(r).Permute(it.shapeArgs(c, it.argsOrKw(c, "order"))...))
	},
	"expand": func(it *Interp, r Value, c *call) Value {
		t := recvT(r)
		shp := it.shapeArgs(c, it.argsOrKw(c, "shape"))
		old := t.Shape()
		for i := range shp {
			if k := i - (len(shp) - len(old)); shp[i] == -1 && k >= 0 {
				shp[i] = old[k]
			}
		}
		return tv(t.Expand(shp...))
	},
	"flip": func(it *Interp, r Value, c *call) Value {
		kw := it.takeKw(c, "axis|dim")
		args := c.args
		if a, ok := kw["axis"]; ok {
			args = append(args, a)
		}
		return tv(recvT(r).Flip(it.shapeArgs(c, args)...))
	},
	"pad": padMethod,
	"shrink": func(it *Interp, r Value, c *call) Value {
		var p Value
		it.unpack(c, "arg", &p)
		return tv(recvT(r).Shrink(it.pairs(c, p, recvT(r).Shape(), false)))
	},
	"transpose": func(it *Interp, r Value, c *call) Value {
		a, b := 1, 0
		it.unpack(c, "dim0|a|ax1?", &a, "dim1|b|ax2?", &b)
		return tv(recvT(r).Transpose(a, b))
	},
	"flatten": func(it *Interp, r Value, c *call) Value {
		s, e := 0, -1
		it.unpack(c, "start_dim|start?", &s, "end_dim|end?", &e)
		return tv(recvT(r).Flatten(s, e))
	},
	"squeeze": func(it *Interp, r Value, c *call) Value {
		var axis Value = None
		it.unpack(c, "axis|dim?", &axis)
		return tv(recvT(r).Squeeze(it.axesArg(c, axis)...))
	},
}

// argsOrKw returns c's positional arguments, or the value of the keyword
// name (tinygrad's reshape(shape=), permute(order=)), failing on both or on
// other keywords.
func (it *Interp) argsOrKw(c *call, name string) []Value {
	args := c.args
	if v, ok := it.takeKw(c, name)[name]; ok {
		if len(args) > 0 {
			it.failf(c.pos, "%s: got %s both positionally and as %s=", c.name, name, name)
		}
		args = []Value{v}
	}
	return args
}

// noKw returns c's positional arguments, failing on keywords.
func (it *Interp) noKw(c *call) []Value {
	it.takeKw(c)
	return c.args
}

// pairs reads ((b, a), ...) for pad or shrink; a none entry means (0, 0)
// for pad and the whole axis for shrink.
func (it *Interp) pairs(c *call, v Value, shp []int, isPad bool) [][2]int {
	seq, ok := v.(Sequence)
	if !ok {
		it.failf(c.pos, "%s: want a tuple of (begin, end) pairs, got %s", c.name, v.Type())
	}
	if seq.Len() != len(shp) {
		panic(&tensor.Error{Msg: c.name + ": got " + formatInt(int64(seq.Len())) + " pairs for shape " + tensor.FormatShape(shp) + ", want " + formatInt(int64(len(shp)))})
	}
	out := make([][2]int, seq.Len())
	for i := range out {
		e := seq.At(i)
		if e == None {
			if !isPad {
				out[i] = [2]int{0, shp[i]}
			}
			continue
		}
		ints, ok := intsOf(e)
		if !ok || len(ints) != 2 {
			it.failf(c.pos, "%s: each entry must be a (begin, end) pair of ints, got %s", c.name, e.String())
		}
		out[i] = [2]int{ints[0], ints[1]}
	}
	return out
}
