package tensor

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestBadInputErrors(t *testing.T) {
	e := testEngine()
	a := e.Zeros(Float32, 2, 3)
	b := e.Zeros(Float32, 4)
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"broadcast", func() { a.Add(b) }, "cannot broadcast shapes (2, 3) and (4,)"},
		{"broadcast where", func() { a.Gt(0).Where(a, b) }, "cannot broadcast shapes (2, 3) and (4,)"},
		{"matmul", func() { a.Matmul(a) }, "matmul: shapes (2, 3) and (2, 3) cannot be multiplied (3 != 2)"},
		{"matmul 0-d", func() { a.Matmul(e.Scalar(1, Float32)) }, "matmul: 0-d operand"},
		{"matmul batch", func() { e.Zeros(Float32, 2, 2, 3).Matmul(e.Zeros(Float32, 3, 3, 1)) }, "cannot be multiplied"},
		{"reshape size", func() { a.Reshape(4, 2) }, "reshape: cannot reshape (2, 3) to (4, 2)"},
		{"reshape two -1", func() { a.Reshape(-1, -1) }, "reshape: cannot reshape (2, 3) to (-1, -1)"},
		{"reshape -1 inexact", func() { a.Reshape(-1, 4) }, "reshape: cannot reshape (2, 3) to (-1, 4)"},
		{"sum axis", func() { a.Sum([]int{2}, false) }, "sum: axis 2 is out of range [-2, 1]"},
		{"sum repeated axis", func() { a.Sum([]int{1, -1}, false) }, "sum: axis 1 repeated"},
		{"permute", func() { a.Permute(0, 0) }, "permute: order (0, 0) repeats an axis"},
		{"permute rank", func() { a.Permute(0) }, "permute: order (0,) does not match shape (2, 3)"},
		{"expand", func() { a.Expand(4, 3) }, "expand: cannot broadcast (2, 3) to (4, 3)"},
		{"cat", func() { a.Cat(0, e.Zeros(Float32, 2, 4)) }, "cat: cannot concatenate shapes (2, 3) and (2, 4) along axis 0"},
		{"cat rank", func() { a.Cat(0, b) }, "cat: cannot concatenate shapes (2, 3) and (4,)"},
		{"stack", func() { Stack(0, a, b) }, "stack: cannot stack shapes (2, 3) and (4,)"},
		{"pad negative", func() { a.Pad([][2]int{{-1, 0}}) }, "pad: negative padding"},
		{"shrink", func() { a.Shrink([][2]int{{0, 3}}) }, "shrink: bounds"},
		{"index bounds", func() { a.Index(Int(2)) }, "index: index 2 is out of bounds for axis 0 with size 2"},
		{"index too many", func() { a.Index(Int(0), Int(0), Int(0)) }, "index: too many indices for tensor of shape (2, 3): 3"},
		{"slice step", func() { a.Index(Slice(nil, nil, 0)) }, "index: slice step cannot be zero"},
		{"item", func() { a.Item() }, "item: tensor of shape (2, 3) has 6 elements, want 1"},
		{"operand", func() { a.Add("x") }, "cannot use string as a tensor operand"},
		{"ragged", func() { e.FromData([]any{[]any{1, 2}, []any{3}}) }, "tensor: ragged data"},
		{"ragged depth", func() { e.FromData([]any{1, []any{3}}) }, "tensor: ragged data"},
		{"fill", func() { e.FromFloats([]float64{1, 2}, []int{3}, Float32) }, "tensor: 2 values cannot fill shape (3,)"},
		{"negative dim", func() { e.Zeros(Float32, -1) }, "full: negative dimension in shape (-1,)"},
		{"arange", func() { e.Arange(0, 1, 0) }, "arange: step must not be zero"},
		{"flip", func() { a.Flip(0, 0) }, "flip: axis 0 repeated"},
		{"argmax axes", func() { a.Argmax([]int{0, 1}, false) }, "argmax: got 2 axes, want 1"},
		{"transpose", func() { a.Transpose(0, 5) }, "transpose: axis 5 is out of range"},
		{"bitwise float", func() { a.And(a) }, "AND: not supported for float32"},
		{"softmax 0-d", func() { e.Scalar(1, Float32).Softmax(1) }, "softmax: axis 1 is out of range [-1, 0]"},
		{"cumsum 0-d", func() { e.Scalar(1, Float32).Cumsum(1) }, "cumsum: axis 1 is out of range [-1, 0]"},
		{"T 1-d", func() { e.Zeros(Float32, 2).T() }, "T: needs a tensor of rank 2"},
		{"huge realize", func() { e.Ones(Float32, 1<<20, 1<<20).Contiguous().Realize() }, "realize: a buffer of shape (1048576, 1048576) is larger than the 8 GiB limit"},
		{"huge const read", func() { e.Zeros(Float32, 1<<20, 1<<20).Item() }, "item: tensor of shape (1048576, 1048576)"},
		{"huge const print", func() { _ = e.Ones(Float32, 1<<20, 1<<20).Floats() }, "read: a buffer of 1099511627776 float32 elements is larger than the 8 GiB limit"},
		{"bool sub", func() { e.FromData([]bool{true}).Sub(true) }, "sub: not supported for bool tensors (use xor)"},
		{"huge shape", func() { e.Zeros(Float32, 1<<30, 1<<30, 1<<30) }, "full: shape (1073741824, 1073741824, 1073741824) has more than"},
		{"huge rand", func() { e.Rand([]int{1 << 20, 1 << 20}) }, "rand: a buffer of"},
		{"huge linspace", func() { e.Linspace(0, 1, 3<<30) }, "linspace: a buffer of 3221225472 float32 elements is larger than the 8 GiB limit"},
		{"huge arange", func() { e.Arange(0, 3<<30, 1).Realize() }, "realize: a buffer of shape (3221225472,) is larger than the 8 GiB limit"},
		{"endless arange", func() { e.Arange(0, 1<<50, 1) }, "arange: cannot make"},
		{"arange inf", func() { e.Arange(0, math.Inf(1), 1) }, "arange: cannot make"},
		{"bad dtype", func() { a.Cast(DType(42)) }, "cast: bad dtype"},
		{"unsqueeze", func() { a.Unsqueeze(4) }, "unsqueeze: axis 4 is out of range [-3, 2]"},
	}
	for _, c := range cases {
		err := Catch(c.f)
		var te *Error
		if !errors.As(err, &te) {
			t.Errorf("%s: got %v, want a *Error", c.name, err)
			continue
		}
		if !strings.Contains(te.Msg, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, te.Msg, c.want)
		}
	}
}

func TestTryReturnsError(t *testing.T) {
	e := testEngine()
	_, err := Try(func() *Tensor { return e.Zeros(Float32, 2).Add(e.Zeros(Float32, 3)) })
	if err == nil || err.Error() != "cannot broadcast shapes (2,) and (3,)" {
		t.Fatalf("got %v", err)
	}
	if _, err := BroadcastShape([]int{2, 1}, []int{3}); err != nil {
		t.Fatal(err)
	}
}
