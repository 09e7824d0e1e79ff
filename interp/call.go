package interp

import (
	"fmt"
	"strings"

	"tiny/lang"
)

// maxDepth bounds the call depth so that runaway recursion is an error, not
// a Go stack overflow.
const maxDepth = 1000

// call is one call of a builtin or method: its name, position and arguments.
type call struct {
	name string
	pos  lang.Pos
	args []Value
	kw   []kwarg
}

// Function is a fn value: a closure over the scope that defined it.
type Function struct {
	lit      *lang.FnLit
	defaults []Value // one per parameter; nil where there is none
	env      *scope
	src      string // the source text the fn was parsed from
}

// Name returns the fn's name, "anonymous" for a fn literal.
func (f *Function) Name() string {
	if f.lit.Name == "" {
		return "anonymous"
	}
	return f.lit.Name
}

func (f *Function) String() string { return "<fn " + f.Name() + ">" }
func (*Function) Type() string     { return "fn" }

func (f *Function) call(it *Interp, pos lang.Pos, args []Value, kw []kwarg) Value {
	env := newScope(f.env)
	ps := f.lit.Params
	if len(args) > len(ps) {
		it.failf(pos, "%s: got %d arguments, want at most %d", f.Name(), len(args), len(ps))
	}
	for i, a := range args {
		env.vars[ps[i].Name] = a
	}
	for _, k := range kw {
		i := paramIndex(ps, k.name)
		if i < 0 {
			it.failf(pos, "%s: unexpected keyword argument %s", f.Name(), k.name)
		}
		if _, dup := env.vars[k.name]; dup {
			it.failf(pos, "%s: got multiple values for argument %s", f.Name(), k.name)
		}
		env.vars[k.name] = k.value
	}
	for i, p := range ps {
		if _, ok := env.vars[p.Name]; !ok {
			if f.defaults[i] == nil {
				it.failf(pos, "%s: missing argument %s", f.Name(), p.Name)
			}
			env.vars[p.Name] = f.defaults[i]
		}
	}
	it.frames = append(it.frames, lang.Frame{Name: f.Name(), Pos: pos})
	defer it.running(f.src)()
	defer func() { it.frames = it.frames[:len(it.frames)-1] }()
	it.ret = nil
	if it.execStmts(f.lit.Body.Stmts, env) == ctrlReturn && it.ret != nil {
		v := it.ret
		it.ret = nil
		return v
	}
	return None
}

