package interp

import (
	"fmt"

	"tiny/lang"
	"tiny/shape"
	"tiny/symbolic"
)

// This file defines ShapeTracker, View and symbolic variable values and the
// builtins shapetracker, view and var that make them.

// Tracker is a ShapeTracker value.
type Tracker struct{ st shape.Tracker }

// View is a single-view value.
type View struct{ v shape.View }

// Var is a symbolic integer expression, usually a variable from var().
type Var struct{ n *symbolic.Node }

func (t *Tracker) String() string { return t.st.String() }
func (*Tracker) Type() string     { return "shapetracker" }
func (v *View) String() string    { return v.v.String() }
func (*View) Type() string        { return "view" }
func (v *Var) String() string     { return v.n.Render() }
func (*Var) Type() string         { return "var" }

// nodeValue returns a symbolic node as an Int when it is constant.
func nodeValue(n *symbolic.Node) Value {
	if i, ok := n.Int(); ok && !n.IsBool {
		return Int(i)
	}
	return &Var{n}
}

func nodesTuple(ns []*symbolic.Node) Tuple {
	out := make(Tuple, len(ns))
	for i, n := range ns {
		out[i] = nodeValue(n)
	}
	return out
}

func pairsValue(p [][2]*symbolic.Node) Value {
	if p == nil {
		return None
	}
	out := make(Tuple, len(p))
	for i, x := range p {
		out[i] = Tuple{nodeValue(x[0]), nodeValue(x[1])}
	}
	return out
}

// nodeOf converts an int or var to a symbolic node.
func (it *Interp) nodeOf(c *call, v Value) *symbolic.Node {
	switch x := v.(type) {
	case Int:
		return symbolic.C(int64(x))
	case *Var:
		return x.n
	}
	it.failf(c.pos, "%s: want an int or a var, got %s", c.name, v.Type())
	return nil
}

// nodesArg reads a symbolic shape as varargs or one tuple.
func (it *Interp) nodesArg(c *call, args []Value) []*symbolic.Node {
	if len(args) == 1 {
		switch x := args[0].(type) {
		case Tuple:
			args = x
		case *List:
			args = x.elems
		}
	}
	out := make([]*symbolic.Node, len(args))
	for i, a := range args {
		out[i] = it.nodeOf(c, a)
	}
	return out
}

func (it *Interp) nodePairs(c *call, v Value, shp []*symbolic.Node, isPad bool) [][2]*symbolic.Node {
	seq, ok := v.(Sequence)
	if !ok || seq.Len() != len(shp) {
		it.failf(c.pos, "%s: want %d (begin, end) pairs", c.name, len(shp))
	}
	out := make([][2]*symbolic.Node, seq.Len())
	for i := range out {
		e := seq.At(i)
		if e == None {
			out[i] = [2]*symbolic.Node{symbolic.C(0), shp[i]}
			if isPad {
				out[i][1] = symbolic.C(0)
			}
			continue
		}
		p, ok := e.(Sequence)
		if !ok || p.Len() != 2 {
			it.failf(c.pos, "%s: each entry must be a (begin, end) pair, got %s", c.name, e.String())
		}
		out[i] = [2]*symbolic.Node{it.nodeOf(c, p.At(0)), it.nodeOf(c, p.At(1))}
	}
	return out
}

func init() {
	tensorBuiltins["shapetracker"] = func(it *Interp, c *call) Value {
		it.takeKw(c)
		st, err := shape.NewTracker(it.nodesArg(c, c.args)...)
		errAt(it, c.pos, err)
		return &Tracker{st}
	}
	tensorBuiltins["view"] = view_
	tensorBuiltins["var"] = func(it *Interp, c *call) Value {
		var name string
		var lo, hi int64
		it.unpack(c, "name", &name, "min|lo", &lo, "max|hi", &hi)
		if lo > hi || lo < 0 {
			it.failf(c.pos, "var: bounds [%d, %d] must be non-negative and ordered", lo, hi)
		}
		return &Var{symbolic.Var(name, lo, hi)}
	}
	addMethods("shapetracker", trackerMethods())
	addMethods("view", viewMethods())
}

