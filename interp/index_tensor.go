package interp

import (
	"tiny/lang"
	"tiny/tensor"
)

// indexTensor implements t[...] with tensor.Index: ints pick (and drop) an
// axis, slices with any step keep it, none inserts a new axis of size 1,
// and ... stands for the axes not otherwise named. No data moves.
func (it *Interp) indexTensor(pos lang.Pos, v *TensorValue, idx []Value) Value {
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
			it.failf(pos, "indexing a tensor by a tensor is not supported yet")
		case Bool:
			// NumPy reads t[True] as a new axis of length 1 (0 for False),
			// not as t[1]; rather than silently differ, refuse it.
			it.failf(pos, "index: bool index not supported (use 1 or 0 for an int, none for a new axis)")
		default:
			items[i] = tensor.Int(int(it.indexInt(pos, x)))
		}
	}
	return &TensorValue{v.t.Index(items...)}
}

func (it *Interp) indexInt(pos lang.Pos, v Value) int64 {
	i, ok := toInt(v)
	if !ok {
		it.failf(pos, "tensor indices must be ints, slices, none or ..., got %s", v.Type())
	}
	return max(min(i, 1<<40), -1<<40)
}

func (it *Interp) optIndex(pos lang.Pos, v Value) any {
	if v == None {
		return nil
	}
	return int(it.indexInt(pos, v))
}
