package tensor

import (
	"encoding/json"
	"math"
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"
)

// The gradient rules are checked against central finite differences in
// float64, on every engine: each test function is evaluated at the inputs
// moved by ±h one element at a time, and the derivative of a weighted sum of
// its output (fixed random weights, so that every output element counts)
// must match Gradient's.

type gradCase struct {
	name   string
	shapes [][]int
	pos    bool // inputs in [0.5, 2] instead of [-1, 1], for log, sqrt, pow
	f      func(e *Engine, x []*Tensor) *Tensor
}

var gradCases = []gradCase{
	{"add", [][]int{{2, 3}, {2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Add(x[1]) }},
	{"sub", [][]int{{2, 3}, {2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Sub(x[1]) }},
	{"mul", [][]int{{2, 3}, {2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(x[1]) }},
	{"div", [][]int{{2, 3}, {2, 3}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Div(x[1]) }},
	{"rdiv scalar", [][]int{{4}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].RDiv(3.0) }},
	{"neg", [][]int{{5}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Neg() }},
	{"exp", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Exp() }},
	{"exp2", [][]int{{3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Exp2() }},
	{"log", [][]int{{2, 3}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Log() }},
	{"log2", [][]int{{3}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Log2() }},
	{"sin", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Sin() }},
	{"cos", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Cos() }},
	{"tan", [][]int{{4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Tan() }},
	{"sqrt", [][]int{{2, 3}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Sqrt() }},
	{"rsqrt", [][]int{{3}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Rsqrt() }},
	{"reciprocal", [][]int{{3}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Reciprocal() }},
	{"pow 3", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Pow(3) }},
	{"pow -2", [][]int{{4}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Pow(-2) }},
	{"pow 0.5", [][]int{{4}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Pow(0.5) }},
	{"atan", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(3.0).Atan() }},
	{"softplus", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(8.0).Softplus(1, 5) }},
	{"asinh", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(3.0).Asinh() }},
	{"acosh", [][]int{{2, 3}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Add(0.6).Acosh() }},
	{"sinh", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(2.0).Sinh() }},
	{"cosh", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(2.0).Cosh() }},
	{"pow 2.5", [][]int{{4}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Pow(2.5) }},
	{"pow -1.5", [][]int{{4}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Pow(-1.5) }},
	{"pow tensor", [][]int{{2, 3}, {2, 3}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Pow(x[1]) }},
	{"rpow", [][]int{{4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].RPow(3.0) }},
	{"square", [][]int{{4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Square() }},
	{"abs", [][]int{{6}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Abs() }},
	{"relu", [][]int{{2, 4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Relu() }},
	{"sigmoid", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Sigmoid() }},
	{"tanh", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Tanh() }},
	{"tanh wide", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(3.0).Tanh() }},
	{"asin", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(0.9).Asin() }},
	{"acos", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(0.9).Acos() }},
	{"atanh", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(0.9).Atanh() }},
	{"erf", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(2.0).Erf() }},
	{"gelu", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Gelu() }},
	{"maximum", [][]int{{2, 3}, {2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Maximum(x[1]) }},
	{"minimum", [][]int{{2, 3}, {2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Minimum(x[1]) }},
	{"clip", [][]int{{6}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Clip(-0.5, 0.5) }},
	{"where", [][]int{{2, 3}, {2, 3}, {2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Gt(0).Where(x[1], x[2]) }},
	{"where scalar", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Lt(0.2).Where(x[0].Mul(3), 1.5) }},
	{"sum all", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Sum(nil, false) }},
	{"sum axis", [][]int{{2, 3, 2}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Sum([]int{1}, false) }},
	{"sum axes keepdim", [][]int{{2, 3, 2}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Sum([]int{0, 2}, true) }},
	{"max all", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Max(nil, false) }},
	{"max axis", [][]int{{3, 4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Max([]int{1}, false) }},
	{"min axis", [][]int{{3, 4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Min([]int{0}, true) }},
	{"prod", [][]int{{2, 3}}, true, func(e *Engine, x []*Tensor) *Tensor { return x[0].Prod([]int{1}, false) }},
	{"mean all", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mean(nil, false) }},
	{"mean axis", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mean([]int{0}, false) }},
	{"var std", [][]int{{2, 4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Var([]int{1}, false).Add(x[0].Std(nil, false)) }},
	{"reshape", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Reshape(3, 2).Mul(x[0].Reshape(3, 2).Sin()) }},
	{"permute", [][]int{{2, 3, 4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Permute(2, 0, 1).Exp().Reshape(4, 6).Permute(1, 0) }},
	{"transpose reshape", [][]int{{2, 3}, {3, 2}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].T().Reshape(6).Mul(x[1].Reshape(6)) }},
	{"broadcast", [][]int{{2, 3}, {3}, {2, 1}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Mul(x[1]).Add(x[2].Square()) }},
	{"expand", [][]int{{3, 1}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Expand(2, 3, 4).Sin() }},
	{"pad", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Pad([][2]int{{1, 2}, {0, 1}}).Exp() }},
	{"pad value", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Pad([][2]int{{1, 0}, {2, 1}}, -1).Square() }},
	{"shrink", [][]int{{4, 5}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Shrink([][2]int{{1, 3}, {2, 5}}).Exp() }},
	{"index", [][]int{{4, 5}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Index(Int(2), Slice(1, 4, 1)).Square() }},
	{"index steps", [][]int{{5, 7}}, false, func(e *Engine, x []*Tensor) *Tensor {
		return x[0].Index(Slice(nil, nil, 2), Slice(nil, nil, -3)).Exp()
	}},
	{"flip", [][]int{{3, 4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Flip(1).Mul(x[0]) }},
	{"cat", [][]int{{2, 3}, {2, 2}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Cat(1, x[1]).Sin() }},
	{"stack", [][]int{{3}, {3}}, false, func(e *Engine, x []*Tensor) *Tensor { return Stack(0, x[0], x[1].Exp()) }},
	{"matmul", [][]int{{2, 3}, {3, 4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Matmul(x[1]) }},
	{"matmul batched vec", [][]int{{2, 2, 3}, {3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Matmul(x[1]) }},
	{"softmax", [][]int{{2, 4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Softmax(1) }},
	{"log_softmax", [][]int{{3, 4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].LogSoftmax(-1) }},
	{"cumsum", [][]int{{3, 4}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Cumsum(1).Square() }},
	{"cumsum blocks", [][]int{{300}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].Cumsum(0).Index(Slice(250, 290, 13)) }},
	{"contiguous", [][]int{{2, 3}}, false, func(e *Engine, x []*Tensor) *Tensor { return x[0].T().Contiguous().Square() }},
	{"reused", [][]int{{3}}, false, func(e *Engine, x []*Tensor) *Tensor {
		y := x[0].Sin()
		return y.Mul(y).Add(y.Exp()).Mul(x[0])
	}},
}

// gradInputs returns the random inputs of c, seeded by its name.
func gradInputs(c gradCase) [][]float64 {
	var seed int64
	for _, ch := range c.name {
		seed = seed*31 + int64(ch)
	}
	r := rand.New(rand.NewSource(seed))
	var out [][]float64
	for _, s := range c.shapes {
		d := make([]float64, prod(s))
		for i := range d {
			if c.pos {
				d[i] = 0.5 + 1.5*r.Float64()
			} else {
				d[i] = 2*r.Float64() - 1
			}
		}
		out = append(out, d)
	}
	return out
}

// weightedLoss returns the function sum(f(x) * w) for fixed weights w drawn
// once for f's output shape.
func weightedLoss(e *Engine, f func(e *Engine, x []*Tensor) *Tensor) func(x []*Tensor) *Tensor {
	var w *Tensor
	return func(x []*Tensor) *Tensor {
		y := f(e, x)
		if w == nil {
			r := rand.New(rand.NewSource(1))
			d := make([]float64, y.Numel())
			for i := range d {
				d[i] = 2*r.Float64() - 1
			}
			w = e.FromFloats(d, y.Shape(), Float64)
		}
		return y.Mul(w).Sum(nil, false)
	}
}

func leaves(e *Engine, shapes [][]int, data [][]float64) []*Tensor {
	xs := make([]*Tensor, len(shapes))
	for i, s := range shapes {
		xs[i] = e.FromFloats(data[i], s, Float64)
	}
	return xs
}

// numericGrad returns the central differences of loss at data, one input
// element at a time.
func numericGrad(e *Engine, loss func([]*Tensor) *Tensor, shapes [][]int, data [][]float64) [][]float64 {
	const h = 1e-6
	out := make([][]float64, len(data))
	for i := range data {
		out[i] = make([]float64, len(data[i]))
		for j := range data[i] {
			at := func(v float64) float64 {
				moved := slices.Clone(data)
				moved[i] = slices.Clone(data[i])
				moved[i][j] = v
				return loss(leaves(e, shapes, moved)).Item()
			}
			out[i][j] = (at(data[i][j]+h) - at(data[i][j]-h)) / (2 * h)
		}
	}
	return out
}

func closeTo(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*(1+math.Abs(want))
}

func TestGradientRules(t *testing.T) {
	es := engines(t)
	prebuildGPU(t, es, gradientRules)
	for name, e := range es {
		if name == "ast" || name == "ref" || name == "clang" && testing.Short() {
			continue // half a minute each: ast and ref evaluate slowly, clang compiles (cold cache)
		}
		t.Run(name, func(t *testing.T) { gradientRules(t, e) })
	}
}

func gradientRules(t *testing.T, e *Engine) {
	for _, c := range gradCases {
		data := gradInputs(c)
		loss := weightedLoss(e, c.f)
		xs := leaves(e, c.shapes, data)
		grads := loss(xs).Gradient(xs...)
		want := numericGrad(e, loss, c.shapes, data)
		for i, g := range grads {
			if !slices.Equal(g.Shape(), c.shapes[i]) || g.DType() != Float64 {
				t.Fatalf("%s: gradient %d has shape %v %s, want %v float64", c.name, i, g.Shape(), g.DType(), c.shapes[i])
			}
			for j, v := range g.Floats() {
				if !closeTo(v, want[i][j], 1e-6) {
					t.Errorf("%s: d/dx%d[%d] = %v, finite differences say %v", c.name, i, j, v, want[i][j])
				}
			}
		}
	}
}

func TestGradientExact(t *testing.T) {
	e := cpuEngine(t)
	x := e.FromFloats([]float64{1, -2, 3, 0.5}, []int{2, 2}, Float32)
	g := x.Mul(x).Sum(nil, false).Gradient(x)[0]
	if got := g.Floats(); !slices.Equal(got, []float64{2, -4, 6, 1}) {
		t.Errorf("d/dx sum(x*x) = %v, want 2x", got)
	}

	a := e.FromFloats([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, Float32)
	b := e.FromFloats([]float64{1, 0, -1, 2, 0.5, 1}, []int{3, 2}, Float32)
	up := e.FromFloats([]float64{1, -1, 2, 0.5}, []int{2, 2}, Float32)
	gs := a.Matmul(b).Mul(up).Sum(nil, false).Gradient(a, b)
	if got, want := gs[0].Floats(), up.Matmul(b.T()).Floats(); !slices.Equal(got, want) {
		t.Errorf("matmul: d/da = %v, want g @ b.T = %v", got, want)
	}
	if got, want := gs[1].Floats(), a.T().Matmul(up).Floats(); !slices.Equal(got, want) {
		t.Errorf("matmul: d/db = %v, want a.T @ g = %v", got, want)
	}

	// Ties: maximum(x, x) gives half to each side; a max reduce shares
	// among the elements equal to the maximum.
	y := e.FromFloats([]float64{1, 3, 3, 2}, []int{4}, Float32)
	if got := y.Maximum(y).Sum(nil, false).Gradient(y)[0].Floats(); !slices.Equal(got, []float64{1, 1, 1, 1}) {
		t.Errorf("maximum(y, y): gradient %v, want ones", got)
	}
	if got := y.Max(nil, false).Gradient(y)[0].Floats(); !slices.Equal(got, []float64{0, 0.5, 0.5, 0}) {
		t.Errorf("max with a tie: gradient %v, want [0 0.5 0.5 0]", got)
	}

	// A cast passes the gradient back in the source's dtype; an integer
	// path passes nothing.
	z := e.FromFloats([]float64{1.5, -2.5}, []int{2}, Float64)
	gz := z.Cast(Float32).Mul(2).Add(z.Int().Float()).Sum(nil, false).Gradient(z)[0]
	if gz.DType() != Float64 || !slices.Equal(gz.Floats(), []float64{2, 2}) {
		t.Errorf("cast: gradient %v %s, want [2 2] float64", gz.Floats(), gz.DType())
	}

	// A target the loss does not depend on gets zeros; so does the
	// condition side of a comparison.
	u := e.FromFloats([]float64{1, 2, 3}, []int{3}, Float32)
	gs = x.Sum(nil, false).Add(u.Gt(1).Float().Sum(nil, false)).Gradient(u, x)
	if got := gs[0].Floats(); !slices.Equal(got, []float64{0, 0, 0}) {
		t.Errorf("unused target: %v, want zeros", got)
	}
	if got := gs[1].Floats(); !slices.Equal(got, []float64{1, 1, 1, 1}) {
		t.Errorf("sum: %v, want ones", got)
	}

	// A target that is a view, moved back to its base's layout before use:
	// the walk reaches it through the movements, not through its base.
	v := e.Rand([]int{6}, 1).Reshape(2, 3)
	c := e.Arange(0, 6, 1, Float32)
	if got := v.Reshape(6).Mul(c).Sum(nil, false).Gradient(v)[0].Floats(); !slices.Equal(got, c.Floats()) {
		t.Errorf("view target: gradient %v, want %v", got, c.Floats())
	}
	p := e.Rand([]int{2, 3}, 2).Permute(1, 0)
	if got := p.Permute(1, 0).Mul(2).Sum(nil, false).Gradient(p)[0].Floats(); !slices.Equal(got, []float64{2, 2, 2, 2, 2, 2}) {
		t.Errorf("permuted target: gradient %v, want twos", got)
	}
	// Such a view schedules as its base does.
	base := x.Add(1)
	if got, want := kernelTexts(base.Reshape(4).Reshape(2, 2).Mul(2)), kernelTexts(base.Mul(2)); got != want {
		t.Errorf("a view back to its base's layout schedules\n%s\nwant\n%s", got, want)
	}

	// The loss itself, of shape (1, 1).
	l := x.Sum(nil, true)
	if got := l.Gradient(l)[0].Floats(); !slices.Equal(got, []float64{1}) {
		t.Errorf("dl/dl = %v, want [1]", got)
	}
}

func kernelTexts(t *Tensor) string {
	var b strings.Builder
	for _, k := range t.Schedule() {
		b.WriteString(k.String())
	}
	return b.String()
}

func TestGradientErrors(t *testing.T) {
	e := cpuEngine(t)
	x := e.FromFloats([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, Float32)
	i := e.FromInts([]int64{1, 2}, []int{2}, Int32)
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { x.Gradient(x) }, "gradient of a tensor of shape (2, 3): call it on a scalar (one element)"},
		{func() { x.Backward() }, "backward of a tensor of shape (2, 3): call it on a scalar (one element)"},
		{func() { i.Sum(nil, false).Gradient(x) }, "gradient of a tensor of dtype int32: only float tensors have gradients"},
		{func() { x.Sum(nil, false).Gradient(x, i) }, "gradient: target 2 has dtype int32: only float tensors have gradients"},
		{func() { x.Sum(nil, false).Gradient(nil) }, "gradient: target 1 is nil"},
		{func() { x.Sum(nil, false).Gradient(e.Zeros(Float32, 3)) }, "gradient: target 1 is a constant, which ops fold away: call requires_grad_() on it before using it"},
		{func() { i.SetRequiresGrad(true) }, "requires_grad: tensor has dtype int32: only float tensors have gradients"},
		{func() { x.Sum(nil, false).Backward() }, "backward: the loss depends on no tensor that requires grad"},
		{func() { l := x.Sin().Sum(nil, true); l.Item(); l.Gradient(x) }, "gradient: the loss depends on a target through a tensor that was realized (read, or realize()) before the gradient and forgot how it was computed: take gradients before reading values, or mark the targets with requires_grad_() so that reads keep the graph"},
		{func() {
			w := x.Sin().SetRequiresGrad(true)
			l := w.Sum(nil, true)
			l.Realize()
			l.Backward()
		}, "backward: the loss depends on a tensor that requires grad through a tensor that realize() made a leaf: call backward before realizing"},
	} {
		err := Catch(c.f)
		if err == nil || err.Error() != c.want {
			t.Errorf("got error %v, want %q", err, c.want)
		}
	}
}

func TestBackward(t *testing.T) {
	for name, e := range engines(t) {
		t.Run(name, func(t *testing.T) {
			x := e.FromFloats([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, Float32)
			w := e.FromFloats([]float64{0.5, -1, 2}, []int{3, 1}, Float32).SetRequiresGrad(true)
			b := e.Zeros(Float32, 1).SetRequiresGrad(true) // a constant: it gets a buffer
			if w.Grad() != nil || !w.RequiresGrad() || x.RequiresGrad() {
				t.Fatalf("before backward: grad %v, requires_grad %v %v", w.Grad(), w.RequiresGrad(), x.RequiresGrad())
			}
			loss := x.Matmul(w).Add(b).Square().Mean(nil, false)
			want := loss.Gradient(w, b)
			w.Realize() // a realized leaf keeps its mark
			loss.Backward()
			if x.Grad() != nil {
				t.Errorf("x has a gradient but does not require one")
			}
			for k, p := range []*Tensor{w, b} {
				if got := p.Grad().Floats(); !slices.Equal(got, want[k].Floats()) {
					t.Errorf("grad %d: %v, want %v", k, got, want[k].Floats())
				}
			}
			loss.Backward() // accumulates
			if got, w2 := w.Grad().Floats(), want[0].Mul(2).Floats(); !slices.Equal(got, w2) {
				t.Errorf("second backward: %v, want %v", got, w2)
			}
		})
	}
}

// TestGradientTorch checks an MLP with softmax cross-entropy against
// gradients PyTorch computed (testdata/grad_vectors.py).
func TestGradientTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/grad_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Labels []int64
		Loss   float64
		Inputs map[string]struct {
			Shape []int
			Data  []float64
		}
		Grads map[string][]float64
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	names := []string{"x", "w1", "b1", "w2", "b2"}
	for name, e := range engines(t) {
		t.Run(name, func(t *testing.T) {
			p := map[string]*Tensor{}
			var ps []*Tensor
			for _, n := range names {
				in := v.Inputs[n]
				p[n] = e.FromFloats(in.Data, in.Shape, Float64)
				ps = append(ps, p[n])
			}
			h := p["x"].Matmul(p["w1"]).Add(p["b1"]).Relu()
			logits := h.Matmul(p["w2"]).Add(p["b2"])
			labels := e.FromInts(v.Labels, []int{len(v.Labels)}, Int32)
			classes := logits.Shape()[1]
			onehot := labels.Unsqueeze(1).Eq(e.Arange(0, float64(classes), 1, Int32))
			loss := onehot.Where(logits.LogSoftmax(1), 0.0).Sum(nil, false).Neg().Div(float64(len(v.Labels)))
			grads := loss.Gradient(ps...) // before reading the loss, which forgets its graph
			if got := loss.Item(); !closeTo(got, v.Loss, 1e-12) {
				t.Errorf("loss %v, torch says %v", got, v.Loss)
			}
			for k, g := range grads {
				for j, x := range g.Floats() {
					if want := v.Grads[names[k]][j]; !closeTo(x, want, 1e-12) {
						t.Errorf("d/d%s[%d] = %v, torch says %v", names[k], j, x, want)
					}
				}
			}
		})
	}
}

// TestGradientRandomGraphs builds random chains of differentiable ops over
// a few leaves and compares the gradient with finite differences along
// random directions.
func TestGradientRandomGraphs(t *testing.T) {
	es := engines(t)
	iters := func(name string) int {
		n := 100
		if name == "clang" {
			n = 30 // each graph compiles its own kernels: 50 s for 100 with a cold cache
		}
		if testing.Short() {
			n /= 3
		}
		return n
	}
	prebuildGPU(t, es, func(t *testing.T, e *Engine) { gradientRandomGraphs(t, e, iters("gpu")) })
	for name, e := range es {
		t.Run(name, func(t *testing.T) { gradientRandomGraphs(t, e, iters(name)) })
	}
}

func gradientRandomGraphs(t *testing.T, e *Engine, iters int) {
	for seed := 0; seed < iters; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		shp := factor(r, []int{4, 6, 8, 12}[r.Intn(4)])
		nleaf := 1 + r.Intn(3)
		var plan []func(x, leaf *Tensor) *Tensor
		var trail []string
		for step := 0; step < 2+r.Intn(5); step++ {
			what, f := randomGradStep(r)
			trail = append(trail, what)
			plan = append(plan, f)
		}
		shapes := make([][]int, nleaf)
		data := make([][]float64, nleaf)
		for i := range shapes {
			shapes[i] = shp
			data[i] = make([]float64, prod(shp))
			for j := range data[i] {
				data[i][j] = 2*r.Float64() - 1
			}
		}
		f := func(e *Engine, xs []*Tensor) *Tensor {
			x := xs[0]
			for k, step := range plan {
				x = step(x, xs[k%len(xs)])
			}
			return x
		}
		loss := weightedLoss(e, f)
		xs := leaves(e, shapes, data)
		grads := loss(xs).Gradient(xs...)
		gd := make([][]float64, nleaf)
		for i, g := range grads {
			gd[i] = g.Floats()
		}
		for dir := 0; dir < 2; dir++ {
			// The derivative along v is <grad, v>.
			const h = 1e-6
			v := make([][]float64, nleaf)
			dot := 0.0
			for i := range v {
				v[i] = make([]float64, len(data[i]))
				for j := range v[i] {
					v[i][j] = 2*r.Float64() - 1
					dot += v[i][j] * gd[i][j]
				}
			}
			at := func(s float64) float64 {
				moved := make([][]float64, nleaf)
				for i := range moved {
					moved[i] = make([]float64, len(data[i]))
					for j := range moved[i] {
						moved[i][j] = data[i][j] + s*v[i][j]
					}
				}
				return loss(leaves(e, shapes, moved)).Item()
			}
			num := (at(h) - at(-h)) / (2 * h)
			if !closeTo(dot, num, 1e-5) {
				t.Fatalf("seed %d, shape %v, %s: directional derivative %v, finite differences %v",
					seed, shp, strings.Join(trail, " "), dot, num)
			}
		}
	}
}

// randomGradStep returns a random smooth op; leaf is a tensor of the
// original shape, which a step may combine with x after bringing x back to
// that shape.
func randomGradStep(r *rand.Rand) (string, func(x, leaf *Tensor) *Tensor) {
	k := r.Intn(16)
	seed := r.Int63()
	pick := func(x *Tensor) *rand.Rand { return rand.New(rand.NewSource(seed + int64(x.Numel()))) }
	switch k {
	case 0:
		return "sin", func(x, _ *Tensor) *Tensor { return x.Sin() }
	case 1:
		return "tanh", func(x, _ *Tensor) *Tensor { return x.Tanh() }
	case 2:
		return "square", func(x, _ *Tensor) *Tensor { return x.Square().Mul(0.5) }
	case 3:
		return "exp", func(x, _ *Tensor) *Tensor { return x.Mul(0.3).Exp() }
	case 4:
		return "mul leaf", func(x, leaf *Tensor) *Tensor { return x.Reshape(leaf.Shape()...).Mul(leaf) }
	case 5:
		return "add leaf", func(x, leaf *Tensor) *Tensor { return leaf.Sigmoid().Add(x.Reshape(leaf.Shape()...)) }
	case 6:
		return "permute", func(x, _ *Tensor) *Tensor {
			p := pick(x).Perm(x.Ndim())
			return x.Permute(p...)
		}
	case 7:
		return "reshape", func(x, _ *Tensor) *Tensor { return x.Reshape(factor(pick(x), x.Numel())...) }
	case 8:
		return "pad", func(x, _ *Tensor) *Tensor {
			r := pick(x)
			p := make([][2]int, x.Ndim())
			a := r.Intn(x.Ndim())
			p[a] = [2]int{r.Intn(2), 1 + r.Intn(2)}
			return x.Pad(p).Add(0.25).Shrink(window(x.Shape(), a, r.Intn(p[a][0]+p[a][1]+1)))
		}
	case 9:
		return "flip", func(x, _ *Tensor) *Tensor { return x.Flip(pick(x).Intn(x.Ndim())) }
	case 10:
		return "expand sum", func(x, _ *Tensor) *Tensor {
			a := pick(x).Intn(x.Ndim() + 1)
			shp := x.Unsqueeze(a).Shape()
			shp[a] = 3
			return x.Unsqueeze(a).Expand(shp...).Mul(e3(x, shp)).Sum([]int{a}, false)
		}
	case 11:
		return "softmax", func(x, _ *Tensor) *Tensor { return x.Softmax(pick(x).Intn(x.Ndim())) }
	case 13:
		return "matmul", func(x, _ *Tensor) *Tensor {
			n := x.Shape()[x.Ndim()-1]
			return x.Matmul(e3(x, []int{n, n}).Sub(0.4))
		}
	case 14:
		return "where", func(x, _ *Tensor) *Tensor { return x.Gt(0.1).Where(x.Sin(), x.Mul(2)) }
	case 15:
		return "rotate by cat", func(x, _ *Tensor) *Tensor {
			a := pick(x).Intn(x.Ndim())
			d := x.Shape()[a]
			if d < 2 {
				return x
			}
			k := 1 + pick(x).Intn(d-1)
			lo, hi := window(x.Shape(), a, 0), window(x.Shape(), a, 0)
			lo[a], hi[a] = [2]int{0, k}, [2]int{k, d}
			return x.Shrink(hi).Cat(a, x.Shrink(lo))
		}
	}
	return "max keepdim", func(x, _ *Tensor) *Tensor {
		a := pick(x).Intn(x.Ndim())
		return x.Sub(x.Max([]int{a}, true).Mul(0.5))
	}
}

// e3 returns fixed weights of shape shp, to tell the expanded copies apart.
func e3(x *Tensor, shp []int) *Tensor {
	d := make([]float64, prod(shp))
	for i := range d {
		d[i] = float64(i%5) * 0.2
	}
	return x.Engine().FromFloats(d, shp, Float64)
}

// window returns bounds of shape shp, moved by at along axis a.
func window(shp []int, a, at int) [][2]int {
	b := make([][2]int, len(shp))
	for i, d := range shp {
		b[i] = [2]int{0, d}
	}
	b[a] = [2]int{at, at + shp[a]}
	return b
}

// TestGradientAfterRead reads values of a marked model's graph (the loss,
// an exp, a max, a matmul) before taking gradients: the reads realize them
// but keep their history, so the gradients are those of an unread graph. An
// explicit Realize still makes a leaf.
func TestGradientAfterRead(t *testing.T) {
	for name, e := range engines(t) {
		t.Run(name, func(t *testing.T) {
			x := e.Rand([]int{3, 4}, 7)
			w := e.Rand([]int{4, 2}, 8).Add(-0.5).Realize().SetRequiresGrad(true)
			build := func(read bool) (loss *Tensor) {
				h := x.Matmul(w)
				if read {
					h.Floats()
				}
				m := h.Exp().Max([]int{1}, true)
				if read {
					m.Floats()
				}
				loss = m.Mul(h).Sum(nil, false)
				if read {
					loss.Item()
				}
				return loss
			}
			want := build(false).Gradient(w)[0].Floats()
			got := build(true).Gradient(w)[0].Floats()
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-5*math.Max(1, math.Abs(want[i])) {
					t.Fatalf("gradient element %d after reads = %v, without = %v", i, got[i], want[i])
				}
			}
			loss := build(true)
			loss.Backward()
			if g := w.Grad().Floats(); math.Abs(g[0]-want[0]) > 1e-5*math.Max(1, math.Abs(want[0])) {
				t.Errorf("backward after reading the loss: %v, want %v", g[0], want[0])
			}
			cut := x.Matmul(w).Sum(nil, false).Realize()
			if err := Catch(func() { cut.Gradient(w) }); err == nil {
				t.Error("Realize kept the graph: want a leaf")
			}
			// Unmarked targets: reading an intermediate value cuts part of
			// the graph. The target is still reached by another path, but
			// its gradient would be wrong: an error, not a wrong number.
			u := e.Rand([]int{4, 2}, 10).Realize()
			hu := x.Matmul(u)
			hu.Exp().Max([]int{1}, true).Floats()
			if err := Catch(func() { hu.Exp().Max([]int{1}, true).Mul(hu).Sum(nil, false).Gradient(u) }); err != nil {
				t.Errorf("a fresh graph after a read of an equal one: %v", err)
			}
			mx := hu.Exp().Max([]int{1}, true)
			mx.Floats()
			if err := Catch(func() { mx.Mul(hu).Sum(nil, false).Gradient(u) }); err == nil {
				t.Error("a read intermediate of an unmarked target: want an error, got a partial gradient")
			}
			// A realized input that does not depend on the target is fine.
			xr := x.Mul(2).Realize()
			if err := Catch(func() { xr.Matmul(u).Sum(nil, false).Gradient(u) }); err != nil {
				t.Errorf("a realized input independent of the target: %v", err)
			}
			// Unmarked tensors: a read makes a leaf, as before.
			v := e.Rand([]int{4}, 9).Realize()
			l := v.Sin().Sum(nil, true) // keepdim: a base, which the read realizes
			l.Item()
			if err := Catch(func() { l.Gradient(v) }); err == nil {
				t.Error("a read kept the graph of unmarked tensors")
			}
		})
	}
}

