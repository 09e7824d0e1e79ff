package interp

import (
	"fmt"
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

func (it *Interp) fromGo(v any) (Value, error) {
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
		return Int(x), nil
	case uint64:
		return Int(x), nil
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
			if out[i], err = it.fromGo(e); err != nil {
				return nil, err
			}
		}
		return NewList(out), nil
	case map[string]any:
		d := NewDict()
		for _, k := range sortedKeys(x) {
			e, err := it.fromGo(x[k])
			if err != nil {
				return nil, err
			}
			d.Set(k, e)
		}
		return d, nil
	}
	return nil, fmt.Errorf("interp: cannot convert %T to a value", v)
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
	case float64:
		if d != tensor.Float64 {
			if f, err := strconv.ParseFloat(tensor.FormatFloat(l, d), 64); err == nil {
				return Float(f)
			}
		}
		return Float(l)
	case []any:
		out := make([]Value, len(l))
		for i, e := range l {
			out[i] = fromLeaf(e, d)
		}
		return NewList(out)
	}
	return None
}

// widen copies Go ints of any width into the int64s the tensor package takes.
func widen[T ~int | ~int32](d []T) []int64 {
	n := make([]int64, len(d))
	for i, x := range d {
		n[i] = int64(x)
	}
	return n
}
