package interp

import (
	"fmt"
	"math"
	"strconv"

	"tiny/tensor"
)

// This file converts values between Go and the language.

// TensorData is tensor data in Go form: Data is a []float32, []float64,
// []int32, []int64 or []bool (SetGlobal also takes []int, as int32)
// holding the elements row-major, and Shape the
// dims (nil means a 1-D tensor of len(Data)). DType is the element type's
// name ("float32"); Global fills it, SetGlobal ignores it.
type TensorData struct {
	Data  any
	Shape []int
	DType string
}

// Tensor returns tensor data for SetGlobal: interp.Tensor([]float32{1, 2, 3, 4}, 2, 2).
func Tensor(data any, shape ...int) TensorData { return TensorData{Data: data, Shape: shape} }

func (it *Interp) fromGo(v any) (Value, error) { return it.fromGoDepth(v, 0) }

// fromGoDepth converts v, nested d deep. A value nested past maxNesting (a
// slice or map that holds itself) is an error, not a stack overflow.
func (it *Interp) fromGoDepth(v any, d int) (Value, error) {
	if d > maxNesting {
		return nil, fmt.Errorf("interp: value nested more than %d deep (does it contain itself?)", maxNesting)
	}
	switch x := v.(type) {
	case nil:
		return None, nil
	case Value:
		return x, nil
	case bool:
		return Bool(x), nil
	case int:
		return Int(x), nil
	case int8:
		return Int(x), nil
	case int16:
		return Int(x), nil
	case int32:
		return Int(x), nil
	case int64:
		return Int(x), nil
	case uint8:
		return Int(x), nil
	case uint16:
		return Int(x), nil
	case uint32:
		return Int(x), nil
	case uint:
		return fromUint(uint64(x))
	case uint64:
		return fromUint(x)
	case float32:
		return Float(x), nil
	case float64:
		return Float(x), nil
	case string:
		return String(x), nil
	case *tensor.Tensor:
		return &TensorValue{x}, nil
	case TensorData:
		return it.tensorFromGo(x)
	case []float32, []float64, []int32, []int64, []bool, []int:
		return it.tensorFromGo(TensorData{Data: x})
	case []any:
		out := make([]Value, len(x))
		for i, e := range x {
			var err error
			if out[i], err = it.fromGoDepth(e, d+1); err != nil {
				return nil, err
			}
		}
		return NewList(out), nil
	case map[string]any:
		dict := NewDict()
		for _, k := range sortedKeys(x) {
			e, err := it.fromGoDepth(x[k], d+1)
			if err != nil {
				return nil, err
			}
			dict.Set(k, e)
		}
		return dict, nil
	}
	return nil, fmt.Errorf("interp: cannot convert %T to a value", v)
}

// fromUint converts an unsigned int, which must fit an int64.
func fromUint(x uint64) (Value, error) {
	if x > math.MaxInt64 {
		return nil, fmt.Errorf("interp: %d does not fit an int (int64)", x)
	}
	return Int(x), nil
}

func (it *Interp) tensorFromGo(td TensorData) (Value, error) {
	var t *tensor.Tensor
	err := tensor.Catch(func() {
		e := it.engine()
		switch d := td.Data.(type) {
		case []float32:
			f := make([]float64, len(d))
			for i, x := range d {
				f[i] = float64(x)
			}
			t = e.FromFloats(f, shapeOr(td.Shape, len(d)), tensor.Float32)
		case []float64:
			t = e.FromFloats(d, shapeOr(td.Shape, len(d)), tensor.Float64)
		case []int32:
			t = e.FromInts(widen(d), shapeOr(td.Shape, len(d)), tensor.Int32)
		case []int64:
			t = e.FromInts(d, shapeOr(td.Shape, len(d)), tensor.Int64)
		case []int:
			t = e.FromInts(widen(d), shapeOr(td.Shape, len(d)), tensor.Int32)
		case []bool:
			t = e.FromBools(d, shapeOr(td.Shape, len(d)), tensor.Bool)
		default:
			panic(&tensor.Error{Msg: fmt.Sprintf("interp: cannot make a tensor from %T", td.Data)})
		}
	})
	if err != nil {
		return nil, err
	}
	return &TensorValue{t}, nil
}

func shapeOr(shape []int, n int) []int {
	if shape == nil {
		return []int{n}
	}
	return shape
}

// toGo converts v to Go form; see Interp.Global.
func toGo(v Value) any { return toGoDepth(v, 0) }

func toGoDepth(v Value, d int) any {
	if d > maxNesting {
		return nil
	}
	switch x := v.(type) {
	case NoneType:
		return nil
	case Bool:
		return bool(x)
	case Int:
		return int64(x)
	case Uint:
		return uint64(x)
	case Float:
		return float64(x)
	case String:
		return string(x)
	case Tuple:
		return toGoSlice(x, d)
	case *List:
		return toGoSlice(x.elems, d)
	case *Dict:
		m := make(map[string]any, len(x.keys))
		for _, k := range x.keys {
			m[k] = toGoDepth(x.m[k], d+1)
		}
		return m
	case *TensorValue:
		return tensorToGo(x.t)
	}
	return v
}

func toGoSlice(vs []Value, d int) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = toGoDepth(v, d+1)
	}
	return out
}

