package interp

import (
	"strings"

	"tiny/tensor"
)

// This file defines the builtins that create and join tensors.

var tensorBuiltins = map[string]func(it *Interp, c *call) Value{
	"tensor":      tensor_,
	"zeros":       func(it *Interp, c *call) Value { return it.filled(c, 0) },
	"ones":        func(it *Interp, c *call) Value { return it.filled(c, 1) },
	"full":        full_,
	"arange":      arange_,
	"eye":         eye_,
	"linspace":    linspace_,
	"rand":        func(it *Interp, c *call) Value { return it.random(c, false) },
	"randn":       func(it *Interp, c *call) Value { return it.random(c, true) },
	"manual_seed": manualSeed_,
	"zeros_like":  func(it *Interp, c *call) Value { return it.like(c, 0) },
	"ones_like":   func(it *Interp, c *call) Value { return it.like(c, 1) },
	"full_like":   fullLike_,
	"stack":       func(it *Interp, c *call) Value { return it.join(c, tensor.Stack) },
	"cat":         func(it *Interp, c *call) Value { return it.join(c, tensor.Cat) },
	"where":       where_,
	"explain":     explain_,
	"realize":     realize_,
}

// takeKw removes the keyword arguments named in names (a "a|b" entry
// accepts either spelling) and returns them by their first name; any other
// keyword is an error.
func (it *Interp) takeKw(c *call, names ...string) map[string]Value {
	out := map[string]Value{}
	for _, k := range c.kw {
		found := false
		for _, n := range names {
			alts := strings.Split(n, "|")
			for _, a := range alts {
				if a == k.name {
					if _, dup := out[alts[0]]; dup {
						it.failf(c.pos, "%s: got multiple values for argument %s", c.name, alts[0])
					}
					out[alts[0]] = k.value
					found = true
				}
			}
		}
		if !found {
			it.failf(c.pos, "%s: unexpected keyword argument %s", c.name, k.name)
		}
	}
	c.kw = nil
	return out
}

// splitKw is takeKw for builtins that go on to unpack: it removes the
// keywords named in names and leaves the others in c.kw, so that unpack
// binds them to its parameters (eye(2, m=3)) or rejects them.
func (it *Interp) splitKw(c *call, names ...string) map[string]Value {
	var rest, mine []kwarg
	for _, k := range c.kw {
		taken := false
		for _, n := range names {
			for _, a := range strings.Split(n, "|") {
				taken = taken || a == k.name
			}
		}
		if taken {
			mine = append(mine, k)
		} else {
			rest = append(rest, k)
		}
	}
	c.kw = mine
	out := it.takeKw(c, names...)
	c.kw = rest
	return out
}

// dtypeArg converts a dtype argument: a dtype value, its name as a string,
// or the builtins int, float and bool.
func (it *Interp) dtypeArg(c *call, v Value) tensor.DType {
	switch x := v.(type) {
	case DType:
		return x.d
	case String:
		if d, ok := dtypes[string(x)]; ok {
			return d
		}
		it.failf(c.pos, "%s: unknown dtype %s", c.name, x.String())
	case *Builtin:
		switch x.name {
		case "int":
			return tensor.Int32
		case "float":
			return tensor.Float32
		}
	}
	it.failf(c.pos, "%s: want a dtype, got %s", c.name, v.Type())
	return 0
}

func (it *Interp) optDtype(c *call, kw map[string]Value, def tensor.DType) tensor.DType {
	if v, ok := kw["dtype"]; ok && v != None {
		return it.dtypeArg(c, v)
	}
	return def
}

func tensor_(it *Interp, c *call) Value {
	kw := it.splitKw(c, "dtype", "requires_grad")
	var data Value
	it.unpack(c, "data", &data)
	if data == None {
		data = &List{} // tensor(none) is empty, float32 unless dtype= says, as tinygrad's Tensor(None)
	}
	var t *tensor.Tensor
	switch x := data.(type) {
	case *TensorValue:
		t = x.t
		if d, ok := kw["dtype"]; ok && d != None {
			t = t.Cast(it.dtypeArg(c, d))
		}
	default:
		g := it.nestedGo(c, data, 0)
		if d, ok := kw["dtype"]; ok && d != None {
			t = it.engine().FromData(g, it.dtypeArg(c, d))
		} else {
			t = it.engine().FromData(g)
		}
	}
	if _, ok := kw["requires_grad"]; !ok {
		if tv, ok := data.(*TensorValue); ok && tv.t == t {
			return tv
		}
	}
	return &TensorValue{it.markGrad(c, kw, t)}
}

