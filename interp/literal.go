package interp

import (
	"slices"
	"tiny/lang"
	"tiny/tensor"
)

// This file defines bracket literals: [1, 2] is a tensor, [w, b] a list.

// tdata is the data of a bracket literal that can be a tensor.
type tdata struct {
	shape   []int
	leaves  []Value // Int, Float or Bool, row-major
	isFloat bool
	allBool bool
}

// rawBracket evaluates a bracket literal as nested lists, without making a
// tensor of it, so that tensor(literal, dtype=d) converts each number once,
// straight to d.
func (it *Interp) rawBracket(x *lang.ListLit, env *scope) Value {
	out := make([]Value, len(x.Elems))
	for i, e := range x.Elems {
		if l, ok := e.(*lang.ListLit); ok {
			out[i] = it.rawBracket(l, env)
		} else {
			out[i] = it.eval(e, env)
		}
	}
	return NewList(out)
}

// bracket evaluates a bracket literal: a tensor when every element is a
// number or bool, or a nested bracket literal of one shape; else a list.
func (it *Interp) bracket(x *lang.ListLit, env *scope) Value {
	d, vals := it.bracketData(x, env)
	if d != nil {
		return it.tensorFromData(x.Start, d)
	}
	return NewList(vals)
}

// bracketData returns the literal's tensor data, or nil and its elements as
// values when it is a list.
func (it *Interp) bracketData(x *lang.ListLit, env *scope) (*tdata, []Value) {
	if len(x.Elems) == 0 {
		return nil, []Value{}
	}
	d := &tdata{allBool: true}
	subs := make([]*tdata, len(x.Elems))
	vals := make([]Value, len(x.Elems))
	scalars, nested := 0, 0
	for i, e := range x.Elems {
		if l, isLit := e.(*lang.ListLit); isLit {
			var elems []Value
			subs[i], elems = it.bracketData(l, env)
			if subs[i] == nil {
				vals[i] = NewList(elems)
			} else if subs[0] != nil && slices.Equal(subs[i].shape, subs[0].shape) {
				nested++
			}
			continue
		}
		vals[i] = it.eval(e, env)
		switch v := vals[i].(type) {
		case Int, Uint, Float, Bool:
			scalars++
			_, isF := v.(Float)
			_, isB := v.(Bool)
			d.isFloat = d.isFloat || isF
			d.allBool = d.allBool && isB
		}
	}
	ok := scalars == len(vals) || nested == len(vals)
	if !ok {
		for i, s := range subs {
			if s != nil {
				vals[i] = it.tensorFromData(x.Elems[i].Pos(), s)
			}
		}
		return nil, vals
	}
	if subs[0] == nil {
		d.shape = []int{len(vals)}
		d.leaves = vals
		return d, nil
	}
	d.shape = append([]int{len(subs)}, subs[0].shape...)
	for _, s := range subs {
		d.leaves = append(d.leaves, s.leaves...)
		d.isFloat = d.isFloat || s.isFloat
		d.allBool = d.allBool && s.allBool
	}
	return d, nil
}

func (it *Interp) tensorFromData(pos lang.Pos, d *tdata) *TensorValue {
	var t *tensor.Tensor
	it.guard(pos, func() {
		e := it.engine()
		switch {
		case d.allBool:
			bs := make([]bool, len(d.leaves))
			for i, v := range d.leaves {
				bs[i] = bool(v.(Bool))
			}
			t = e.FromBools(bs, d.shape, tensor.Bool)
		case d.isFloat:
			fs := make([]float64, len(d.leaves))
			for i, v := range d.leaves {
				fs[i], _ = toFloat(v)
			}
			t = e.FromFloats(fs, d.shape, tensor.Float32)
		case slices.ContainsFunc(d.leaves, isUint):
			// an int past int64: uint64 (FromData refuses a negative one)
			gs := make([]any, len(d.leaves))
			for i, v := range d.leaves {
				gs[i] = toGo(v)
			}
			t = e.FromData(gs).Reshape(d.shape...)
		default:
			// ints give int32, or int64 when one does not fit: never a wrap.
			is := make([]int64, len(d.leaves))
			dt := tensor.Int32
			for i, v := range d.leaves {
				is[i], _ = toInt(v)
				if is[i] != int64(int32(is[i])) {
					dt = tensor.Int64
				}
			}
			t = e.FromInts(is, d.shape, dt)
		}
	})
	return &TensorValue{t}
}
