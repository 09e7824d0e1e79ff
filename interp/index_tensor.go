package interp

import (
	"tiny/lang"
	"tiny/tensor"
)

// indexTensor implements t[...] with tensor.Index: ints pick (and drop) an
// axis, slices with any step keep it, none inserts a new axis of size 1,
// ... stands for the axes not otherwise named, and integer tensors, lists
// and tuples of ints index an axis by position (tinygrad's and torch's
// advanced indexing: one gather kernel).
func (it *Interp) indexTensor(pos lang.Pos, v *TensorValue, idx []Value) Value {
	return &TensorValue{v.t.Index(it.indexItems(pos, idx)...)}
}

// indexItems converts the values between brackets into index items. A
// single tuple stands for its elements, as in Python (t[(0, 1)] is t[0, 1]),
// and so does a single list holding anything but ints, as in tinygrad and
// torch (t[[i, 1]] is t[i, 1], t[[0, 1]] indexes axis 0 by a tensor).
func (it *Interp) indexItems(pos lang.Pos, idx []Value) []tensor.IndexItem {
	if len(idx) == 1 {
		switch l := idx[0].(type) {
		case Tuple:
			idx = l
		case *List:
			if !allInts(l.elems) {
				idx = l.elems
			}
		}
	}
	items := make([]tensor.IndexItem, len(idx))
	for i, x := range idx {
		switch s := x.(type) {
		case NoneType:
			items[i] = tensor.NewAxis
		case ellipsisVal:
			items[i] = tensor.Ellipsis
		case sliceVal:
			step := 1
			if s.step != None {
				step = int(it.indexInt(pos, s.step))
			}
			items[i] = tensor.Slice(it.optIndex(pos, s.lo), it.optIndex(pos, s.hi), step)
		case *TensorValue:
			items[i] = tensor.TensorIndex(s.t)
		case *List, Tuple:
			c := &call{name: "index", pos: pos}
			items[i] = tensor.TensorIndex(it.engine().FromData(it.nestedGo(c, x, 0)))
		case Bool:
			// NumPy reads t[True] as a new axis of length 1 (0 for False),
			// not as t[1]; rather than silently differ, refuse it.
			it.failf(pos, "index: bool index not supported (use 1 or 0 for an int, none for a new axis)")
		default:
			items[i] = tensor.Int(int(it.indexInt(pos, x)))
		}
	}
	return items
}

// setIndexTensor implements t[...] = v as tinygrad's __setitem__: the
// tensor value now holds t with the selected positions replaced (every name
// bound to it sees the change, as tinygrad's assign does).
func (it *Interp) setIndexTensor(pos lang.Pos, tv *TensorValue, idx []Value, v Value) {
	it.guard(pos, func() {
		items := it.indexItems(pos, idx)
		var val *tensor.Tensor
		switch x := v.(type) {
		case *TensorValue:
			val = x.t
		case Int, Float, Bool:
			f, _ := toFloat(x)
			if b, ok := x.(Bool); ok && bool(b) {
				f = 1
			}
			// As data, not a constant folded into the kernel: setting
			// t[i] = i in a loop then compiles one kernel.
			val = it.engine().FromFloats([]float64{f}, []int{}, tv.t.DType())
		default:
			it.failf(pos, "can't set a %s to a tensor", v.Type())
		}
		tv.t = tv.t.SetIndex(items, val)
	})
}

func (it *Interp) indexInt(pos lang.Pos, v Value) int64 {
	i, ok := toInt(v)
	if !ok {
		it.failf(pos, "tensor indices must be ints, slices, none, ..., or integer tensors, got %s", v.Type())
	}
	return max(min(i, 1<<40), -1<<40)
}

func (it *Interp) optIndex(pos lang.Pos, v Value) any {
	if v == None {
		return nil
	}
	return int(it.indexInt(pos, v))
}

// allInts reports whether every value is an int (or a bool, which is one in
// Python); true for none.
func allInts(vs []Value) bool {
	for _, v := range vs {
		switch v.(type) {
		case Int, Uint, Bool:
		default:
			return false
		}
	}
	return true
}