// TestDetach checks that no gradient flows through Detach, that a target
// reached only through it gets zeros (not an error), and that the detached
// tensor holds the same values, views included.
func TestDetach(t *testing.T) {
	e := cpuEngine(t)
	w := e.Rand([]int{2, 3}, 4).Realize()
	g := w.Mul(w.Detach()).Sum(nil, false).Gradient(w)[0].Floats()
	for i, v := range w.Floats() {
		if math.Abs(g[i]-v) > 1e-6 {
			t.Fatalf("d/dw sum(w * detach(w))[%d] = %v, want %v", i, g[i], v)
		}
	}
	if z := w.Detach().Mul(2).Sum(nil, false).Gradient(w)[0].Floats(); z[0] != 0 || z[5] != 0 {
		t.Errorf("gradient through detach only: %v, want zeros", z)
	}
	tw, dt := w.T().Floats(), w.T().Detach().Floats()
	for i := range tw {
		if tw[i] != dt[i] {
			t.Fatalf("detach of a view: element %d = %v, want %v", i, dt[i], tw[i])
		}
	}
	if w.SetRequiresGrad(true).Detach().RequiresGrad() {
		t.Error("a detached tensor requires grad")
	}
	// A detached computed tensor marked again is a leaf of its own: its
	// gradient is 2y, and nothing flows to w (backward used to follow the
	// view's missing parent).
	y := w.Mul(3).Detach().SetRequiresGrad(true)
	y.Mul(y).Sum(nil, false).Backward()
	for i, v := range y.Grad().Floats() {
		if want := 6 * w.Floats()[i]; math.Abs(v-want) > 1e-5 {
			t.Fatalf("grad of detach(3w) marked requires_grad [%d] = %v, want %v", i, v, want)
		}
	}
}

// TestDedupe checks that dedupe keeps the first of each node in order, by
// comparison for a few and by a set for many.
func TestDedupe(t *testing.T) {
	ns := make([]*lazy, 20)
	for i := range ns {
		ns[i] = &lazy{}
	}
	for _, n := range []int{3, 20} {
		var in, want []*lazy
		for i := range n {
			in = append(in, ns[i], ns[i/2])
			if !slices.Contains(want, ns[i]) {
				want = append(want, ns[i])
			}
			if !slices.Contains(want, ns[i/2]) {
				want = append(want, ns[i/2])
			}
		}
		if got := dedupe(in); !slices.Equal(got, want) {
			t.Errorf("%d nodes: got %d, want %d in order", n, len(got), len(want))
		}
	}
}