func tensorToGo(t *tensor.Tensor) TensorData {
	td := TensorData{Shape: t.Shape(), DType: t.DType().String()}
	switch d := t.DType(); {
	case d == tensor.Bool:
		td.Data = t.Bools()
	case d == tensor.Int64:
		td.Data = t.Ints()
	case d.IsInt():
		ints := t.Ints()
		out := make([]int32, len(ints))
		for i, x := range ints {
			out[i] = int32(x)
		}
		td.Data = out
	case d == tensor.Float64:
		td.Data = t.Floats()
	default:
		fs := t.Floats()
		out := make([]float32, len(fs))
		for i, x := range fs {
			out[i] = float32(x)
		}
		td.Data = out
	}
	return td
}

// itemValue returns a one-element tensor's value as a bool, int or float.
func itemValue(v *TensorValue) Value {
	return fromLeaf(v.t.Value(), v.t.DType())
}

// fromLeaf converts ToList's nested data. Floats of a narrower dtype become
// the float64 nearest their shortest decimal form in that dtype, so that a
// float32 0.1 prints as 0.1, not 0.10000000149011612.
func fromLeaf(x any, d tensor.DType) Value {
	switch l := x.(type) {
	case bool:
		return Bool(l)
	case int64:
		return Int(l)
	case uint64:
		if l > math.MaxInt64 {
			return Uint(l)
		}
		return Int(l)
	case float64:
		return Float(narrowValue(l, d))
	case []any:
		out := make([]Value, len(l))
		for i, e := range l {
			out[i] = fromLeaf(e, d)
		}
		return NewList(out)
	}
	return None
}

// toList returns t's values as nested lists, like fromLeaf(t.ToList()) but
// without boxing every element twice: a million floats take 70 ms, not 600.
func toList(t *tensor.Tensor) Value {
	d := t.DType()
	var leaf func(i int) Value
	switch {
	case d == tensor.Bool:
		bs := t.Bools()
		leaf = func(i int) Value { return Bool(bs[i]) }
	case d == tensor.Uint64:
		is := t.Ints()
		leaf = func(i int) Value { return fromLeaf(uint64(is[i]), d) }
	case d.IsInt():
		is := t.Ints()
		leaf = func(i int) Value { return Int(is[i]) }
	default:
		fs := t.Floats()
		leaf = func(i int) Value { return Float(narrowValue(fs[i], d)) }
	}
	shp := t.Shape()
	var nest func(axis, off int) Value
	nest = func(axis, off int) Value {
		if axis == len(shp) {
			return leaf(off)
		}
		step := 1
		for _, n := range shp[axis+1:] {
			step *= n
		}
		out := make([]Value, shp[axis])
		for i := range out {
			out[i] = nest(axis+1, off+i*step)
		}
		return NewList(out)
	}
	return nest(0, 0)
}

// narrowValue returns the float64 nearest the shortest decimal that names
// x as a float32 (x itself for float64).
func narrowValue(x float64, d tensor.DType) float64 {
	if d == tensor.Float64 || x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	if d != tensor.Float64 {
		// float16 (and any narrower float) narrows as float32 does: its
		// values are float32 values, and the float16 shortest form would
		// change them (65504 is "65500" in float16, which reads back as
		// 65504 only through float16).
		var buf [32]byte
		b := strconv.AppendFloat(buf[:0], x, 'e', -1, 32)
		if v, ok := parseShort(b); ok {
			return v
		}
		if f, err := strconv.ParseFloat(string(b), 64); err == nil {
			return f
		}
		return x
	}
	return x
}

// pow10 holds the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseShort parses a number in strconv's 'e' form ("-1.2345e-07") when it
// has at most 15 digits and its power of ten is exact in float64: one
// multiplication or division of exact operands then rounds correctly
// (Clinger's fast path). It reports false for anything else.
func parseShort(b []byte) (float64, bool) {
	i, neg := 0, false
	if len(b) > 0 && b[0] == '-' {
		i, neg = 1, true
	}
	var m uint64
	nd := 0
	for ; i < len(b) && b[i] != 'e'; i++ {
		if b[i] == '.' {
			continue
		}
		if b[i] < '0' || b[i] > '9' {
			return 0, false
		}
		m = m*10 + uint64(b[i]-'0')
		nd++
	}
	if i+2 >= len(b) || nd == 0 || nd > 15 {
		return 0, false
	}
	i++
	sign := 1
	switch b[i] {
	case '-':
		sign = -1
		i++
	case '+':
		i++
	}
	exp := 0
	for ; i < len(b); i++ {
		if b[i] < '0' || b[i] > '9' {
			return 0, false
		}
		exp = exp*10 + int(b[i]-'0')
	}
	e := sign*exp - (nd - 1)
	v := float64(m)
	switch {
	case e >= 0 && e < len(pow10):
		v *= pow10[e]
	case e < 0 && -e < len(pow10):
		v /= pow10[-e]
	default:
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// widen copies Go ints of any width into the int64s the tensor package takes.
func widen[T ~int | ~int32](d []T) []int64 {
	n := make([]int64, len(d))
	for i, x := range d {
		n[i] = int64(x)
	}
	return n
}