// nestedGo converts numbers and nested lists/tuples (and tensors) to Go data
// for tensor.FromData.
func (it *Interp) nestedGo(c *call, v Value, depth int) any {
	if depth > 32 {
		it.failf(c.pos, "%s: data nested more than 32 deep", c.name)
	}
	switch x := v.(type) {
	case Int:
		return int64(x)
	case Uint:
		return uint64(x)
	case Float:
		return float64(x)
	case Bool:
		return bool(x)
	case *TensorValue:
		return x.t.ToList()
	case Tuple, *List, *Range:
		s := x.(Sequence)
		out := make([]any, s.Len())
		for i := range out {
			out[i] = it.nestedGo(c, s.At(i), depth+1)
		}
		return out
	}
	it.failf(c.pos, "%s: cannot make a tensor from %s", c.name, v.Type())
	return nil
}

func (it *Interp) filled(c *call, v float64) Value {
	kw := it.takeKw(c, "dtype", "requires_grad")
	shp := it.shapeArgs(c, c.args)
	return &TensorValue{it.markGrad(c, kw, it.engine().Full(shp, v, it.optDtype(c, kw, tensor.Float32)))}
}

func full_(it *Interp, c *call) Value {
	kw := it.splitKw(c, "dtype", "requires_grad")
	var shp []int
	var v Value
	it.unpack(c, "shape", &shp, "value", &v)
	f, ok := toFloat(v)
	if !ok {
		it.failf(c.pos, "full: value must be a number, got %s", v.Type())
	}
	return &TensorValue{it.markGrad(c, kw, it.engine().Full(shp, f, it.optDtype(c, kw, scalarDtype(v))))}
}

// scalarDtype is the dtype a scalar gets in a new tensor.
func scalarDtype(v Value) tensor.DType {
	switch v.(type) {
	case Int:
		return tensor.Int32
	case Bool:
		return tensor.Bool
	}
	return tensor.Float32
}

func arange_(it *Interp, c *call) Value {
	kw := it.splitKw(c, "dtype")
	var a, b, s Value = nil, None, Int(1)
	it.unpack(c, "start", &a, "stop?", &b, "step?", &s)
	if b == None {
		a, b = Int(0), a
	}
	def := tensor.Int32
	var f [3]float64
	for i, v := range []Value{a, b, s} {
		x, ok := toFloat(v)
		if !ok {
			it.failf(c.pos, "arange: arguments must be numbers, got %s", v.Type())
		}
		if _, isF := v.(Float); isF {
			def = tensor.Float32
		}
		f[i] = x
	}
	return &TensorValue{it.engine().Arange(f[0], f[1], f[2], it.optDtype(c, kw, def))}
}

func eye_(it *Interp, c *call) Value {
	kw := it.splitKw(c, "dtype")
	var n int
	m := optInt{}
	it.unpack(c, "n", &n, "m?", &m)
	if !m.Set {
		m.V = n
	}
	t := it.engine().Eye(n, m.V)
	if d := it.optDtype(c, kw, tensor.Float32); d != tensor.Float32 {
		t = t.Cast(d)
	}
	return &TensorValue{t}
}

func linspace_(it *Interp, c *call) Value {
	kw := it.splitKw(c, "dtype")
	var a, b float64
	var n int
	it.unpack(c, "start", &a, "stop", &b, "steps", &n)
	if d := it.optDtype(c, kw, tensor.Float32); d == tensor.Bool {
		it.failf(c.pos, "linspace: dtype bool is not supported")
	}
	t := it.engine().Linspace(a, b, n)
	if d := it.optDtype(c, kw, tensor.Float32); d != tensor.Float32 {
		t = t.Cast(d)
	}
	return &TensorValue{t}
}

