package suite

import (
	"math"
	"slices"

	"tiny/tensor"
)

// Wide is every op family tiny has, on shapes users meet: elementwise,
// reductions over each axis, argmax/argmin, running sums and maxima,
// batched matmul, a @ b.T, attention, softmax, gather and indexing, conv2d, pools, the
// movement ops (cat, pad, permute, flip), and pow, sigmoid, softplus, floor, a
// select into a log, tril, one_hot and interpolate. bench/wide.py times the same rows
// in NumPy.
var Wide = []Row{
	{Name: "gelu", What: "gelu(x) (tanh form), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Gelu() },
		Ref: func(x [][]float64) []float64 {
			return each(x[0], func(v float64) float64 {
				return 0.5 * v * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(v+0.044715*v*v*v)))
			})
		}, Atol: 1e-6, Rtol: 1e-5},
	{Name: "add_bias", What: "x + b (b over rows), 4096x1024 + 1024", In: []Input{f32(4096, 1024), f32(1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Add(t[1]) },
		Ref: func(x [][]float64) []float64 {
			out := make([]float64, len(x[0]))
			for i := range out {
				out[i] = x[0][i] + x[1][i%1024]
			}
			return out
		}},
	{Name: "sum_axis0", What: "x.sum(axis=0), 4096x4096", In: []Input{f32(4096, 4096)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Sum([]int{0}, false) },
		Ref: func(x [][]float64) []float64 { return reduceCols(x[0], 4096, 4096, 0, add) }, Rtol: 1e-5},
	{Name: "sum_mid", What: "x.sum(axis=1), 64x256x256", In: []Input{f32(64, 256, 256)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Sum([]int{1}, false) },
		Ref: func(x [][]float64) []float64 {
			var out []float64
			for b := range 64 {
				out = append(out, reduceCols(x[0][b*256*256:(b+1)*256*256], 256, 256, 0, add)...)
			}
			return out
		}, Rtol: 1e-5},
	{Name: "max_axis1", What: "x.max(axis=1), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Max([]int{1}, false) },
		Ref: func(x [][]float64) []float64 { return reduceRows(x[0], 4096, 1024, math.Inf(-1), math.Max) }},
	{Name: "var_rows", What: "x.var(axis=1) (unbiased), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Var([]int{1}, false) },
		Ref: func(x [][]float64) []float64 {
			out := make([]float64, 4096)
			for i := range out {
				_, v := meanVar(x[0][i*1024 : (i+1)*1024])
				out[i] = v * 1024 / 1023
			}
			return out
		}, Atol: 1e-6, Rtol: 1e-5},
	{Name: "mean_all", What: "x.mean(), 4096x4096", In: []Input{f32(4096, 4096)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Mean(nil, false) },
		Ref: func(x [][]float64) []float64 {
			return []float64{reduceRows(x[0], 1, len(x[0]), 0, add)[0] / float64(len(x[0]))}
		}, Rtol: 1e-5},
	{Name: "argmax_rows", What: "x.argmax(axis=1), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Argmax([]int{1}, false) },
		Ref: func(x [][]float64) []float64 { return argRows(x[0], 4096, 1024, 1) }},
	{Name: "argmin_rows", What: "x.argmin(axis=1), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Argmin([]int{1}, false) },
		Ref: func(x [][]float64) []float64 { return argRows(x[0], 4096, 1024, -1) }},
	{Name: "argmax_cols", What: "x.argmax(axis=0), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Argmax([]int{0}, false) },
		Ref: func(x [][]float64) []float64 { return argRows(transpose(x[0], 4096, 1024), 1024, 4096, 1) }},
	{Name: "cumsum_rows", What: "x.cumsum(axis=1), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Cumsum(1) },
		Ref: func(x [][]float64) []float64 { return scanRows(x[0], 4096, 1024, add) }, Atol: 1e-4, Rtol: 1e-5},
	{Name: "cumsum_cols", What: "x.cumsum(axis=0), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Cumsum(0) },
		Ref: func(x [][]float64) []float64 {
			return transpose(scanRows(transpose(x[0], 4096, 1024), 1024, 4096, add), 1024, 4096)
		}, Atol: 1e-3, Rtol: 1e-5},
	{Name: "logcumsumexp_rows", What: "x.logcumsumexp(axis=1), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].LogCumSumExp(1) },
		Ref: func(x [][]float64) []float64 {
			return each(scanRows(each(x[0], math.Exp), 4096, 1024, add), math.Log)
		}, Atol: 1e-5, Rtol: 1e-5},
	{Name: "cummax_rows", What: "running max along axis 1, 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Cummax(1) },
		Ref: func(x [][]float64) []float64 { return scanRows(x[0], 4096, 1024, math.Max) }},
	{Name: "bmm_attn", What: "64 x (128x64 @ 64x128)", In: []Input{f32(64, 128, 64), f32(64, 64, 128)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Matmul(t[1]) },
		Ref: func(x [][]float64) []float64 { return bmm(x[0], x[1], 64, 128, 64, 128) }, Rtol: 1e-5},
	{Name: "bmm_256", What: "16 x (256x256 @ 256x256)", In: []Input{f32(16, 256, 256), f32(16, 256, 256)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Matmul(t[1]) },
		Ref: func(x [][]float64) []float64 { return bmm(x[0], x[1], 16, 256, 256, 256) }, Rtol: 1e-5},
	// A linear layer on a small batch with a wide output: few row tiles
	// share each packed column panel of the weight.
	{Name: "linear_wide", What: "x @ w, 96x1024 @ 1024x8192", In: []Input{f32(96, 1024), f32(1024, 8192)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Matmul(t[1]) },
		Ref: func(x [][]float64) []float64 { return bmm(x[0], x[1], 1, 96, 1024, 8192) }, Rtol: 1e-5},
	// a @ b.T: the layout of a Linear's weight (out, in) and of attention's
	// keys, read along its rows.
	{Name: "matmul_nt", What: "a @ b.T, 1024x1024 @ (1024x1024).T", In: []Input{f32(1024, 1024), f32(1024, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Matmul(t[1].Transpose(0, 1)) },
		Ref: func(x [][]float64) []float64 { return bmm(x[0], transpose(x[1], 1024, 1024), 1, 1024, 1024, 1024) }, Rtol: 1e-5},
	// A Linear's forward pass as nn.Linear stores its weight, (out, in): too
	// few rows to pay for copying the weight, dot products of rows.
	{Name: "linear_nt", What: "x @ w.T, 96x1024 @ (8192x1024).T", In: []Input{f32(96, 1024), f32(8192, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Matmul(t[1].Transpose(0, 1)) },
		Ref: func(x [][]float64) []float64 { return bmm(x[0], transpose(x[1], 8192, 1024), 1, 96, 1024, 8192) }, Rtol: 1e-5},
	{Name: "attention", What: "scaled_dot_product_attention, 8x8 heads of 256x64", In: []Input{f32(8, 8, 256, 64), f32(8, 8, 256, 64), f32(8, 8, 256, 64)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor {
			return t[0].ScaledDotProductAttention(t[1], t[2], nil, 0, false)
		},
		Ref: func(x [][]float64) []float64 {
			var out []float64
			const l, d = 256, 64
			for h := range 64 {
				q, k, v := x[0][h*l*d:(h+1)*l*d], x[1][h*l*d:(h+1)*l*d], x[2][h*l*d:(h+1)*l*d]
				s := each(bmm(q, transpose(k, l, d), 1, l, d, l), func(a float64) float64 { return a / 8 })
				out = append(out, bmm(softmax(s, l, l, false), v, 1, l, l, d)...)
			}
			return out
		}, Atol: 1e-6, Rtol: 1e-4},
	{Name: "log_softmax", What: "log_softmax over rows, 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].LogSoftmax(1) },
		Ref: func(x [][]float64) []float64 { return softmax(x[0], 4096, 1024, true) }, Atol: 1e-5, Rtol: 1e-5},
	{Name: "logsumexp_rows", What: "x.logsumexp(axis=1), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].LogSumExp([]int{1}, false) },
		Ref: func(x [][]float64) []float64 {
			return each(reduceRows(each(x[0], math.Exp), 4096, 1024, 0, add), math.Log)
		}, Rtol: 1e-5},
	{Name: "layernorm", What: "layernorm over rows (eps 1e-5), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Layernorm([]int{1}, 1e-5) },
		Ref: func(x [][]float64) []float64 {
			out := make([]float64, len(x[0]))
			for i := range 4096 {
				row := x[0][i*1024 : (i+1)*1024]
				m, v := meanVar(row)
				for j, a := range row {
					out[i*1024+j] = (a - m) / math.Sqrt(v+1e-5)
				}
			}
			return out
		}, Atol: 1e-5, Rtol: 1e-5},
	{Name: "cross_entropy", What: "sparse categorical cross entropy, 4096x1024 logits by 4096 classes", In: []Input{f32(4096, 1024), {Shape: []int{4096}, Below: 1024}},
		Run: func(t []*tensor.Tensor) *tensor.Tensor {
			return t[0].SparseCategoricalCrossEntropy(t[1], -1, 0, "mean")
		},
		Ref: func(x [][]float64) []float64 {
			ls := softmax(x[0], 4096, 1024, true)
			sum := 0.0
			for i, c := range x[1] {
				sum -= ls[i*1024+int(c)]
			}
			return []float64{sum / 4096}
		}, Rtol: 1e-5},
	{Name: "gather_rows", What: "x.gather(1, idx), 4096x1024 by 4096x64", In: []Input{f32(4096, 1024), {Shape: []int{4096, 64}, Below: 1024}},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Gather(1, t[1]) },
		Ref: func(x [][]float64) []float64 {
			out := make([]float64, 4096*64)
			for i := range out {
				out[i] = x[0][i/64*1024+int(x[1][i])]
			}
			return out
		}},
	{Name: "scatter_rows", What: "x.scatter(1, idx, src), 4096x1024 by 4096x64", In: []Input{f32(4096, 1024), {Shape: []int{4096, 64}, Below: 1024}, f32(4096, 64)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Scatter(1, t[1], t[2], "") },
		Ref: func(x [][]float64) []float64 {
			out := slices.Clone(x[0])
			for i, j := range x[1] {
				out[i/64*1024+int(j)] = x[2][i] // in order: the last write wins
			}
			return out
		}},
	{Name: "embedding", What: "table[idx], 16384x256 by 4096", In: []Input{f32(16384, 256), {Shape: []int{4096}, Below: 16384}},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Index(tensor.TensorIndex(t[1])) },
		Ref: func(x [][]float64) []float64 {
			var out []float64
			for _, i := range x[1] {
				out = append(out, x[0][int(i)*256:int(i+1)*256]...)
			}
			return out
		}},
	{Name: "conv2d", What: "conv2d 32x32x28x28 by 64x32x3x3", In: []Input{f32(32, 32, 28, 28), f32(64, 32, 3, 3)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor {
			return t[0].Conv2d(t[1], nil, 1, []int{1}, []int{1}, []int{0})
		},
		Ref: func(x [][]float64) []float64 { return conv2d(x[0], x[1], 32, 32, 28, 64, 3) }, Rtol: 1e-5},
	{Name: "maxpool", What: "max_pool2d 2x2 stride 2, 64x64x56x56", In: []Input{f32(64, 64, 56, 56)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor {
			return t[0].MaxPool2d([]int{2, 2}, []int{2, 2}, []int{1}, []int{0}, false)
		},
		Ref: func(x [][]float64) []float64 { return pool(x[0], 64*64, 56, math.Max, 1) }},
	{Name: "avgpool", What: "avg_pool2d 2x2 stride 2, 64x64x56x56", In: []Input{f32(64, 64, 56, 56)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor {
			return t[0].AvgPool2d([]int{2, 2}, []int{2, 2}, []int{1}, []int{0}, false, true)
		},
		Ref: func(x [][]float64) []float64 { return pool(x[0], 64*64, 56, add, 0.25) }, Rtol: 1e-6},
	{Name: "cat", What: "cat((a, b), axis=1), 4096x1024 each", In: []Input{f32(4096, 1024), f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Cat(1, t[1]) },
		Ref: func(x [][]float64) []float64 {
			var out []float64
			for i := range 4096 {
				out = append(out, x[0][i*1024:(i+1)*1024]...)
				out = append(out, x[1][i*1024:(i+1)*1024]...)
			}
			return out
		}},
	{Name: "pad", What: "pad by 1 with zeros on both axes, 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Pad([][2]int{{1, 1}, {1, 1}}).Contiguous() },
		Ref: func(x [][]float64) []float64 {
			out := make([]float64, 4098*1026)
			for i := range 4096 {
				copy(out[(i+1)*1026+1:], x[0][i*1024:(i+1)*1024])
			}
			return out
		}},
	{Name: "roll", What: "x.roll(1, axis=1), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Roll([]int{1}, []int{1}) },
		Ref: func(x [][]float64) []float64 {
			out := make([]float64, len(x[0]))
			for i := range out {
				out[i] = x[0][i/1024*1024+(i%1024+1023)%1024]
			}
			return out
		}},
	{Name: "repeat", What: "x.repeat(2, 2), 2048x512 to 4096x1024", In: []Input{f32(2048, 512)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Repeat(2, 2).Contiguous() },
		Ref: func(x [][]float64) []float64 {
			out := make([]float64, 4096*1024)
			for i := range out {
				r, c := i/1024, i%1024
				out[i] = x[0][r%2048*512+c%512]
			}
			return out
		}},
	{Name: "permute", What: "x.permute(0, 2, 1) made contiguous, 64x128x256", In: []Input{f32(64, 128, 256)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Permute(0, 2, 1).Contiguous() },
		Ref: func(x [][]float64) []float64 {
			var out []float64
			for b := range 64 {
				out = append(out, transpose(x[0][b*128*256:(b+1)*128*256], 128, 256)...)
			}
			return out
		}},
	{Name: "flip", What: "x[:, ::-1] made contiguous, 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Flip(1).Contiguous() },
		Ref: func(x [][]float64) []float64 {
			out := make([]float64, len(x[0]))
			for i := range out {
				out[i] = x[0][i/1024*1024+1023-i%1024]
			}
			return out
		}},
	{Name: "pow", What: "x ** 2.5, 4096x1024", In: []Input{f32(4096, 1024)},
		Run:  func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Pow(2.5) },
		Ref:  func(x [][]float64) []float64 { return each(x[0], func(v float64) float64 { return math.Pow(v, 2.5) }) },
		Atol: 1e-6, Rtol: 1e-5},
	{Name: "pow_frac", What: "x ** 1.3, 4096x1024 (through log2 and exp2)", In: []Input{f32(4096, 1024)},
		Run:  func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Pow(1.3) },
		Ref:  func(x [][]float64) []float64 { return each(x[0], func(v float64) float64 { return math.Pow(v, 1.3) }) },
		Atol: 1e-6, Rtol: 1e-5},
	{Name: "sigmoid", What: "sigmoid(x), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Sigmoid() },
		Ref: func(x [][]float64) []float64 {
			return each(x[0], func(v float64) float64 { return 1 / (1 + math.Exp(-v)) })
		},
		Atol: 1e-6, Rtol: 1e-5},
	{Name: "softplus", What: "softplus(x), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Softplus(1, 20) },
		Ref: func(x [][]float64) []float64 {
			return each(x[0], func(v float64) float64 { return math.Log1p(math.Exp(v)) })
		},
		Atol: 1e-6, Rtol: 1e-5},
	{Name: "clip", What: "x.clip(0.2, 0.8), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Clip(0.2, 0.8) },
		Ref: func(x [][]float64) []float64 {
			return each(x[0], func(v float64) float64 { return math.Min(math.Max(v, float64(float32(0.2))), float64(float32(0.8))) })
		}},
	{Name: "floor", What: "(x * 10).floor(), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Mul(10.0).Floor() },
		Ref: func(x [][]float64) []float64 {
			return each(x[0], func(v float64) float64 { return math.Floor(float64(float32(v * 10))) })
		}},
	{Name: "where_log", What: "where(x > 0.5, x, 1).log(), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Gt(0.5).Where(t[0], 1.0).Log() },
		Ref: func(x [][]float64) []float64 {
			return each(x[0], func(v float64) float64 {
				if v > 0.5 {
					return math.Log(v)
				}
				return 0
			})
		}, Atol: 1e-6, Rtol: 1e-5},
	{Name: "tril", What: "x.tril(), 4096x1024", In: []Input{f32(4096, 1024)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Tril(0) },
		Ref: func(x [][]float64) []float64 {
			out := make([]float64, len(x[0]))
			for i := range out {
				if i%1024 <= i/1024 {
					out[i] = x[0][i]
				}
			}
			return out
		}},
	{Name: "one_hot", What: "one_hot(idx, 1000), 4096 labels", In: []Input{{Shape: []int{4096}, Below: 1000}},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].OneHot(1000) },
		Ref: func(x [][]float64) []float64 {
			out := make([]float64, 4096*1000)
			for i, c := range x[0] {
				out[i*1000+int(c)] = 1
			}
			return out
		}},
	{Name: "interp_nearest", What: "interpolate to 56x56, nearest, 32x64x28x28", In: []Input{f32(32, 64, 28, 28)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Interpolate([]int{56, 56}, "nearest", false) },
		Ref: func(x [][]float64) []float64 { return resize2x(x[0], 32*64, 28, false) }},
	{Name: "interp_bilinear", What: "interpolate to 56x56, bilinear, 32x64x28x28", In: []Input{f32(32, 64, 28, 28)},
		Run: func(t []*tensor.Tensor) *tensor.Tensor { return t[0].Interpolate([]int{56, 56}, "bilinear", false) },
		Ref: func(x [][]float64) []float64 { return resize2x(x[0], 32*64, 28, true) }, Atol: 1e-6, Rtol: 1e-5},
}