func paramIndex(ps []lang.Param, name string) int {
	for i, p := range ps {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// Builtin is a function written in Go.
type Builtin struct {
	name string
	fn   func(it *Interp, c *call) Value
}

// Name returns the builtin's name.
func (b *Builtin) Name() string { return b.name }

func (b *Builtin) String() string { return "<builtin " + b.name + ">" }
func (*Builtin) Type() string     { return "builtin" }

func (b *Builtin) call(it *Interp, pos lang.Pos, args []Value, kw []kwarg) (v Value) {
	it.guard(pos, func() { v = b.fn(it, &call{name: b.name, pos: pos, args: args, kw: kw}) })
	it.checkSize(pos, v)
	return v
}

// checkSize fails if v is a tensor with more elements than the
// interpreter allows, before anything tries to realize it.
func (it *Interp) checkSize(pos lang.Pos, v Value) {
	if t, ok := v.(*TensorValue); ok && it.maxNumel > 0 && t.t.Numel() > it.maxNumel {
		it.failf(pos, "tensor of shape %s has %d elements, more than the limit of %d", tensorShape(t), t.t.Numel(), it.maxNumel)
	}
}

// Method is a method bound to its receiver, such as t.sum.
type Method struct {
	recv Value
	name string
	fn   func(it *Interp, recv Value, c *call) Value
}

// Name returns the method's name.
func (m *Method) Name() string { return m.name }

func (m *Method) String() string { return "<method " + m.recv.Type() + "." + m.name + ">" }
func (*Method) Type() string     { return "builtin" }

func (m *Method) call(it *Interp, pos lang.Pos, args []Value, kw []kwarg) (v Value) {
	it.guard(pos, func() { v = m.fn(it, m.recv, &call{name: m.name, pos: pos, args: args, kw: kw}) })
	it.checkSize(pos, v)
	return v
}

// callValue calls f with arguments at pos.
func (it *Interp) callValue(pos lang.Pos, f Value, args []Value, kw []kwarg) Value {
	if d, isDict := f.(*Dict); isDict {
		// A dict with a __call__ entry is called through it: nn's layers.
		if call, ok := d.m["__call__"]; ok {
			f = call
		}
	}
	c, ok := f.(Callable)
	if !ok {
		it.failf(pos, "%s is not callable", f.Type())
	}
	it.checkCtx(pos)
	if it.depth >= maxDepth {
		it.failf(pos, "%s: maximum call depth %d exceeded", c.Name(), maxDepth)
	}
	it.depth++
	defer func() { it.depth-- }()
	return c.call(it, pos, args, kw)
}

// This part defines argument unpacking for builtins and methods.

// unpack binds c's arguments to the named parameters: positional ones in
// order, then keywords by name. A name ending in "?" is optional; a name
// "a|b" also accepts the keyword b. Each dst is a pointer: *Value, *int,
// *int64, *float64, *string, *bool, *[]int (an int or a tuple/list of ints),
// **TensorValue, or *optInt (an int or none).
func (it *Interp) unpack(c *call, pairs ...any) {
	n := len(pairs) / 2
	if len(c.args) > n {
		it.failf(c.pos, "%s: got %d arguments, want at most %d", c.name, len(c.args), n)
	}
	set := make([]bool, n)
	for i, a := range c.args {
		it.convert(c, pairs[2*i].(string), a, pairs[2*i+1])
		set[i] = true
	}
	for _, k := range c.kw {
		i := findParam(pairs, k.name)
		if i < 0 {
			it.failf(c.pos, "%s: unexpected keyword argument %s", c.name, k.name)
		}
		if set[i] {
			it.failf(c.pos, "%s: got multiple values for argument %s", c.name, k.name)
		}
		it.convert(c, pairs[2*i].(string), k.value, pairs[2*i+1])
		set[i] = true
	}
	for i := 0; i < n; i++ {
		if name := pairs[2*i].(string); !set[i] && !strings.HasSuffix(name, "?") {
			it.failf(c.pos, "%s: missing argument %s", c.name, paramName(name))
		}
	}
}

func paramName(spec string) string {
	name, _, _ := strings.Cut(strings.TrimSuffix(spec, "?"), "|")
	return name
}

func findParam(pairs []any, name string) int {
	for i := 0; i < len(pairs); i += 2 {
		for _, alt := range strings.Split(strings.TrimSuffix(pairs[i].(string), "?"), "|") {
			if alt == name {
				return i / 2
			}
		}
	}
	return -1
}

// optInt is an optional int argument: Set is false for none or absent.
type optInt struct {
	Set bool
	V   int
}

func (it *Interp) convert(c *call, spec string, v Value, dst any) {
	name := paramName(spec)
	bad := func(want string) {
		it.failf(c.pos, "%s: %s must be %s, got %s", c.name, name, want, v.Type())
	}
	switch d := dst.(type) {
	case *Value:
		*d = v
	case *int:
		i, ok := toInt(v)
		if !ok {
			bad("an int")
		}
		*d = int(i)
	case *int64:
		i, ok := toInt(v)
		if !ok {
			bad("an int")
		}
		*d = i
	case *optInt:
		if v == None {
			return
		}
		i, ok := toInt(v)
		if !ok {
			bad("an int")
		}
		*d = optInt{true, int(i)}
	case *float64:
		f, ok := toFloat(v)
		if !ok {
			bad("a number")
		}
		*d = f
	case *string:
		s, ok := v.(String)
		if !ok {
			bad("a string")
		}
		*d = string(s)
	case *bool:
		*d = it.truth(c.pos, v)
	case *[]int:
		ints, ok := intsOf(v)
		if !ok {
			bad("an int or a tuple of ints")
		}
		*d = ints
	case **TensorValue:
		t, ok := v.(*TensorValue)
		if !ok {
			bad("a tensor")
		}
		*d = t
	default:
		panic(fmt.Sprintf("internal error: unpack into %T", dst))
	}
}

// toInt returns v as an int64 if it is an int or bool.
func toInt(v Value) (int64, bool) {
	switch x := v.(type) {
	case Int:
		return int64(x), true
	case Bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// toFloat returns v as a float64 if it is a number or bool.
func toFloat(v Value) (float64, bool) {
	if f, ok := v.(Float); ok {
		return float64(f), true
	}
	if u, ok := v.(Uint); ok {
		return uintFloat(u), true
	}
	i, ok := toInt(v)
	return float64(i), ok
}

// intsOf returns v as ints: an int, or a tuple or list of ints, or a 1-D
// integer tensor (a bracket literal of ints is one: sum([0, 2]) and
// zeros([2, 3]) read it as Python reads the list).
func intsOf(v Value) ([]int, bool) {
	if i, ok := v.(Int); ok {
		return []int{int(i)}, true
	}
	var elems []Value
	switch x := v.(type) {
	case Tuple:
		elems = x
	case *List:
		elems = x.elems
	case *TensorValue:
		if x.t.Ndim() != 1 || !x.t.DType().IsInt() {
			return nil, false
		}
		out := []int{}
		for _, n := range x.t.Ints() {
			out = append(out, int(n))
		}
		return out, true
	default:
		return nil, false
	}
	out := make([]int, len(elems))
	for i, e := range elems {
		n, ok := e.(Int)
		if !ok {
			return nil, false
		}
		out[i] = int(n)
	}
	return out, true
}

// shapeArgs reads a shape given as varargs or as one tuple or list:
// f(2, 3) and f((2, 3)) are the same.
func (it *Interp) shapeArgs(c *call, args []Value) []int {
	if len(args) == 1 {
		if ints, ok := intsOf(args[0]); ok {
			return ints
		}
	}
	out := make([]int, len(args))
	for i, a := range args {
		n, ok := a.(Int)
		if !ok {
			it.failf(c.pos, "%s: shape must be ints, got %s", c.name, a.Type())
		}
		out[i] = int(n)
	}
	return out
}