func view_(it *Interp, c *call) Value {
	var shp, strides, offset, mask Value = nil, None, Int(0), None
	it.unpack(c, "shape", &shp, "strides?", &strides, "offset?", &offset, "mask?", &mask)
	s := it.nodesArg(c, []Value{shp})
	var st []*symbolic.Node
	if strides != None {
		st = it.nodesArg(c, []Value{strides})
	}
	var m [][2]*symbolic.Node
	if mask != None {
		m = it.nodePairs(c, mask, s, false)
	}
	v, err := shape.NewView(s, st, it.nodeOf(c, offset), m)
	if err != nil {
		it.fail(c.pos, err)
	}
	return &View{v}
}

// Attr returns .views, .shape, .size or .contiguous.
func (t *Tracker) Attr(name string) (Value, error) {
	switch name {
	case "views":
		out := make(Tuple, len(t.st.Views))
		for i, v := range t.st.Views {
			out[i] = &View{v}
		}
		return out, nil
	case "shape":
		return nodesTuple(t.st.Shape()), nil
	case "size":
		return nodeValue(symbolic.Simplify(t.st.Size())), nil
	case "contiguous":
		return Bool(t.st.Contiguous()), nil
	}
	return nil, nil
}

// AttrNames lists the tracker's attributes.
func (t *Tracker) AttrNames() []string { return []string{"views", "shape", "size", "contiguous"} }

// Attr returns .shape, .strides, .offset, .mask, .contiguous or .size.
func (v *View) Attr(name string) (Value, error) {
	switch name {
	case "shape":
		return nodesTuple(v.v.Shape), nil
	case "strides":
		return nodesTuple(v.v.Strides), nil
	case "offset":
		return nodeValue(v.v.Offset), nil
	case "mask":
		return pairsValue(v.v.Mask), nil
	case "contiguous":
		return Bool(v.v.Contiguous), nil
	case "size":
		return nodeValue(symbolic.Simplify(v.v.Size())), nil
	}
	return nil, nil
}

// AttrNames lists the view's attributes.
func (v *View) AttrNames() []string {
	return []string{"shape", "strides", "offset", "mask", "contiguous", "size"}
}

// Binary composes trackers: a + b applies b's views on top of a's.
func (t *Tracker) Binary(op string, y Value, right bool) (Value, error) {
	u, ok := y.(*Tracker)
	if !ok || op != "+" || right {
		return nil, nil
	}
	return &Tracker{t.st.Compose(u.st)}, nil
}

// Binary does integer arithmetic on symbolic expressions.
func (v *Var) Binary(op string, y Value, right bool) (Value, error) {
	var o *symbolic.Node
	switch x := y.(type) {
	case Int:
		o = symbolic.C(int64(x))
	case *Var:
		o = x.n
	default:
		return nil, nil
	}
	a, b := v.n, o
	if right {
		a, b = b, a
	}
	var r *symbolic.Node
	switch op {
	case "+":
		r = symbolic.Add(a, b)
	case "-":
		r = symbolic.Sub(a, b)
	case "*":
		r = symbolic.Mul(a, b)
	case "//", "%":
		if c, ok := b.Int(); !ok || c <= 0 {
			return nil, fmt.Errorf("%s of a var needs a positive int divisor", op)
		}
		r = map[string]func(a, b *symbolic.Node) *symbolic.Node{"//": symbolic.Div, "%": symbolic.Mod}[op](a, b)
	case "<":
		r = symbolic.Lt(a, b)
	default:
		return nil, nil
	}
	return nodeValue(symbolic.Simplify(r)), nil
}

// renderNames reads render's optional tuple of loop variable names.
func (it *Interp) renderNames(c *call, n int) []string {
	var names Value = None
	it.unpack(c, "names?", &names)
	if names == None {
		return nil
	}
	seq, ok := names.(Sequence)
	if !ok || seq.Len() != n {
		it.failf(c.pos, "render: want a tuple of %d names", n)
	}
	out := make([]string, n)
	for i := range out {
		s, ok := seq.At(i).(String)
		if !ok {
			it.failf(c.pos, "render: names must be strings")
		}
		out[i] = string(s)
	}
	return out
}

func errAt(it *Interp, pos lang.Pos, err error) {
	if err != nil {
		it.fail(pos, err)
	}
}
