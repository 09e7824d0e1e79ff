package interp

import (
	"math"
	"strconv"
	"strings"

	"tiny/lang"
	"tiny/tensor"
)

// Value is a value of the tiny language. String returns the value as it
// prints inside a container (strings quoted); Type returns its type name as
// type(x) reports it.
type Value interface {
	String() string
	Type() string
}

// HasAttrs is implemented by values with attributes or methods (x.name).
// Attr returns (nil, nil) for an unknown name.
type HasAttrs interface {
	Value
	Attr(name string) (Value, error)
	AttrNames() []string
}

// Callable is implemented by values that can be called.
type Callable interface {
	Value
	Name() string
	call(it *Interp, pos lang.Pos, args []Value, kwargs []kwarg) Value
}

// HasBinary is implemented by values with their own binary operators. Binary
// returns (nil, nil) when it does not handle op; right reports that the value
// is the right operand.
type HasBinary interface {
	Value
	Binary(op string, y Value, right bool) (Value, error)
}

// Iterable is implemented by values a for loop can walk.
type Iterable interface {
	Value
	Iterate(yield func(Value) bool)
}

// Sequence is implemented by iterable values with a length and integer
// indexing.
type Sequence interface {
	Iterable
	Len() int
	At(i int) Value
}

// kwarg is one keyword argument of a call.
type kwarg struct {
	name  string
	value Value
}

// NoneType is the type of none.
type NoneType struct{}

// None is the none value.
var None Value = NoneType{}

// Bool is true or false.
type Bool bool

// Int is a 64-bit integer.
type Int int64

// Float is a 64-bit float.
type Float float64

// String is an immutable string.
type String string

// Tuple is an immutable sequence.
type Tuple []Value

func (NoneType) String() string { return "none" }
func (NoneType) Type() string   { return "none" }

func (b Bool) String() string {
	if b {
		return "true"
	}
	return "false"
}
func (Bool) Type() string { return "bool" }

func (i Int) String() string { return formatInt(int64(i)) }

// Uint is an int past int64's range, up to 2**64-1: what .item() and
// .tolist() give for such a uint64 tensor element. Its type is int; with
// ints it computes exactly, giving an Int again when the result fits int64
// (ops_uint.go).
type Uint uint64

func (u Uint) String() string { return strconv.FormatUint(uint64(u), 10) }
func (Uint) Type() string     { return "int" }
func (Int) Type() string      { return "int" }

func (f Float) String() string { return tensor.FormatFloat(float64(f), tensor.Float64) }
func (Float) Type() string     { return "float" }

func (s String) String() string { return quote(string(s)) }
func (String) Type() string     { return "string" }

// Len returns the number of bytes of s.
func (s String) Len() int { return len([]rune(string(s))) }

// At returns the i-th character.
func (s String) At(i int) Value { return String(string([]rune(string(s))[i])) }

// Iterate yields the characters of s.
func (s String) Iterate(yield func(Value) bool) {
	for _, r := range string(s) {
		if !yield(String(string(r))) {
			return
		}
	}
}

func (t Tuple) String() string { return reprDepth(t, 0) }
func (Tuple) Type() string     { return "tuple" }

// Len returns the number of elements.
func (t Tuple) Len() int { return len(t) }

// At returns element i.
func (t Tuple) At(i int) Value { return t[i] }

// Iterate yields the elements.
func (t Tuple) Iterate(yield func(Value) bool) {
	for _, v := range t {
		if !yield(v) {
			return
		}
	}
}

// List is a mutable sequence.
type List struct {
	elems []Value
}

// NewList returns a list holding elems.
func NewList(elems []Value) *List { return &List{elems: elems} }

func (l *List) String() string { return reprDepth(l, 0) }
func (*List) Type() string     { return "list" }

// Len returns the number of elements.
func (l *List) Len() int { return len(l.elems) }

// At returns element i.
func (l *List) At(i int) Value { return l.elems[i] }

// Iterate yields the elements; appending during the loop is seen.
func (l *List) Iterate(yield func(Value) bool) {
	for i := 0; i < len(l.elems); i++ {
		if !yield(l.elems[i]) {
			return
		}
	}
}

// Dict maps strings to values, keeping insertion order.
type Dict struct {
	keys []string
	m    map[string]Value
}

// NewDict returns an empty dict.
func NewDict() *Dict { return &Dict{m: map[string]Value{}} }

// Set binds key to v.
func (d *Dict) Set(key string, v Value) {
	if _, ok := d.m[key]; !ok {
		d.keys = append(d.keys, key)
	}
	d.m[key] = v
}

