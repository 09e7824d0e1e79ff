package interp

import (
	"tiny/shape"
	"tiny/symbolic"
)

// This file defines the movement methods of ShapeTracker and View values.

func moves[S any](reshape func(S, []*symbolic.Node) (Value, error),
	permute func(S, []int) (S, error), expand func(S, []*symbolic.Node) (S, error),
	pad, shrink func(S, [][2]*symbolic.Node) (S, error), stride func(S, []int) (S, error),
	wrap func(S) Value, shapeOf func(S) []*symbolic.Node) map[string]func(it *Interp, s S, c *call) Value {
	done := func(it *Interp, c *call, s S, err error) Value {
		errAt(it, c.pos, err)
		return wrap(s)
	}
	return map[string]func(it *Interp, s S, c *call) Value{
		"reshape": func(it *Interp, s S, c *call) Value {
			shp, err := shape.InferShape(shapeOf(s), it.nodesArg(c, it.noKw(c)))
			errAt(it, c.pos, err)
			v, err := reshape(s, shp)
			errAt(it, c.pos, err)
			return v
		},
		"permute": func(it *Interp, s S, c *call) Value {
			r, err := permute(s, it.shapeArgs(c, it.noKw(c)))
			return done(it, c, r, err)
		},
		"expand": func(it *Interp, s S, c *call) Value {
			r, err := expand(s, it.nodesArg(c, it.noKw(c)))
			return done(it, c, r, err)
		},
		"pad": func(it *Interp, s S, c *call) Value {
			var p Value
			it.unpack(c, "padding|arg", &p)
			r, err := pad(s, it.nodePairs(c, p, shapeOf(s), true))
			return done(it, c, r, err)
		},
		"shrink": func(it *Interp, s S, c *call) Value {
			var p Value
			it.unpack(c, "arg", &p)
			r, err := shrink(s, it.nodePairs(c, p, shapeOf(s), false))
			return done(it, c, r, err)
		},
		"stride": func(it *Interp, s S, c *call) Value {
			r, err := stride(s, it.shapeArgs(c, it.noKw(c)))
			return done(it, c, r, err)
		},
		"flip": func(it *Interp, s S, c *call) Value {
			n := len(shapeOf(s))
			k := make([]int, n)
			for i := range k {
				k[i] = 1
			}
			for _, a := range it.shapeArgs(c, it.noKw(c)) {
				k[it.axisIndex(c, a, n)] = -1
			}
			r, err := stride(s, k)
			return done(it, c, r, err)
		},
	}
}

func trackerMethods() map[string]methodFn {
	ms := moves(
		func(st shape.Tracker, shp []*symbolic.Node) (Value, error) {
			r, err := st.Reshape(shp)
			return &Tracker{r}, err
		},
		shape.Tracker.Permute, shape.Tracker.Expand, shape.Tracker.Pad, shape.Tracker.Shrink, shape.Tracker.Stride,
		func(st shape.Tracker) Value { return &Tracker{st} },
		shape.Tracker.Shape)
	out := map[string]methodFn{}
	for name, f := range ms {
		out[name] = func(it *Interp, r Value, c *call) Value { return f(it, r.(*Tracker).st, c) }
	}
	out["render"] = func(it *Interp, r Value, c *call) Value {
		st := r.(*Tracker).st
		idx, valid := st.Render(it.renderNames(c, len(st.Shape())))
		return Tuple{String(idx), String(valid)}
	}
	out["simplify"] = func(it *Interp, r Value, c *call) Value {
		it.unpack(c)
		return &Tracker{r.(*Tracker).st.Simplify()}
	}
	return out
}

func viewMethods() map[string]methodFn {
	ms := moves(
		func(v shape.View, shp []*symbolic.Node) (Value, error) {
			if r, ok := v.Reshape(shp); ok {
				return &View{r}, nil
			}
			return None, nil
		},
		shape.View.Permute, shape.View.Expand, shape.View.Pad, shape.View.Shrink, shape.View.Stride,
		func(v shape.View) Value { return &View{v} },
		func(v shape.View) []*symbolic.Node { return v.Shape })
	out := map[string]methodFn{}
	for name, f := range ms {
		out[name] = func(it *Interp, r Value, c *call) Value { return f(it, r.(*View).v, c) }
	}
	out["render"] = func(it *Interp, r Value, c *call) Value {
		st := shape.Tracker{Views: []shape.View{r.(*View).v}}
		idx, valid := st.Render(it.renderNames(c, len(st.Shape())))
		return Tuple{String(idx), String(valid)}
	}
	return out
}
