package interp

import (
	"tiny/codegen"
	"tiny/tensor"
)

// This file defines the attributes and methods of tensors. Names mirror
// tinygrad's; dim= and axis= are the same keyword everywhere.

// tensorAttrs are the attributes that are not methods.
var tensorAttrs = []string{"shape", "dtype", "T", "ndim", "device", "shapetracker", "requires_grad", "grad"}

// Attr returns an attribute of the tensor, or nil for a method name.
func (v *TensorValue) Attr(name string) (Value, error) {
	t := v.t
	switch name {
	case "shape":
		return intsTuple(t.Shape()), nil
	case "dtype":
		return DType{t.DType()}, nil
	case "T":
		return &TensorValue{t.T()}, nil
	case "ndim":
		return Int(t.Ndim()), nil
	case "device":
		return String(t.Device()), nil
	case "shapetracker":
		return &Tracker{t.ShapeTracker()}, nil
	case "requires_grad":
		if !t.RequiresGradSet() {
			return None, nil
		}
		return Bool(t.RequiresGrad()), nil
	case "grad":
		if g := t.Grad(); g != nil {
			return &TensorValue{g}, nil
		}
		return None, nil
	}
	return nil, nil
}

// AttrNames returns the attributes (methods are listed by the method table).
func (v *TensorValue) AttrNames() []string { return tensorAttrs }

func intsTuple(xs []int) Tuple {
	out := make(Tuple, len(xs))
	for i, x := range xs {
		out[i] = Int(x)
	}
	return out
}

func tv(t *tensor.Tensor) Value { return &TensorValue{t} }

func recvT(r Value) *tensor.Tensor { return r.(*TensorValue).t }

// unaryMethod makes a method with no arguments from a tensor method.
func unaryMethod(f func(*tensor.Tensor) *tensor.Tensor) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		it.unpack(c)
		return tv(f(recvT(r)))
	}
}

// binaryMethod makes a one-operand method (maximum, add, ...).
func binaryMethod(f func(t *tensor.Tensor, y any) *tensor.Tensor) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		var y Value
		it.unpack(c, "x", &y)
		return tv(f(recvT(r), it.operand(c, y)))
	}
}

// reduceMethod makes sum, max, ... with axis= (int, tuple or none) and keepdim=.
func reduceMethod(f func(t *tensor.Tensor, axes []int, keepdim bool) *tensor.Tensor) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		var axis Value = None
		keepdim := false
		it.unpack(c, "axis|dim?", &axis, "keepdim?", &keepdim)
		return tv(f(recvT(r), it.axesArg(c, axis), keepdim))
	}
}

// axesArg reads an axis argument: none (all), an int or a tuple of ints.
func (it *Interp) axesArg(c *call, v Value) []int {
	if v == None {
		return nil
	}
	ints, ok := intsOf(v)
	if !ok {
		it.failf(c.pos, "%s: axis must be an int or a tuple of ints, got %s", c.name, v.Type())
	}
	if ints == nil {
		ints = []int{}
	}
	return ints
}

