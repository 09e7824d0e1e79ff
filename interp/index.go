package interp

import (
	"strings"

	"tiny/lang"
)

// runes is a string as a sequence of characters.
type runes []rune

func (r runes) String() string                 { return quote(string(r)) }
func (runes) Type() string                     { return "string" }
func (r runes) Len() int                       { return len(r) }
func (r runes) At(i int) Value                 { return String(string(r[i])) }
func (r runes) Iterate(yield func(Value) bool) {}

// This file defines indexing and slicing of strings, lists, tuples, ranges
// and dicts, and index assignment. Tensors index in index_tensor.go.

func (it *Interp) index(pos lang.Pos, x Value, idx []Value) Value {
	if t, ok := x.(*TensorValue); ok {
		var out Value
		it.guard(pos, func() { out = it.indexTensor(pos, t, idx) })
		return out
	}
	if d, ok := x.(*Dict); ok {
		k := it.dictKey(pos, idx)
		v, ok := d.m[k]
		if !ok {
			it.failf(pos, "key %s not in dict", quote(k))
		}
		return v
	}
	seq, ok := x.(Sequence)
	if !ok {
		it.failf(pos, "cannot index %s", x.Type())
	}
	if s, ok := x.(String); ok {
		seq = runes([]rune(string(s))) // index by character in O(1)
	}
	if len(idx) != 1 {
		it.failf(pos, "%s indices must be a single int or slice, got %d indices", x.Type(), len(idx))
	}
	switch i := idx[0].(type) {
	case sliceVal:
		start, _, step, n := it.sliceIndices(pos, i, seq.Len())
		vals := make([]Value, n)
		for k := range vals {
			vals[k] = seq.At(start + k*step)
		}
		switch x.(type) {
		case String:
			var b strings.Builder
			for _, v := range vals {
				b.WriteString(string(v.(String)))
			}
			return String(b.String())
		case Tuple:
			return Tuple(vals)
		}
		return NewList(vals)
	default:
		if r, ok := x.(*Range); ok {
			// By the exact count, so that indexing works on a range too
			// long for Len, as in Python.
			k, ok := toInt(i)
			if !ok {
				it.failf(pos, "range indices must be ints or slices, got %s", i.Type())
			}
			v, ok := r.index(k)
			if !ok {
				it.failf(pos, "index %s out of range for range of length %d", i.String(), r.count())
			}
			return v
		}
		return seq.At(it.seqIndex(pos, x, i, seq.Len()))
	}
}

func (it *Interp) dictKey(pos lang.Pos, idx []Value) string {
	if len(idx) != 1 {
		it.failf(pos, "dict keys must be strings")
	}
	k, ok := idx[0].(String)
	if !ok {
		it.failf(pos, "dict keys must be strings, got %s", idx[0].Type())
	}
	return string(k)
}

// seqIndex resolves an int index (negative from the end) into [0, n).
func (it *Interp) seqIndex(pos lang.Pos, x, i Value, n int) int {
	k, ok := toInt(i)
	if !ok {
		it.failf(pos, "%s indices must be ints or slices, got %s", x.Type(), i.Type())
	}
	if k < 0 {
		k += int64(n)
	}
	if k < 0 || k >= int64(n) {
		it.failf(pos, "index %s out of range for %s of length %d", i.String(), x.Type(), n)
	}
	return int(k)
}

// sliceIndices resolves lo:hi:step against length n as Python's
// slice.indices does and returns the start, stop, step and element count.
func (it *Interp) sliceIndices(pos lang.Pos, s sliceVal, n int) (start, stop, step, count int) {
	step = 1
	if s.step != None {
		k, ok := toInt(s.step)
		if !ok {
			it.failf(pos, "slice step must be an int, got %s", s.step.Type())
		}
		if k == 0 {
			it.failf(pos, "slice step cannot be zero")
		}
		step = int(max(min(k, 1<<40), -1<<40))
	}
	bound := func(v Value, def int) int {
		if v == None {
			return def
		}
		k, ok := toInt(v)
		if !ok {
			it.failf(pos, "slice indices must be ints, got %s", v.Type())
		}
		k = max(min(k, 1<<40), -1<<40)
		if k < 0 {
			k += int64(n)
		}
		lo, hi := int64(0), int64(n)
		if step < 0 {
			lo, hi = -1, int64(n-1)
		}
		return int(max(lo, min(k, hi)))
	}
	if step > 0 {
		start, stop = bound(s.lo, 0), bound(s.hi, n)
		if stop > start {
			count = (stop - start + step - 1) / step
		}
	} else {
		start, stop = bound(s.lo, n-1), bound(s.hi, -1)
		if start > stop {
			count = (start - stop - step - 1) / -step
		}
	}
	return start, stop, step, count
}

func (it *Interp) setIndex(pos lang.Pos, x Value, idx []Value, v Value) {
	switch c := x.(type) {
	case *List:
		if len(idx) != 1 {
			it.failf(pos, "list indices must be a single int")
		}
		if sl, ok := idx[0].(sliceVal); ok {
			it.setSlice(pos, c, sl, v)
			return
		}
		c.elems[it.seqIndex(pos, x, idx[0], len(c.elems))] = v
	case *Dict:
		c.Set(it.dictKey(pos, idx), v)
	case *TensorValue:
		it.setIndexTensor(pos, c, idx, v)
	default:
		it.failf(pos, "cannot assign to an element of %s", x.Type())
	}
}

// setSlice implements l[lo:hi] = items (step 1 only): the slice is
// replaced by the items, which may differ in number.
func (it *Interp) setSlice(pos lang.Pos, l *List, sl sliceVal, v Value) {
	start, stop, step, _ := it.sliceIndices(pos, sl, len(l.elems))
	if step != 1 {
		it.failf(pos, "cannot assign to a list slice with a step")
	}
	seq, ok := v.(Sequence)
	if !ok {
		it.failf(pos, "can only assign a sequence to a list slice, got %s", v.Type())
	}
	items := make([]Value, seq.Len())
	for i := range items {
		items[i] = seq.At(i)
	}
	stop = max(stop, start)
	rest := append(items, l.elems[stop:]...)
	l.elems = append(l.elems[:start:start], rest...)
}