// resize2x doubles the last two axes of n planes of h x h: nearest (source
// o/2) or bilinear as torch's align_corners=False (source (o+0.5)/2-0.5,
// clamped to the plane, blending its two neighbours on each axis).
func resize2x(x []float64, n, h int, linear bool) []float64 {
	o := 2 * h
	taps := func(p int) (lo, hi int, w float64) {
		if !linear {
			return p / 2, p / 2, 0
		}
		f := min(max((float64(p)+0.5)/2-0.5, 0), float64(h-1))
		lo = int(math.Floor(f))
		return lo, int(math.Ceil(f)), f - float64(lo)
	}
	out := make([]float64, n*o*o)
	for k := range n {
		plane := x[k*h*h : (k+1)*h*h]
		for y := range o {
			y0, y1, wy := taps(y)
			for c := range o {
				x0, x1, wx := taps(c)
				at := func(r, c int) float64 { return plane[r*h+c] }
				top := at(y0, x0)*(1-wx) + at(y0, x1)*wx
				bottom := at(y1, x0)*(1-wx) + at(y1, x1)*wx
				out[(k*o+y)*o+c] = top*(1-wy) + bottom*wy
			}
		}
	}
	return out
}

// argRows returns the index of the first maximum (sign 1) or minimum (sign
// -1) of each row.
// meanVar returns the mean and the biased variance of xs.
func meanVar(xs []float64) (m, v float64) {
	for _, a := range xs {
		m += a
	}
	m /= float64(len(xs))
	for _, a := range xs {
		v += (a - m) * (a - m)
	}
	return m, v / float64(len(xs))
}

