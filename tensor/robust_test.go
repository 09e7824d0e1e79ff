package tensor

import (
	"math/rand"
	"testing"
)

// Bad input must give a *Error, never another panic: random ops with random
// (often invalid) arguments on random tensors.
func TestNoRawPanics(t *testing.T) {
	e := astEngine()
	r := rand.New(rand.NewSource(1))
	dims := func() []int {
		out := make([]int, r.Intn(4))
		for i := range out {
			out[i] = r.Intn(5) - 1
		}
		return out
	}
	pairs := func() [][2]int {
		out := make([][2]int, r.Intn(4))
		for i := range out {
			out[i] = [2]int{r.Intn(6) - 2, r.Intn(6) - 2}
		}
		return out
	}
	anyOf := func() any {
		switch r.Intn(5) {
		case 0:
			return r.Intn(7) - 3
		case 1:
			return float64(r.Intn(7)-3) / 2
		case 2:
			return r.Intn(2) == 0
		case 3:
			return "x"
		}
		return nil
	}
	ops := []func(x, y *Tensor) *Tensor{
		func(x, y *Tensor) *Tensor { return x.Reshape(dims()...) },
		func(x, y *Tensor) *Tensor { return x.Permute(dims()...) },
		func(x, y *Tensor) *Tensor { return x.Expand(dims()...) },
		func(x, y *Tensor) *Tensor { return x.Pad(pairs(), 1) },
		func(x, y *Tensor) *Tensor { return x.Shrink(pairs()) },
		func(x, y *Tensor) *Tensor { return x.Flip(dims()...) },
		func(x, y *Tensor) *Tensor { return x.Transpose(r.Intn(7)-3, r.Intn(7)-3) },
		func(x, y *Tensor) *Tensor { return x.Squeeze(dims()...) },
		func(x, y *Tensor) *Tensor { return x.Unsqueeze(r.Intn(9) - 4) },
		func(x, y *Tensor) *Tensor { return x.Flatten(dims()...) },
		func(x, y *Tensor) *Tensor { return x.Add(y) },
		func(x, y *Tensor) *Tensor { return x.Mul(anyOf()) },
		func(x, y *Tensor) *Tensor { return x.FloorDiv(anyOf()) },
		func(x, y *Tensor) *Tensor { return x.Mod(y) },
		func(x, y *Tensor) *Tensor { return x.Pow(anyOf()) },
		func(x, y *Tensor) *Tensor { return x.Where(anyOf(), y) },
		func(x, y *Tensor) *Tensor { return x.Matmul(y) },
		func(x, y *Tensor) *Tensor { return x.Cat(r.Intn(5)-2, y) },
		func(x, y *Tensor) *Tensor { return Stack(r.Intn(5)-2, x, y) },
		func(x, y *Tensor) *Tensor { return x.Sum(dims(), r.Intn(2) == 0) },
		func(x, y *Tensor) *Tensor { return x.Max(dims(), false) },
		func(x, y *Tensor) *Tensor { return x.Argmax(dims(), true) },
		func(x, y *Tensor) *Tensor { return x.Cumsum(r.Intn(7) - 3) },
		func(x, y *Tensor) *Tensor { return x.Softmax(r.Intn(7) - 3) },
		func(x, y *Tensor) *Tensor { return x.Var(dims(), false) },
		func(x, y *Tensor) *Tensor { return x.Cast(DType(r.Intn(9))) },
		func(x, y *Tensor) *Tensor {
			items := make([]IndexItem, r.Intn(4))
			for i := range items {
				switch r.Intn(4) {
				case 0:
					items[i] = Int(r.Intn(9) - 4)
				case 1:
					items[i] = Slice(anyOf(), anyOf(), r.Intn(5)-2)
				case 2:
					items[i] = NewAxis
				default:
					items[i] = Ellipsis
				}
			}
			return x.Index(items...)
		},
		func(x, y *Tensor) *Tensor { return e.FromData([]any{anyOf(), []any{anyOf()}}) },
		func(x, y *Tensor) *Tensor {
			return e.Arange(float64(r.Intn(5)), float64(r.Intn(5)), float64(r.Intn(3)-1))
		},
		func(x, y *Tensor) *Tensor { return e.Full(dims(), 1, Int32) },
		func(x, y *Tensor) *Tensor { return e.Eye(r.Intn(5)-1, r.Intn(4)) },
	}
	shapes := [][]int{{}, {3}, {2, 3}, {3, 1}, {1, 2, 3}, {0, 2}}
	for i := 0; i < 3000; i++ {
		x := e.Rand(shapes[r.Intn(len(shapes))], int64(i)).Mul(4).Floor()
		y := e.Rand(shapes[r.Intn(len(shapes))], int64(i+1)).Cast(DType(r.Intn(7)))
		op := r.Intn(len(ops))
		func() {
			defer func() {
				if p := recover(); p != nil {
					if _, ok := p.(*Error); !ok {
						t.Fatalf("iteration %d op %d: raw panic %v", i, op, p)
					}
				}
			}()
			out := ops[op](x, y)
			if r.Intn(3) == 0 {
				_ = out.String()
			}
		}()
	}
}
