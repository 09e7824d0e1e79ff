// Package suite holds the one table of benchmark rows every benchmark of
// tiny uses: the tiny suite (../shared/bench/README.md) that tiny's speed is
// judged on, and a wider table with every op family on shapes users meet.
// Each row says how to make its inputs, the tensor expression one timed call
// realizes, and a float64 reference computed naively in Go, so that the same
// row is both timed (bench/) and checked at full size (bench's
// TestRowsCorrect, which runs in CI).
//
// bench/reference.py and bench/wide.py time the same rows, by the same names,
// in NumPy (and PyTorch).
package suite

import (
	"math"

	"tiny/tensor"
)

// Input is one input of a row: float32 uniform in [0, 1), or, when Below is
// set, int32 in [0, Below).
type Input struct {
	Shape []int
	Below int
}

// Row is one workload.
type Row struct {
	Name string
	What string // the workload in words, as the NumPy scripts print it
	In   []Input
	// Run builds the lazy expression that one timed call realizes.
	Run func(in []*tensor.Tensor) *tensor.Tensor
	// Ref computes the same result in float64, naively, from the inputs'
	// values (row-major), for the correctness check.
	Ref func(in [][]float64) []float64
	// Atol and Rtol bound |tiny - ref| <= Atol + Rtol*|ref|.
	Atol, Rtol float64
}

// Inputs makes r's inputs on e, realized, seeded by position (input i draws
// with seed i+1), so every run of a row sees the same data.
func (r Row) Inputs(e *tensor.Engine) []*tensor.Tensor {
	out := make([]*tensor.Tensor, len(r.In))
	for i, in := range r.In {
		x := e.Rand(in.Shape, int64(i+1))
		if in.Below > 0 {
			x = x.Mul(float64(in.Below)).Cast(tensor.Int32)
		}
		out[i] = x.Realize()
	}
	return out
}

// Flops is the number of floating-point operations of a matmul row, for
// GFLOP/s; 0 for other rows.
func (r Row) Flops() float64 {
	switch r.Name {
	case "matmul512":
		return 2 * 512 * 512 * 512
	case "matmul1024":
		return 2 * 1024 * 1024 * 1024
	}
	return 0
}

const n16M = 1 << 24

func f32(shp ...int) Input { return Input{Shape: shp} }

// Suite is the tiny suite: the rows of ../shared/bench/README.md.
var Suite = []Row{
	{Name: "add", What: "c = a + b, 16M float32", In: []Input{f32(n16M), f32(n16M)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Add(t[1]) },
		Ref: func(x [][]float64) []float64 { return zip(x[0], x[1], func(a, b float64) float64 { return a + b }) }},
	{Name: "fused", What: "((a*2+b)*c).sum(), 16M float32", In: []Input{f32(n16M), f32(n16M), f32(n16M)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Mul(2).Add(t[1]).Mul(t[2]).Sum(nil, false) },
		Ref: func(x [][]float64) []float64 {
			s := 0.0
			for i := range x[0] {
				s += (x[0][i]*2 + x[1][i]) * x[2][i]
			}
			return []float64{s}
		}, Rtol: 1e-4},
	{Name: "reduce_axis", What: "x.sum(axis=1), 4096x4096", In: []Input{f32(4096, 4096)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Sum([]int{1}, false) },
		Ref: func(x [][]float64) []float64 { return reduceRows(x[0], 4096, 4096, 0, add) }, Rtol: 1e-5},
	{Name: "transpose", What: "x.T made contiguous, 4096x4096", In: []Input{f32(4096, 4096)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].T().Contiguous() },
		Ref: func(x [][]float64) []float64 { return transpose(x[0], 4096, 4096) }},
	{Name: "softmax", What: "softmax over rows, 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Softmax(1) },
		Ref: func(x [][]float64) []float64 { return softmax(x[0], 4096, 1024, false) }, Atol: 1e-7, Rtol: 1e-4},
	{Name: "matmul512", What: "512x512 @ 512x512", In: []Input{f32(512, 512), f32(512, 512)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Matmul(t[1]) },
		Ref: func(x [][]float64) []float64 { return bmm(x[0], x[1], 1, 512, 512, 512) }, Rtol: 1e-5},
	{Name: "matmul1024", What: "1024x1024 @ 1024x1024", In: []Input{f32(1024, 1024), f32(1024, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Matmul(t[1]) },
		Ref: func(x [][]float64) []float64 { return bmm(x[0], x[1], 1, 1024, 1024, 1024) }, Rtol: 1e-5},
	{Name: "exp_sin", What: "exp(a) + sin(b), 16M float32", In: []Input{f32(n16M), f32(n16M)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Exp().Add(t[1].Sin()) },
		Ref: func(x [][]float64) []float64 {
			return zip(x[0], x[1], func(a, b float64) float64 { return math.Exp(a) + math.Sin(b) })
		}, Rtol: 1e-6},
}

func add(a, b float64) float64 { return a + b }

func zip(a, b []float64, f func(a, b float64) float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = f(a[i], b[i])
	}
	return out
}

func each(a []float64, f func(float64) float64) []float64 {
	out := make([]float64, len(a))
	for i, v := range a {
		out[i] = f(v)
	}
	return out
}

// reduceRows folds each row of an r x c matrix from init.
func reduceRows(x []float64, r, c int, init float64, f func(a, b float64) float64) []float64 {
	out := make([]float64, r)
	for i := range r {
		acc := init
		for _, v := range x[i*c : (i+1)*c] {
			acc = f(acc, v)
		}
		out[i] = acc
	}
	return out
}

// reduceCols folds each column of an r x c matrix from init.
func reduceCols(x []float64, r, c int, init float64, f func(a, b float64) float64) []float64 {
	out := make([]float64, c)
	for j := range c {
		acc := init
		for i := range r {
			acc = f(acc, x[i*c+j])
		}
		out[j] = acc
	}
	return out
}

func transpose(x []float64, r, c int) []float64 {
	out := make([]float64, r*c)
	for i := range r {
		for j := range c {
			out[j*r+i] = x[i*c+j]
		}
	}
	return out
}

func softmax(x []float64, r, c int, log bool) []float64 {
	out := make([]float64, r*c)
	for i := range r {
		row := x[i*c : (i+1)*c]
		m := math.Inf(-1)
		for _, v := range row {
			m = max(m, v)
		}
		s := 0.0
		for _, v := range row {
			s += math.Exp(v - m)
		}
		for j, v := range row {
			if log {
				out[i*c+j] = v - m - math.Log(s)
			} else {
				out[i*c+j] = math.Exp(v-m) / s
			}
		}
	}
	return out
}

// bmm multiplies b batches of (m x k) @ (k x n).
func bmm(x, y []float64, b, m, k, n int) []float64 {
	out := make([]float64, b*m*n)
	for p := range b {
		for i := range m {
			o := out[(p*m+i)*n : (p*m+i+1)*n]
			for l := range k {
				a := x[(p*m+i)*k+l]
				yr := y[(p*k+l)*n : (p*k+l+1)*n]
				for j := range n {
					o[j] += a * yr[j]
				}
			}
		}
	}
	return out
}
