package tensor

import (
	"math"
	"testing"
)

// Fusion must not change results: each model below runs once as one lazy
// graph and once with every intermediate realized on its own (step forces
// a kernel per op), and the two must agree with each other and with the
// AST evaluator.

type model func(e *Engine, step func(*Tensor) *Tensor) *Tensor

var models = map[string]model{
	"mlp": func(e *Engine, s func(*Tensor) *Tensor) *Tensor {
		x, w1, b1 := e.Randn([]int{8, 5}, 1), e.Randn([]int{5, 16}, 2), e.Randn([]int{16}, 3)
		w2, b2 := e.Randn([]int{16, 4}, 4), e.Randn([]int{4}, 5)
		h := s(s(s(x.Matmul(w1)).Add(b1)).Relu())
		logits := s(s(h.Matmul(w2)).Add(b2))
		return s(logits.LogSoftmax(-1)).Mean(nil, false)
	},
	"layernorm": func(e *Engine, s func(*Tensor) *Tensor) *Tensor {
		x := e.Randn([]int{6, 10}, 6)
		mu := s(x.Mean([]int{-1}, true))
		xc := s(x.Sub(mu))
		v := s(s(xc.Square()).Mean([]int{-1}, true))
		return s(xc.Mul(s(v.Add(1e-5).Rsqrt()))).Mul(2).Add(0.5)
	},
	"attention": func(e *Engine, s func(*Tensor) *Tensor) *Tensor {
		q, k, v := e.Randn([]int{2, 5, 8}, 7), e.Randn([]int{2, 5, 8}, 8), e.Randn([]int{2, 5, 8}, 9)
		scores := s(s(q.Matmul(k.Transpose(-1, -2))).Div(math.Sqrt(8)))
		return s(s(scores.Softmax(-1)).Matmul(v))
	},
	"conv1d by pads": func(e *Engine, s func(*Tensor) *Tensor) *Tensor {
		x := e.Randn([]int{3, 12}, 10)
		p := s(x.Pad([][2]int{{0, 0}, {1, 1}}))
		l, c, r := p.Shrink([][2]int{{0, 3}, {0, 12}}), p.Shrink([][2]int{{0, 3}, {1, 13}}), p.Shrink([][2]int{{0, 3}, {2, 14}})
		return s(s(s(l.Mul(0.25)).Add(s(c.Mul(0.5)))).Add(s(r.Mul(0.25)))).Exp().Sum([]int{1}, false)
	},
	"argmax of computed": func(e *Engine, s func(*Tensor) *Tensor) *Tensor {
		x := e.Randn([]int{7, 9}, 11)
		return s(s(x.Sin()).Mul(s(x.Cos())).Argmax([]int{1}, false)).Float()
	},
	"cat and cumsum": func(e *Engine, s func(*Tensor) *Tensor) *Tensor {
		a, b := e.Randn([]int{4, 3}, 12), e.Randn([]int{4, 2}, 13)
		c := s(Cat(1, s(a.Exp()), s(b.Mul(2)), s(a.Sum([]int{1}, true))))
		return s(c.Cumsum(1)).Flip(0).Index(Slice(nil, nil, 2))
	},
	"var std stack": func(e *Engine, s func(*Tensor) *Tensor) *Tensor {
		a := e.Rand([]int{5, 6}, 14)
		return Stack(0, s(a.Var([]int{0}, false)), s(a.Std([]int{0}, false)), s(a.Max([]int{0}, false)))
	},
	"pad of reduce and expand": func(e *Engine, s func(*Tensor) *Tensor) *Tensor {
		a := e.Randn([]int{4, 6}, 15)
		m := s(a.Sum([]int{1}, true).Pad([][2]int{{1, 0}, {0, 0}}))
		return s(m.Expand(5, 6).Add(a.Pad([][2]int{{0, 1}, {0, 0}}, 3)).Permute(1, 0)).Sum([]int{0}, false)
	},
}

func TestFusionKeepsResults(t *testing.T) {
	for name, m := range models {
		e := cpuEngine(t)
		fused := m(e, func(x *Tensor) *Tensor { return x }).Floats()
		split := m(e, func(x *Tensor) *Tensor { return x.Contiguous().Realize() }).Floats()
		ref := m(astEngine(), func(x *Tensor) *Tensor { return x }).Floats()
		for i := range fused {
			if !near(fused[i], split[i]) || !near(fused[i], ref[i]) {
				t.Errorf("%s: element %d: fused %v, split %v, AST evaluator %v", name, i, fused[i], split[i], ref[i])
				break
			}
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-4+1e-4*math.Abs(b) }
