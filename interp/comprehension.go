package interp

import (
	"strings"

	"tiny/lang"
)

// This file defines the Python habits of the evaluator: the conditional
// expression a if c else b, list and dict comprehensions, and membership
// (x in s, x not in s).

func (it *Interp) evalCond(x *lang.CondExpr, env *scope) Value {
	if it.truth(x.Cond.Pos(), it.eval(x.Cond, env)) {
		return it.eval(x.Then, env)
	}
	return it.eval(x.Else, env)
}

// evalComp evaluates a comprehension in a scope of its own, so that its
// loop variables do not leak, running the clauses left to right with the
// first outermost.
func (it *Interp) evalComp(x *lang.Comprehension, env *scope) Value {
	local := newScope(env)
	var out []Value
	var dict *Dict
	if x.Key != nil {
		dict = NewDict()
	}
	var run func(i int)
	run = func(i int) {
		if i == len(x.Clauses) {
			if dict == nil {
				it.checkLen(x.Start, len(out)+1)
				out = append(out, it.eval(x.Elem, local))
				return
			}
			k := it.eval(x.Key, local)
			s, ok := k.(String)
			if !ok {
				it.failf(x.Key.Pos(), "dict keys must be strings, got %s", k.Type())
			}
			dict.Set(string(s), it.eval(x.Elem, local))
			return
		}
		c := x.Clauses[i]
		if c.Vars == nil {
			if it.truth(c.Cond.Pos(), it.eval(c.Cond, local)) {
				run(i + 1)
			}
			return
		}
		seq := it.eval(c.Iter, local)
		iter, ok := seq.(Iterable)
		if !ok {
			it.failf(c.Iter.Pos(), "cannot iterate over %s", seq.Type())
		}
		it.guard(c.Iter.Pos(), func() {
			iter.Iterate(func(v Value) bool {
				it.checkCtx(c.Start)
				if len(c.Vars) == 1 {
					local.vars[c.Vars[0].Name] = v
				} else {
					targets := make([]lang.Expr, len(c.Vars))
					for i, id := range c.Vars {
						targets[i] = id
					}
					it.unpackTo(c.Vars[0].Pos(), targets, v, local)
				}
				run(i + 1)
				return true
			})
		})
	}
	run(0)
	if dict != nil {
		return dict
	}
	return NewList(out)
}

// contains reports whether x is in container y: an element of a list or
// tuple, a key of a dict, a substring of a string, a value of a range.
func (it *Interp) contains(pos lang.Pos, x, y Value) bool {
	switch c := y.(type) {
	case *List:
		return containsValue(c.elems, x)
	case Tuple:
		return containsValue(c, x)
	case *Dict:
		k, ok := x.(String)
		if !ok {
			return false
		}
		_, has := c.Get(string(k))
		return has
	case String:
		s, ok := x.(String)
		if !ok {
			it.failf(pos, "'in <string>' needs a string on the left, got %s", x.Type())
		}
		return strings.Contains(string(c), string(s))
	case *Range:
		n, ok := toInt(x)
		if f, isF := x.(Float); isF && float64(int64(f)) == float64(f) {
			n, ok = int64(f), true
		}
		if !ok {
			return false
		}
		return c.has(n)
	case *TensorValue:
		// As torch: x in t is (t == x).any().
		o, ok := scalarOperand(x)
		if !ok {
			it.failf(pos, "'in <tensor>' needs a tensor or a number on the left, got %s", x.Type())
		}
		var found bool
		if c.t.Numel() == 0 {
			return false
		}
		it.guard(pos, func() { found = c.t.Eq(o).Max(nil, false).Item() != 0 })
		return found
	}
	it.failf(pos, "argument of type %s is not a container", y.Type())
	return false
}

func containsValue(elems []Value, x Value) bool {
	for _, e := range elems {
		if equal(e, x) {
			return true
		}
	}
	return false
}

// has reports whether n is one of r's values.
func (r *Range) has(n int64) bool {
	if r.count() == 0 {
		return false
	}
	if r.step > 0 && (n < r.start || n >= r.stop) || r.step < 0 && (n > r.start || n <= r.stop) {
		return false
	}
	d := uint64(n - r.start)
	if r.step < 0 {
		d = uint64(r.start - n)
		return d%(-uint64(r.step)) == 0
	}
	return d%uint64(r.step) == 0
}