func init() {
	m := map[string]methodFn{
		"neg": unaryMethod((*tensor.Tensor).Neg), "exp": unaryMethod((*tensor.Tensor).Exp),
		"log": unaryMethod((*tensor.Tensor).Log), "exp2": unaryMethod((*tensor.Tensor).Exp2),
		"log2": unaryMethod((*tensor.Tensor).Log2), "sqrt": unaryMethod((*tensor.Tensor).Sqrt),
		"rsqrt": unaryMethod((*tensor.Tensor).Rsqrt), "sin": unaryMethod((*tensor.Tensor).Sin),
		"cos": unaryMethod((*tensor.Tensor).Cos), "tan": unaryMethod((*tensor.Tensor).Tan),
		"abs": unaryMethod((*tensor.Tensor).Abs), "sign": unaryMethod((*tensor.Tensor).Sign),
		"relu": unaryMethod((*tensor.Tensor).Relu), "sigmoid": unaryMethod((*tensor.Tensor).Sigmoid),
		"tanh": unaryMethod((*tensor.Tensor).Tanh), "gelu": unaryMethod((*tensor.Tensor).Gelu),
		"square": unaryMethod((*tensor.Tensor).Square), "reciprocal": unaryMethod((*tensor.Tensor).Reciprocal),
		"floor": unaryMethod((*tensor.Tensor).Floor), "ceil": unaryMethod((*tensor.Tensor).Ceil),
		"round": unaryMethod((*tensor.Tensor).Round), "trunc": unaryMethod((*tensor.Tensor).Trunc),
		"float": unaryMethod((*tensor.Tensor).Float), "int": unaryMethod((*tensor.Tensor).Int),
		"bool": unaryMethod((*tensor.Tensor).Bool), "logical_not": unaryMethod((*tensor.Tensor).Not),
		"contiguous": unaryMethod((*tensor.Tensor).Contiguous), "realize": unaryMethod((*tensor.Tensor).Realize),
		"t": unaryMethod((*tensor.Tensor).T),

		"maximum": binaryMethod((*tensor.Tensor).Maximum), "minimum": binaryMethod((*tensor.Tensor).Minimum),
		"add": arithMethod((*tensor.Tensor).Add, (*tensor.Tensor).Add),
		"sub": arithMethod((*tensor.Tensor).Sub, (*tensor.Tensor).RSub),
		"mul": arithMethod((*tensor.Tensor).Mul, (*tensor.Tensor).Mul),
		"div": arithMethod((*tensor.Tensor).Div, (*tensor.Tensor).RDiv),
		"pow": arithMethod((*tensor.Tensor).Pow, (*tensor.Tensor).RPow), "eq": binaryMethod((*tensor.Tensor).Eq),
		"ne": binaryMethod((*tensor.Tensor).Ne), "lt": binaryMethod((*tensor.Tensor).Lt),
		"gt": binaryMethod((*tensor.Tensor).Gt), "le": binaryMethod((*tensor.Tensor).Le),
		"ge": binaryMethod((*tensor.Tensor).Ge),

		"sum": accReduceMethod((*tensor.Tensor).Sum, (*tensor.Tensor).SumAcc),
		"max": reduceMethod((*tensor.Tensor).Max),
		"min": reduceMethod((*tensor.Tensor).Min), "mean": reduceMethod((*tensor.Tensor).Mean),
		"prod":   accReduceMethod((*tensor.Tensor).Prod, (*tensor.Tensor).ProdAcc),
		"argmax": reduceMethod((*tensor.Tensor).Argmax),
		"argmin": reduceMethod((*tensor.Tensor).Argmin),

		"cumsum":      axisMethod("axis|dim?", 0, (*tensor.Tensor).Cumsum),
		"softmax":     softmaxMethod((*tensor.Tensor).Softmax),
		"log_softmax": softmaxMethod((*tensor.Tensor).LogSoftmax),
		"unsqueeze":   axisMethod("axis|dim", 0, (*tensor.Tensor).Unsqueeze),

		"clip": clampMethod,
		"where": func(it *Interp, r Value, c *call) Value {
			var a, b Value
			it.unpack(c, "x", &a, "y", &b)
			return tv(recvT(r).Where(it.operand(c, a), it.operand(c, b)))
		},
		"cast": func(it *Interp, r Value, c *call) Value {
			var d Value
			it.unpack(c, "dtype", &d)
			return tv(recvT(r).Cast(it.dtypeArg(c, d)))
		},
		"matmul": matmulMethod, "dot": matmulMethod,
		"cat": func(it *Interp, r Value, c *call) Value {
			c.args = append([]Value{r}, c.args...)
			return it.join(c, tensor.Cat)
		},
		"stack": func(it *Interp, r Value, c *call) Value {
			c.args = append([]Value{r}, c.args...)
			return it.join(c, tensor.Stack)
		},
		"numel": func(it *Interp, r Value, c *call) Value { it.unpack(c); return Int(recvT(r).Numel()) },
		"dim":   func(it *Interp, r Value, c *call) Value { it.unpack(c); return Int(recvT(r).Ndim()) },
		"size": func(it *Interp, r Value, c *call) Value {
			d := optInt{}
			it.unpack(c, "dim?", &d)
			if !d.Set {
				return intsTuple(recvT(r).Shape())
			}
			return Int(recvT(r).Shape()[it.axisIndex(c, d.V, recvT(r).Ndim())])
		},
		"item": func(it *Interp, r Value, c *call) Value { it.unpack(c); return itemValue(r.(*TensorValue)) },
		"tolist": func(it *Interp, r Value, c *call) Value {
			it.unpack(c)
			return toList(recvT(r))
		},
		"numpy": func(it *Interp, r Value, c *call) Value {
			it.unpack(c)
			return toList(recvT(r))
		},
		"schedule": scheduleMethod,

		"gradient": gradientMethod, "backward": backwardMethod, "requires_grad_": requiresGradMethod,
		"detach": unaryMethod((*tensor.Tensor).Detach),
	}
	for k, f := range movementMethods {
		m[k] = f
	}
	addMethods("tensor", m)
}