func argRows(x []float64, r, c int, sign float64) []float64 {
	out := make([]float64, r)
	for i := range r {
		best := 0
		for j := 1; j < c; j++ {
			if sign*x[i*c+j] > sign*x[i*c+best] {
				best = j
			}
		}
		out[i] = float64(best)
	}
	return out
}

// scanRows returns the running fold of each row.
func scanRows(x []float64, r, c int, f func(a, b float64) float64) []float64 {
	out := make([]float64, r*c)
	for i := range r {
		acc := x[i*c]
		out[i*c] = acc
		for j := 1; j < c; j++ {
			acc = f(acc, x[i*c+j])
			out[i*c+j] = acc
		}
	}
	return out
}

// conv2d is a valid, stride-1 convolution of (b, cin, h, h) by (cout, cin,
// k, k).
func conv2d(x, w []float64, b, cin, h, cout, k int) []float64 {
	o := h - k + 1
	out := make([]float64, b*cout*o*o)
	for n := range b {
		for co := range cout {
			dst := out[(n*cout+co)*o*o : (n*cout+co+1)*o*o]
			for ci := range cin {
				src := x[(n*cin+ci)*h*h : (n*cin+ci+1)*h*h]
				for ky := range k {
					for kx := range k {
						wv := w[((co*cin+ci)*k+ky)*k+kx]
						for y := range o {
							row := src[(y+ky)*h+kx : (y+ky)*h+kx+o]
							d := dst[y*o : (y+1)*o]
							for xx, v := range row {
								d[xx] += wv * v
							}
						}
					}
				}
			}
		}
	}
	return out
}

// pool folds the 2x2 stride-2 windows of planes h x h and scales the result.
func pool(x []float64, planes, h int, f func(a, b float64) float64, scale float64) []float64 {
	o := h / 2
	out := make([]float64, planes*o*o)
	for p := range planes {
		src := x[p*h*h : (p+1)*h*h]
		for y := range o {
			for xx := range o {
				v := f(f(src[2*y*h+2*xx], src[2*y*h+2*xx+1]), f(src[(2*y+1)*h+2*xx], src[(2*y+1)*h+2*xx+1]))
				if scale != 1 {
					v *= scale
				}
				out[(p*o+y)*o+xx] = v
			}
		}
	}
	return out
}