func (it *Interp) random(c *call, normal bool) Value {
	kw := it.takeKw(c, "seed", "dtype", "requires_grad")
	shp := it.shapeArgs(c, c.args)
	var seed []int64
	if s, ok := kw["seed"]; ok && s != None {
		n, ok := toInt(s)
		if !ok {
			it.failf(c.pos, "%s: seed must be an int, got %s", c.name, s.Type())
		}
		seed = append(seed, n)
	}
	var t *tensor.Tensor
	d := it.optDtype(c, kw, tensor.Float32)
	if normal {
		t = it.engine().Randn(shp, seed...)
		if d != tensor.Float32 {
			t = t.Cast(d)
		}
	} else {
		// only float dtypes, as tinygrad's rand; float16 drawn as float16
		t = it.engine().RandOf(d, shp, seed...)
	}
	return &TensorValue{it.markGrad(c, kw, t)}
}

func manualSeed_(it *Interp, c *call) Value {
	var n int64
	it.unpack(c, "seed", &n)
	it.engine().ManualSeed(n)
	return None
}

func (it *Interp) like(c *call, v float64) Value {
	kw := it.splitKw(c, "dtype")
	var t *TensorValue
	it.unpack(c, "t", &t)
	d := it.optDtype(c, kw, t.t.DType())
	return &TensorValue{t.t.Engine().Full(t.t.Shape(), v, d)}
}

func fullLike_(it *Interp, c *call) Value {
	kw := it.splitKw(c, "dtype")
	var t *TensorValue
	var v float64
	it.unpack(c, "t", &t, "value", &v)
	d := it.optDtype(c, kw, t.t.DType())
	return &TensorValue{t.t.Engine().Full(t.t.Shape(), v, d)}
}

// tensorList reads tensors given as varargs or as one list or tuple.
func (it *Interp) tensorList(c *call, args []Value) []*tensor.Tensor {
	if len(args) == 1 {
		switch x := args[0].(type) {
		case *List:
			args = x.elems
		case Tuple:
			args = x
		}
	}
	out := make([]*tensor.Tensor, len(args))
	for i, a := range args {
		t, ok := a.(*TensorValue)
		if !ok {
			it.failf(c.pos, "%s: want tensors, got %s", c.name, a.Type())
		}
		out[i] = t.t
	}
	return out
}

func (it *Interp) join(c *call, f func(int, ...*tensor.Tensor) *tensor.Tensor) Value {
	kw := it.takeKw(c, "dim|axis")
	dim := 0
	if v, ok := kw["dim"]; ok {
		n, ok := toInt(v)
		if !ok {
			it.failf(c.pos, "%s: dim must be an int, got %s", c.name, v.Type())
		}
		dim = int(n)
	}
	return &TensorValue{f(dim, it.tensorList(c, c.args)...)}
}

func where_(it *Interp, c *call) Value {
	var cond, a, b Value
	it.unpack(c, "cond", &cond, "x", &a, "y", &b)
	ct, ok := cond.(*TensorValue)
	if !ok {
		if it.truth(c.pos, cond) {
			return a
		}
		return b
	}
	return &TensorValue{ct.t.Where(it.operand(c, a), it.operand(c, b))}
}

// operand returns v as a tensor operand (a tensor or a Go scalar).
func (it *Interp) operand(c *call, v Value) any {
	o, ok := scalarOperand(v)
	if !ok {
		it.failf(c.pos, "%s: want a tensor or a number, got %s", c.name, v.Type())
	}
	return o
}

// realize_ realizes its tensors (or a list of them) in one schedule, so
// that what they share is computed once, and returns them as a list.
func realize_(it *Interp, c *call) Value {
	it.takeKw(c)
	ts := it.tensorList(c, c.args)
	tensor.Realize(ts...)
	out := make([]Value, len(ts))
	for i, t := range ts {
		out[i] = &TensorValue{t}
	}
	return &List{elems: out}
}

func explain_(it *Interp, c *call) Value {
	var t *TensorValue
	it.unpack(c, "t", &t)
	return String(t.t.Explain())
}
