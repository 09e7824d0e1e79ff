package interp

import (
	"sort"
	"strings"
	"unicode"
)

// This file defines the methods of strings, lists, tuples and dicts, named
// as a Python user expects.

func init() {
	addMethods("string", map[string]methodFn{
		"upper":      strFn(strings.ToUpper),
		"lower":      strFn(strings.ToLower),
		"strip":      strFn(strings.TrimSpace),
		"lstrip":     strFn(func(s string) string { return strings.TrimLeftFunc(s, unicode.IsSpace) }),
		"rstrip":     strFn(func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }),
		"title":      strFn(titleCase),
		"split":      strSplit,
		"join":       strJoin,
		"replace":    strReplace,
		"startswith": strPred(strings.HasPrefix),
		"endswith":   strPred(strings.HasSuffix),
		"contains":   strPred(strings.Contains),
		"find":       strFind,
		"count":      strCount,
		"format":     strFormat,
		"isdigit": func(it *Interp, r Value, c *call) Value {
			it.unpack(c)
			s := string(r.(String))
			return Bool(s != "" && strings.TrimFunc(s, unicode.IsDigit) == "")
		},
	})
	addMethods("list", map[string]methodFn{
		"append":  listAppend,
		"extend":  listExtend,
		"insert":  listInsert,
		"pop":     listPop,
		"remove":  listRemove,
		"index":   seqIndexOf,
		"count":   seqCount,
		"reverse": listReverse,
		"sort":    listSort,
		"copy": func(it *Interp, r Value, c *call) Value {
			it.unpack(c)
			return NewList(append([]Value{}, r.(*List).elems...))
		},
		"clear": func(it *Interp, r Value, c *call) Value { it.unpack(c); r.(*List).elems = nil; return None },
	})
	addMethods("tuple", map[string]methodFn{"index": seqIndexOf, "count": seqCount})
	addMethods("dict", map[string]methodFn{
		"keys":   dictKeys,
		"values": dictValues,
		"items":  dictItems,
		"get":    dictGet,
		"pop":    dictPop,
		"update": dictUpdate,
		"copy": func(it *Interp, r Value, c *call) Value {
			it.unpack(c)
			d, out := r.(*Dict), NewDict()
			for _, k := range d.keys {
				out.Set(k, d.m[k])
			}
			return out
		},
	})
}

func strFn(f func(string) string) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		it.unpack(c)
		return String(f(string(r.(String))))
	}
}

func strPred(f func(s, x string) bool) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		var x string
		it.unpack(c, "x", &x)
		return Bool(f(string(r.(String)), x))
	}
}

