package interp

import (
	"sort"

	"tiny/lang"
)

// This file defines attribute lookup and the method tables of the built-in
// types: strings, lists, tuples and dicts.

// methodFn is a method implementation; recv is the receiver.
type methodFn func(it *Interp, recv Value, c *call) Value

// methodTables maps a type name to its methods.
var methodTables = map[string]map[string]methodFn{}

// addMethods adds methods to a type's table. Files that define methods of
// the same type each call it from their init, in any order; a name defined
// twice is a programming error.
func addMethods(typ string, m map[string]methodFn) {
	t := methodTables[typ]
	if t == nil {
		t = map[string]methodFn{}
		methodTables[typ] = t
	}
	for k, f := range m {
		if _, dup := t[k]; dup {
			panic("interp: method " + typ + "." + k + " defined twice")
		}
		t[k] = f
	}
}

func (it *Interp) getAttr(pos lang.Pos, x Value, name string) Value {
	it.pos = pos
	if h, ok := x.(HasAttrs); ok {
		var v Value
		var err error
		it.guard(pos, func() { v, err = h.Attr(name) })
		if err != nil {
			it.fail(pos, err)
		}
		if v != nil {
			return v
		}
	}
	if fn, ok := methodTables[x.Type()][name]; ok {
		return &Method{recv: x, name: name, fn: fn}
	}
	if d, ok := x.(*Dict); ok {
		if v, ok := d.m[name]; ok {
			return v
		}
		it.failf(pos, "dict has no key or method %s", name)
	}
	it.failf(pos, "%s has no attribute %s", x.Type(), name)
	return nil
}

// attrNames returns the attributes and methods of x, for completion.
func attrNames(x Value) []string {
	var out []string
	if h, ok := x.(HasAttrs); ok {
		out = append(out, h.AttrNames()...)
	}
	for k := range methodTables[x.Type()] {
		out = append(out, k)
	}
	if d, ok := x.(*Dict); ok {
		out = append(out, d.keys...)
	}
	sort.Strings(out)
	return out
}
