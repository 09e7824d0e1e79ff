package tensor

import "testing"

// A reduce with no output loop outside it runs split across workers: each
// worker folds part of the reduce, and a finishing function combines them
// and runs what follows. What follows may read other buffers; the worker
// must not run it (on CLANG it did, reading a value only the finishing
// function loads, and the kernel did not compile).
func TestSplitReduceThenLoad(t *testing.T) {
	cases := map[string]struct {
		f    func(e *Engine) *Tensor
		want float64 // the sum of the result
	}{
		"sum over rows times a tensor": {func(e *Engine) *Tensor {
			return e.Ones(Float32, 16, 16).Contiguous().Sum([]int{0}, false).Mul(e.FromFloats([]float64{2}, []int{1}, Float32))
		}, 16 * 32},
		"max over rows plus a tensor": {func(e *Engine) *Tensor {
			return e.Ones(Float32, 16, 16).Contiguous().Max([]int{0}, false).Add(e.FromFloats([]float64{2}, []int{1}, Float32))
		}, 16 * 3},
		"full sum times a tensor": {func(e *Engine) *Tensor {
			return e.Ones(Float32, 70000).Contiguous().Sum(nil, true).Mul(e.FromFloats([]float64{2}, []int{1}, Float32))
		}, 140000},
		"matrix-vector backward": {func(e *Engine) *Tensor {
			a, v := e.Ones(Float32, 16, 16).Contiguous(), e.Ones(Float32, 16).Contiguous()
			g := a.Matmul(v).Sum(nil, false).Gradient(v)[0]
			return g
		}, 16 * 16},
	}
	for ename, e := range engines(t) {
		for name, c := range cases {
			var got float64
			err := Catch(func() {
				for _, v := range c.f(e).Floats() { // read whole: a sum on top would fuse differently
					got += v
				}
			})
			if err != nil || got != c.want {
				t.Errorf("%s: %s: got %v (%v), want %v", ename, name, got, err, c.want)
			}
		}
	}
}