// axisMethod makes a method taking one axis (positional or axis=/dim=).
// arithMethod makes add(x, reverse=false) and its kin: reverse computes
// x op t, as tinygrad's.
func arithMethod(f, rf func(t *tensor.Tensor, y any) *tensor.Tensor) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		var y Value
		var reverse bool
		it.unpack(c, "x", &y, "reverse?", &reverse)
		if reverse {
			return tv(rf(recvT(r), it.operand(c, y)))
		}
		return tv(f(recvT(r), it.operand(c, y)))
	}
}

// softmaxMethod makes softmax(axis=-1, dtype=none): a dtype casts the input
// first, as tinygrad's.
func softmaxMethod(f func(*tensor.Tensor, int) *tensor.Tensor) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		axis := -1
		var dtype Value = None
		it.unpack(c, "axis|dim?", &axis, "dtype?", &dtype)
		t := recvT(r)
		if dtype != None {
			t = t.Cast(it.dtypeArg(c, dtype))
		}
		return tv(f(t, axis))
	}
}

func axisMethod(spec string, def int, f func(*tensor.Tensor, int) *tensor.Tensor) methodFn {
	return func(it *Interp, r Value, c *call) Value {
		axis := def
		it.unpack(c, spec, &axis)
		return tv(f(recvT(r), axis))
	}
}

// axisIndex resolves a possibly negative axis against rank n.
func (it *Interp) axisIndex(c *call, a, n int) int {
	if a < -n || a >= n {
		// the axis as given: size(-3) of a matrix names -3, not -1
		it.failf(c.pos, "%s: axis %d is out of range for rank %d", c.name, a, n)
	}
	if a < 0 {
		a += n
	}
	return a
}

func matmulMethod(it *Interp, r Value, c *call) Value {
	var w *TensorValue
	var reverse bool
	var accd Value = None
	if c.name == "dot" {
		it.unpack(c, "w|x", &w, "acc_dtype?", &accd)
	} else {
		it.unpack(c, "x|w", &w, "reverse?", &reverse, "acc_dtype?", &accd)
	}
	a, b := recvT(r), w.t
	if reverse {
		a, b = b, a
	}
	if accd != None {
		return tv(a.MatmulAcc(b, it.dtypeArg(c, accd)))
	}
	return tv(a.Matmul(b))
}

func scheduleMethod(it *Interp, r Value, c *call) Value {
	it.unpack(c)
	ks := recvT(r).Schedule()
	out := make([]Value, len(ks))
	for i, k := range ks {
		out[i] = Kernel{k.String(), k}
	}
	return NewList(out)
}

// Kernel is one kernel of a schedule; it prints as its AST (and a notebook
// draws it, display_picture.go).
type Kernel struct {
	text string
	k    *codegen.Kernel
}

func (k Kernel) String() string { return k.text }
func (Kernel) Type() string     { return "kernel" }