// Get returns the value of key.
func (d *Dict) Get(key string) (Value, bool) {
	v, ok := d.m[key]
	return v, ok
}

// Delete removes key.
func (d *Dict) Delete(key string) {
	if _, ok := d.m[key]; !ok {
		return
	}
	delete(d.m, key)
	for i, k := range d.keys {
		if k == key {
			d.keys = append(d.keys[:i:i], d.keys[i+1:]...)
			break
		}
	}
}

func (d *Dict) String() string { return reprDepth(d, 0) }
func (*Dict) Type() string     { return "dict" }

// Len returns the number of keys.
func (d *Dict) Len() int { return len(d.keys) }

// Iterate yields the keys in insertion order.
func (d *Dict) Iterate(yield func(Value) bool) {
	for _, k := range append([]string(nil), d.keys...) {
		if !yield(String(k)) {
			return
		}
	}
}

// Range is range(start, stop, step), iterated lazily.
type Range struct {
	start, stop, step int64
}

func (r *Range) String() string {
	if r.step == 1 {
		return "range(" + formatInt(r.start) + ", " + formatInt(r.stop) + ")"
	}
	return "range(" + formatInt(r.start) + ", " + formatInt(r.stop) + ", " + formatInt(r.step) + ")"
}
func (*Range) Type() string { return "range" }

// count returns the number of values, exactly: it fits a uint64 where the
// int64 arithmetic of stop-start would overflow.
func (r *Range) count() uint64 {
	var span, step uint64
	switch {
	case r.step > 0 && r.stop > r.start:
		span, step = uint64(r.stop)-uint64(r.start), uint64(r.step)
	case r.step < 0 && r.stop < r.start:
		span, step = uint64(r.start)-uint64(r.stop), -uint64(r.step)
	default:
		return 0
	}
	n := span / step
	if span%step != 0 {
		n++
	}
	return n
}

// Len returns the number of values. It panics with a *tensor.Error, which
// the interpreter reports at the current position, when the range has more
// than math.MaxInt values.
func (r *Range) Len() int {
	n := r.count()
	if n > math.MaxInt {
		panic(&tensor.Error{Msg: "range too long: " + r.String() + " has " + strconv.FormatUint(n, 10) + " values"})
	}
	return int(n)
}

// At returns the i-th value. The arithmetic wraps, which gives the right
// value for every i below count even where i*step alone overflows.
func (r *Range) At(i int) Value { return Int(int64(uint64(r.start) + uint64(i)*uint64(r.step))) }

// index resolves a Python index (negative counts from the end) against the
// range's exact count, for ranges too long for Len.
func (r *Range) index(k int64) (Value, bool) {
	n := r.count()
	u := uint64(k)
	if k < 0 {
		u = n - uint64(-k)
		if uint64(-k) > n {
			return nil, false
		}
	}
	if u >= n {
		return nil, false
	}
	return Int(int64(uint64(r.start) + u*uint64(r.step))), true
}

// Iterate yields the values.
func (r *Range) Iterate(yield func(Value) bool) {
	n := r.count()
	for i := uint64(0); i < n; i++ {
		if !yield(Int(int64(uint64(r.start) + i*uint64(r.step)))) {
			return
		}
	}
}

// Module is the globals of an imported file; m.name reads them.
type Module struct {
	name    string
	globals *scope
}

func (m *Module) String() string { return "<module " + quote(m.name) + ">" }
func (*Module) Type() string     { return "module" }

// Attr returns a global of the module.
func (m *Module) Attr(name string) (Value, error) {
	v, _ := m.globals.vars[name]
	return v, nil
}

// AttrNames returns the module's globals.
func (m *Module) AttrNames() []string { return m.globals.names() }

// maxNesting bounds how deep printing, comparison and conversion follow
// nested containers, so that a list holding itself cannot recurse forever.
const maxNesting = 100

// reprDepth prints a container at nesting depth d; beyond maxNesting it
// prints "...".
func reprDepth(v Value, d int) string {
	if d > maxNesting {
		return "..."
	}
	join := func(vs []Value) string {
		parts := make([]string, len(vs))
		for i, e := range vs {
			parts[i] = reprDepth(e, d+1)
		}
		return strings.Join(parts, ", ")
	}
	switch x := v.(type) {
	case Tuple:
		if len(x) == 1 {
			return "(" + join(x) + ",)"
		}
		return "(" + join(x) + ")"
	case *List:
		return "[" + join(x.elems) + "]"
	case *Dict:
		parts := make([]string, len(x.keys))
		for i, k := range x.keys {
			parts[i] = quote(k) + ": " + reprDepth(x.m[k], d+1)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return v.String()
}