func titleCase(s string) string {
	prev := ' '
	return strings.Map(func(r rune) rune {
		defer func() { prev = r }()
		if unicode.IsLetter(prev) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}

func strSplit(it *Interp, r Value, c *call) Value {
	var sep Value = None
	it.unpack(c, "sep?", &sep)
	s := string(r.(String))
	var parts []string
	if sep == None {
		parts = strings.Fields(s)
	} else {
		sp, ok := sep.(String)
		if !ok || sp == "" {
			it.failf(c.pos, "split: sep must be a non-empty string")
		}
		parts = strings.Split(s, string(sp))
	}
	out := make([]Value, len(parts))
	for i, p := range parts {
		out[i] = String(p)
	}
	return NewList(out)
}

func strJoin(it *Interp, r Value, c *call) Value {
	var xs Value
	it.unpack(c, "items", &xs)
	var parts []string
	sep, n := string(r.(String)), 0
	it.iterate(c, xs, func(v Value) {
		s, ok := v.(String)
		if !ok {
			it.failf(c.pos, "join: items must be strings, got %s", v.Type())
		}
		if n += len(s) + len(sep); n > 1<<16 {
			it.checkStrLen(c.pos, n)
		}
		parts = append(parts, string(s))
	})
	return String(strings.Join(parts, sep))
}

func strReplace(it *Interp, r Value, c *call) Value {
	var old, nw string
	it.unpack(c, "old", &old, "new", &nw)
	s := string(r.(String))
	if n := strings.Count(s, old); len(nw) > len(old) {
		it.checkStrLen(c.pos, len(s)+n*(len(nw)-len(old)))
	}
	return String(strings.ReplaceAll(s, old, nw))
}

func strFind(it *Interp, r Value, c *call) Value {
	var x string
	it.unpack(c, "x", &x)
	i := strings.Index(string(r.(String)), x)
	if i < 0 {
		return Int(-1)
	}
	return Int(len([]rune(string(r.(String))[:i])))
}

func strCount(it *Interp, r Value, c *call) Value {
	var x string
	it.unpack(c, "x", &x)
	return Int(strings.Count(string(r.(String)), x))
}

// iterate calls f for each element of the iterable v.
func (it *Interp) iterate(c *call, v Value, f func(Value)) {
	iter, ok := v.(Iterable)
	if !ok {
		it.failf(c.pos, "%s: cannot iterate over %s", c.name, v.Type())
	}
	n := 0
	iter.Iterate(func(x Value) bool {
		if n++; n%1024 == 0 {
			it.checkCtx(c.pos)
			it.checkLen(c.pos, n)
		}
		f(x)
		return true
	})
}

func listAppend(it *Interp, r Value, c *call) Value {
	var x Value
	it.unpack(c, "x", &x)
	l := r.(*List)
	it.checkLen(c.pos, len(l.elems)+1)
	l.elems = append(l.elems, x)
	return None
}

func listExtend(it *Interp, r Value, c *call) Value {
	var xs Value
	it.unpack(c, "items", &xs)
	l := r.(*List)
	var add []Value
	it.iterate(c, xs, func(v Value) { add = append(add, v) })
	it.checkLen(c.pos, len(l.elems)+len(add))
	l.elems = append(l.elems, add...)
	return None
}

func listInsert(it *Interp, r Value, c *call) Value {
	var i int
	var x Value
	it.unpack(c, "i", &i, "x", &x)
	l := r.(*List)
	n := len(l.elems)
	if i < 0 {
		i += n
	}
	i = max(0, min(i, n))
	l.elems = append(l.elems[:i], append([]Value{x}, l.elems[i:]...)...)
	return None
}

func listPop(it *Interp, r Value, c *call) Value {
	i := -1
	it.unpack(c, "i?", &i)
	l := r.(*List)
	if len(l.elems) == 0 {
		it.failf(c.pos, "pop from empty list")
	}
	k := it.seqIndex(c.pos, l, Int(i), len(l.elems))
	v := l.elems[k]
	l.elems = append(l.elems[:k], l.elems[k+1:]...)
	return v
}

func listRemove(it *Interp, r Value, c *call) Value {
	var x Value
	it.unpack(c, "x", &x)
	l := r.(*List)
	for i, v := range l.elems {
		if equal(v, x) {
			l.elems = append(l.elems[:i], l.elems[i+1:]...)
			return None
		}
	}
	it.failf(c.pos, "remove: %s not in list", x.String())
	return nil
}

func seqIndexOf(it *Interp, r Value, c *call) Value {
	var x Value
	it.unpack(c, "x", &x)
	s := r.(Sequence)
	for i := 0; i < s.Len(); i++ {
		if equal(s.At(i), x) {
			return Int(i)
		}
	}
	it.failf(c.pos, "index: %s not in %s", x.String(), r.Type())
	return nil
}

func seqCount(it *Interp, r Value, c *call) Value {
	var x Value
	it.unpack(c, "x", &x)
	s, n := r.(Sequence), 0
	for i := 0; i < s.Len(); i++ {
		if equal(s.At(i), x) {
			n++
		}
	}
	return Int(n)
}

func listReverse(it *Interp, r Value, c *call) Value {
	it.unpack(c)
	e := r.(*List).elems
	for i, j := 0, len(e)-1; i < j; i, j = i+1, j-1 {
		e[i], e[j] = e[j], e[i]
	}
	return None
}

func listSort(it *Interp, r Value, c *call) Value {
	var key Value = None
	reverse := false
	it.unpack(c, "key?", &key, "reverse?", &reverse)
	it.sortValues(c, r.(*List).elems, key, reverse)
	return None
}

// sortValues sorts vs in place, by key(v) when key is not none.
func (it *Interp) sortValues(c *call, vs []Value, key Value, reverse bool) {
	keys := vs
	if key != None {
		keys = make([]Value, len(vs))
		for i, v := range vs {
			keys[i] = it.callValue(c.pos, key, []Value{v}, nil)
		}
	}
	idx := make([]int, len(vs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := keys[idx[a]], keys[idx[b]]
		if reverse {
			x, y = y, x
		}
		o, ok := compare(x, y)
		if !ok {
			it.failf(c.pos, "%s: cannot compare %s and %s", c.name, x.Type(), y.Type())
		}
		return o < 0
	})
	sorted := make([]Value, len(vs))
	for i, k := range idx {
		sorted[i] = vs[k]
	}
	copy(vs, sorted)
}

func dictKeys(it *Interp, r Value, c *call) Value {
	it.unpack(c)
	d := r.(*Dict)
	out := make([]Value, len(d.keys))
	for i, k := range d.keys {
		out[i] = String(k)
	}
	return NewList(out)
}

func dictValues(it *Interp, r Value, c *call) Value {
	it.unpack(c)
	d := r.(*Dict)
	out := make([]Value, len(d.keys))
	for i, k := range d.keys {
		out[i] = d.m[k]
	}
	return NewList(out)
}

func dictItems(it *Interp, r Value, c *call) Value {
	it.unpack(c)
	d := r.(*Dict)
	out := make([]Value, len(d.keys))
	for i, k := range d.keys {
		out[i] = Tuple{String(k), d.m[k]}
	}
	return NewList(out)
}

func dictGet(it *Interp, r Value, c *call) Value {
	var key string
	var def Value = None
	it.unpack(c, "key", &key, "default?", &def)
	if v, ok := r.(*Dict).m[key]; ok {
		return v
	}
	return def
}

func dictPop(it *Interp, r Value, c *call) Value {
	var key string
	var def Value
	it.unpack(c, "key", &key, "default?", &def)
	d := r.(*Dict)
	v, ok := d.m[key]
	if !ok {
		if def == nil {
			it.failf(c.pos, "pop: key %s not in dict", quote(key))
		}
		return def
	}
	d.Delete(key)
	return v
}

func dictUpdate(it *Interp, r Value, c *call) Value {
	var other Value
	it.unpack(c, "other", &other)
	o, ok := other.(*Dict)
	if !ok {
		it.failf(c.pos, "update: want a dict, got %s", other.Type())
	}
	d := r.(*Dict)
	for _, k := range o.keys {
		d.Set(k, o.m[k])
	}
	return None
}
