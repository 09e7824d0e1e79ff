package tensor

import (
	"testing"
)

// The tiny suite (../shared/bench/README.md) end to end through the tensor
// API: build the expression from realized inputs, realize it. Compare the
// medians with reference.py's NumPy figures from the same session.

func benchRow(b *testing.B, inputs func(e *Engine) []*Tensor, expr func(in []*Tensor) *Tensor) {
	e, err := NewEngine(Options{})
	if err != nil {
		b.Skip(err)
	}
	in := inputs(e)
	Realize(in...)
	expr(in).Realize() // compile once
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		expr(in).Realize()
	}
}

func rands(shapes ...[]int) func(e *Engine) []*Tensor {
	return func(e *Engine) []*Tensor {
		out := make([]*Tensor, len(shapes))
		for i, s := range shapes {
			out[i] = e.Rand(s, int64(i))
		}
		return out
	}
}

const n16M = 1 << 24

func BenchmarkAdd(b *testing.B) {
	benchRow(b, rands([]int{n16M}, []int{n16M}), func(in []*Tensor) *Tensor { return in[0].Add(in[1]) })
}

func BenchmarkFused(b *testing.B) {
	benchRow(b, rands([]int{n16M}, []int{n16M}, []int{n16M}), func(in []*Tensor) *Tensor {
		return in[0].Mul(2).Add(in[1]).Mul(in[2]).Sum(nil, false)
	})
}

func BenchmarkReduceAxis(b *testing.B) {
	benchRow(b, rands([]int{4096, 4096}), func(in []*Tensor) *Tensor { return in[0].Sum([]int{1}, false) })
}

func BenchmarkTranspose(b *testing.B) {
	benchRow(b, rands([]int{4096, 4096}), func(in []*Tensor) *Tensor { return in[0].T().Contiguous() })
}

func BenchmarkSoftmax(b *testing.B) {
	benchRow(b, rands([]int{4096, 1024}), func(in []*Tensor) *Tensor { return in[0].Softmax(1) })
}

func BenchmarkMatmul512(b *testing.B) {
	benchRow(b, rands([]int{512, 512}, []int{512, 512}), func(in []*Tensor) *Tensor { return in[0].Matmul(in[1]) })
}

func BenchmarkMatmul1024(b *testing.B) {
	benchRow(b, rands([]int{1024, 1024}, []int{1024, 1024}), func(in []*Tensor) *Tensor { return in[0].Matmul(in[1]) })
}

func BenchmarkExpSin(b *testing.B) {
	benchRow(b, rands([]int{n16M}, []int{n16M}), func(in []*Tensor) *Tensor { return in[0].Exp().Add(in[1].Sin()) })
}
