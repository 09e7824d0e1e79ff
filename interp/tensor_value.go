package interp

import (
	"fmt"

	"tiny/lang"
	"tiny/tensor"
)

// TensorValue is a tensor of package tensor as a script value.
type TensorValue struct {
	t *tensor.Tensor
}

// NewTensorValue wraps a tensor.
func NewTensorValue(t *tensor.Tensor) *TensorValue { return &TensorValue{t} }

// Tensor returns the wrapped tensor.
func (v *TensorValue) Tensor() *tensor.Tensor { return v.t }

// String returns the NumPy-style print form; it realizes the tensor.
func (v *TensorValue) String() string { return v.t.String() }
func (*TensorValue) Type() string     { return "tensor" }

// Len returns the size of the first axis.
func (v *TensorValue) Len() int {
	if v.t.Ndim() == 0 {
		panic(&tensor.Error{Msg: "len() of a 0-d tensor"})
	}
	return v.t.Shape()[0]
}

// At returns t[i] along the first axis.
func (v *TensorValue) At(i int) Value {
	return &TensorValue{selectFirst(v.t, i)}
}

// Iterate yields the slices along the first axis.
func (v *TensorValue) Iterate(yield func(Value) bool) {
	n := v.Len()
	for i := 0; i < n; i++ {
		if !yield(v.At(i)) {
			return
		}
	}
}

func selectFirst(t *tensor.Tensor, i int) *tensor.Tensor {
	shp := t.Shape()
	p := make([][2]int, len(shp))
	for k, d := range shp {
		p[k] = [2]int{0, d}
	}
	p[0] = [2]int{i, i + 1}
	return t.Shrink(p).Reshape(shp[1:]...)
}

// scalarOperand returns v as an operand of a tensor op: the tensor, or a Go
// scalar; ok is false for other values.
func scalarOperand(v Value) (any, bool) {
	switch x := v.(type) {
	case *TensorValue:
		return x.t, true
	case Int:
		return int64(x), true
	case Uint:
		// An int past int64 (up to 2**64-1) is an operand as any int is:
		// 18446744073709551615 == a uint64 tensor compares elementwise.
		return uint64(x), true
	case Float:
		return float64(x), true
	case Bool:
		return bool(x), true
	}
	return nil, false
}

// Binary implements the operators on tensors, elementwise with broadcasting.
func (v *TensorValue) Binary(op string, y Value, right bool) (Value, error) {
	o, ok := scalarOperand(y)
	if !ok {
		return nil, nil
	}
	t := v.t
	if yt, isT := o.(*tensor.Tensor); isT && right {
		// Both are tensors; the left one handles it.
		t, o, right = yt, v.t, false
	}
	var r *tensor.Tensor
	switch op {
	case "+":
		r = t.Add(o)
	case "-":
		r = pick(right, t.RSub, t.Sub)(o)
	case "*":
		r = t.Mul(o)
	case "/":
		r = pick(right, t.RDiv, t.Div)(o)
	case "//":
		r = pick(right, t.RFloorDiv, t.FloorDiv)(o)
	case "%":
		r = pick(right, t.RMod, t.Mod)(o)
	case "**":
		r = pick(right, t.RPow, t.Pow)(o)
	case "<":
		r = pick(right, t.Gt, t.Lt)(o)
	case ">":
		r = pick(right, t.Lt, t.Gt)(o)
	case "<=":
		r = pick(right, t.Ge, t.Le)(o)
	case ">=":
		r = pick(right, t.Le, t.Ge)(o)
	case "==":
		r = t.Eq(o)
	case "!=":
		r = t.Ne(o)
	case "&":
		r = t.BitwiseAnd(o)
	case "|":
		r = t.BitwiseOr(o)
	case "^":
		r = t.BitwiseXor(o)
	case "<<", ">>":
		n, isInt := toInt(y)
		if right || !isInt {
			l, r := "tensor", y.Type()
			if right {
				l, r = r, l
			}
			return nil, fmt.Errorf("unsupported operand types for %s: %s and %s (a tensor shifts by an int)", op, l, r)
		}
		if op == "<<" {
			r = t.Lshift(n)
		} else {
			r = t.Rshift(n)
		}
	case "@":
		w, ok := o.(*tensor.Tensor)
		if !ok {
			return nil, fmt.Errorf("unsupported operand types for @: tensor and %s", y.Type())
		}
		r = t.Matmul(w)
	default:
		return nil, nil
	}
	return &TensorValue{r}, nil
}

func pick(right bool, r, l func(any) *tensor.Tensor) func(any) *tensor.Tensor {
	if right {
		return r
	}
	return l
}

func (it *Interp) tensorTruth(pos lang.Pos, v *TensorValue) bool {
	n := v.t.Numel()
	if n != 1 {
		it.failf(pos, "the truth value of a tensor with %d elements is ambiguous", n)
	}
	var b bool
	it.guard(pos, func() { b = v.t.Item() != 0 })
	return b
}

// DType is a tensor element type as a value: float32, int32, bool, ...
type DType struct {
	d tensor.DType
}

func (d DType) String() string { return d.d.String() }
func (DType) Type() string     { return "dtype" }

// dtypes are the dtype names the language binds.
var dtypes = map[string]tensor.DType{
	"bool": tensor.Bool, "uint8": tensor.Uint8, "int32": tensor.Int32, "int64": tensor.Int64,
	"int8": tensor.Int8, "int16": tensor.Int16, "uint16": tensor.Uint16, "uint32": tensor.Uint32,
	"uint64":  tensor.Uint64,
	"float16": tensor.Float16, "float32": tensor.Float32, "float64": tensor.Float64,
	"half": tensor.Float16, "double": tensor.Float64,
}

// Name returns the dtype's name.
func (d DType) Name() string { return d.d.String() }

// call converts a value: bool(x) is x's truth; other dtypes cast a tensor or
// convert a number.
func (d DType) call(it *Interp, pos lang.Pos, args []Value, kw []kwarg) Value {
	c := &call{name: d.Name(), pos: pos, args: args, kw: kw}
	var x Value
	it.unpack(c, "x", &x)
	if t, ok := x.(*TensorValue); ok {
		var out Value
		it.guard(pos, func() { out = &TensorValue{t.t.Cast(d.d)} })
		return out
	}
	switch {
	case d.d == tensor.Bool:
		return Bool(it.truth(pos, x))
	case d.d.IsInt():
		return it.toIntValue(c, x)
	}
	return it.toFloatValue(c, x)
}

func tensorShape(t *TensorValue) string { return tensor.FormatShape(t.t.Shape()) }
