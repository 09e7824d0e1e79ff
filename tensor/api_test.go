package tensor

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"tiny/codegen"
)

func TestAPI(t *testing.T) {
	e := cpuEngine(t)
	i := e.FromData([][]int{{1, -2, 3}, {-4, 5, -6}})
	f := e.FromData([]float64{-1.5, -0.5, 0.5, 1.5, 2.5})
	bo := e.FromData([]bool{true, false, true})
	cases := []struct {
		name  string
		t     *Tensor
		shape []int
		dtype DType
		want  []float64
	}{
		{"int*2", i.Mul(2), []int{2, 3}, Int32, []float64{2, -4, 6, -8, 10, -12}},
		{"int*2.5", i.Mul(2.5).Index(Int(0)), []int{3}, Float32, []float64{2.5, -5, 7.5}},
		{"int/int", i.Div(i.Abs()).Index(Int(0)), []int{3}, Float32, []float64{1, -1, 1}},
		{"floordiv", i.FloorDiv(4), []int{2, 3}, Int32, []float64{0, -1, 0, -1, 1, -2}},
		{"mod", i.Mod(4), []int{2, 3}, Int32, []float64{1, 2, 3, 0, 1, 2}},
		{"mod neg", i.Mod(-4).Index(Int(0)), []int{3}, Int32, []float64{-3, -2, -1}},
		{"float floordiv", f.FloorDiv(1.0), []int{5}, Float32, []float64{-2, -1, 0, 1, 2}},
		{"float mod", f.Mod(2.0), []int{5}, Float32, []float64{0.5, 1.5, 0.5, 1.5, 0.5}},
		{"bool+bool", bo.Add(bo.Not()), []int{3}, Bool, []float64{1, 1, 1}},
		{"bool+int", bo.Add(1), []int{3}, Int32, []float64{2, 1, 2}},
		{"bool*2.0", bo.Mul(2.0), []int{3}, Float32, []float64{2, 0, 2}},
		{"sum bool", bo.Sum(nil, false), []int{}, Int32, []float64{2}},
		{"sum axis -1 keep", i.Sum([]int{-1}, true), []int{2, 1}, Int32, []float64{2, -5}},
		{"mean int", i.Mean(nil, false), []int{}, Float32, []float64{-0.5}},
		{"prod", i.Prod([]int{0}, false), []int{3}, Int32, []float64{-4, -10, -18}},
		{"max", i.Max([]int{1}, false), []int{2}, Int32, []float64{3, 5}},
		{"min", i.Min(nil, false), []int{}, Int32, []float64{-6}},
		{"argmax", i.Argmax([]int{1}, false), []int{2}, Int32, []float64{2, 1}},
		{"argmax flat", i.Argmax(nil, false), []int{}, Int32, []float64{4}},
		{"argmin", i.Argmin([]int{0}, true), []int{1, 3}, Int32, []float64{1, 0, 1}},
		{"argmax ties", e.FromData([]int{3, 1, 3}).Argmax(nil, false), []int{}, Int32, []float64{0}},
		{"var", e.FromData([]float64{1, 2, 3, 4}).Var(nil, false), []int{}, Float32, []float64{float64(float32(5.0 / 3))}},
		{"std", e.FromData([]float64{2, 4, 4, 4, 5, 5, 7, 9}).Std(nil, false), []int{}, Float32, []float64{float64(float32(math.Sqrt(32.0 / 7)))}},
		{"cumsum", i.Cumsum(1), []int{2, 3}, Int32, []float64{1, -1, 2, -4, 1, -5}},
		{"cumsum 0", i.Cumsum(0), []int{2, 3}, Int32, []float64{1, -2, 3, -3, 3, -3}},
		{"round", f.Round(), []int{5}, Float32, []float64{-2, -0, 0, 2, 2}},
		{"floor", f.Floor(), []int{5}, Float32, []float64{-2, -1, 0, 1, 2}},
		{"ceil", f.Ceil(), []int{5}, Float32, []float64{-1, -0, 1, 2, 3}},
		{"trunc big", e.FromData([]float64{1e10, -3.7}).Trunc(), []int{2}, Float32, []float64{1e10, -3}},
		{"clip", i.Clip(-2, 2), []int{2, 3}, Int32, []float64{1, -2, 2, -2, 2, -2}},
		{"minimum", i.Minimum(0), []int{2, 3}, Int32, []float64{0, -2, 0, -4, 0, -6}},
		{"abs", i.Abs(), []int{2, 3}, Int32, []float64{1, 2, 3, 4, 5, 6}},
		{"sign", f.Sign(), []int{5}, Float32, []float64{-1, -1, 1, 1, 1}},
		{"square", i.Square(), []int{2, 3}, Int32, []float64{1, 4, 9, 16, 25, 36}},
		{"pow 3", i.Pow(3).Index(Int(0)), []int{3}, Int32, []float64{1, -8, 27}},
		{"pow -1", e.FromData([]float64{2, 4}).Pow(-1), []int{2}, Float32, []float64{0.5, 0.25}},
		{"rpow", e.FromData([]int{0, 1, 3}).RPow(2), []int{3}, Float32, []float64{1, 2, 8}}, // tinygrad: e**(t*ln 2)
		{"where scalars", bo.Where(1, 0), []int{3}, Int32, []float64{1, 0, 1}},
		{"where float", bo.Where(1.5, i.Index(Int(0))), []int{3}, Float32, []float64{1.5, -2, 1.5}},
		{"compare", i.Ge(1).Index(Int(0)), []int{3}, Bool, []float64{1, 0, 1}},
		{"ne", i.Ne(1).Index(Int(0)), []int{3}, Bool, []float64{0, 1, 1}},
		{"le", i.Le(1).Index(Int(0)), []int{3}, Bool, []float64{1, 1, 0}},
		{"and", bo.And(bo.Not().Not()), []int{3}, Bool, []float64{1, 0, 1}},
		{"xor ints", e.FromData([]int{5, 3}).Xor(1), []int{2}, Int32, []float64{4, 2}},
		{"neg bool", bo.Neg(), []int{3}, Bool, []float64{0, 1, 0}},
		{"cast float int", f.Cast(Int32), []int{5}, Int32, []float64{-1, 0, 0, 1, 2}},
		{"int64", i.Cast(Int64).Mul(1<<20).Mul(1<<20).Index(Int(1), Int(0)), []int{}, Int64, []float64{-4 * (1 << 40)}},
		{"uint8", e.FromData([]int{250, 3}, Uint8).Add(10), []int{2}, Uint8, []float64{4, 13}},
		{"float16", e.FromData([]float64{0.1, 1000}).Cast(Float16).Mul(2), []int{2}, Float16, []float64{float64(codegen.HalfToFloat(codegen.FloatToHalf(0.2))), 2000}},
		{"float64", e.FromData([]float64{1, 2}).Cast(Float64).Div(3).Index(Int(0)), []int{}, Float64, []float64{1.0 / 3}},
		{"linspace", e.Linspace(0, 1, 5), []int{5}, Float32, []float64{0, 0.25, 0.5, 0.75, 1}},
		{"arange float", e.Arange(0, 1, 0.25), []int{4}, Float32, []float64{0, 0.25, 0.5, 0.75}},
		{"arange neg", e.Arange(5, 0, -2), []int{3}, Int32, []float64{5, 3, 1}},
		{"eye 2x3", e.Eye(2, 3), []int{2, 3}, Float32, []float64{1, 0, 0, 0, 1, 0}},
		{"eye 3x2", e.Eye(3, 2), []int{3, 2}, Float32, []float64{1, 0, 0, 1, 0, 0}},
		{"full", e.Full([]int{2}, 7, Int32), []int{2}, Int32, []float64{7, 7}},
		{"ones_like", i.OnesLike().Sum(nil, false), []int{}, Int32, []float64{6}},
		{"zeros_like", f.ZerosLike(), []int{5}, Float32, []float64{0, 0, 0, 0, 0}},
		{"T", i.T(), []int{3, 2}, Int32, []float64{1, -4, -2, 5, 3, -6}},
		{"transpose", i.Transpose(-1, 0), []int{3, 2}, Int32, []float64{1, -4, -2, 5, 3, -6}},
		{"flatten", i.Reshape(1, 2, 3).Flatten(1), []int{1, 6}, Int32, []float64{1, -2, 3, -4, 5, -6}},
		{"squeeze", i.Reshape(1, 2, 1, 3).Squeeze(), []int{2, 3}, Int32, []float64{1, -2, 3, -4, 5, -6}},
		{"squeeze axis", i.Reshape(1, 2, 1, 3).Squeeze(2), []int{1, 2, 3}, Int32, []float64{1, -2, 3, -4, 5, -6}},
		{"unsqueeze", i.Unsqueeze(-1), []int{2, 3, 1}, Int32, []float64{1, -2, 3, -4, 5, -6}},
		{"reshape -1", i.Reshape(-1), []int{6}, Int32, []float64{1, -2, 3, -4, 5, -6}},
		{"expand -1", e.FromData([]int{1, 2}).Reshape(2, 1).Expand(-1, 2), []int{2, 2}, Int32, []float64{1, 1, 2, 2}},
		{"index newaxis", i.Index(Int(-1), NewAxis, Slice(nil, nil, -1)), []int{1, 3}, Int32, []float64{-6, 5, -4}},
		{"index ellipsis", i.Index(Ellipsis, Int(1)), []int{2}, Int32, []float64{-2, 5}},
		{"index neg slice", i.Index(Slice(nil, nil, 1), Slice(-1, 0, -1)), []int{2, 2}, Int32, []float64{3, -2, -6, 5}},
		{"index empty", i.Index(Slice(2, 1, 1)), []int{0, 3}, Int32, nil},
		{"stack 1", Stack(1, f.Index(Slice(0, 2, 1)), f.Index(Slice(2, 4, 1))), []int{2, 2}, Float32, []float64{-1.5, 0.5, -0.5, 1.5}},
		{"cat bool", bo.Cat(0, bo), []int{6}, Bool, []float64{1, 0, 1, 1, 0, 1}},
		{"matvec", i.Matmul(e.FromData([]int{1, 1, 1})), []int{2}, Int32, []float64{2, -5}},
		{"vecmat", e.FromData([]int{1, 1}).Matmul(i), []int{3}, Int32, []float64{-3, 3, -3}},
		{"batched", e.Ones(Float32, 4, 2, 3).Matmul(e.Ones(Float32, 3, 5)).Sum(nil, false), []int{}, Float32, []float64{120}},
		{"dot vv", e.FromData([]int{1, 2}).Dot(e.FromData([]int{3, 4})), []int{}, Int32, []float64{11}},
		{"softmax sums", e.Rand([]int{3, 7}, 1).Softmax(0).Sum([]int{0}, false).Round(), []int{7}, Float32, []float64{1, 1, 1, 1, 1, 1, 1}},
		{"log_softmax", e.FromData([]float64{0, 0}).LogSoftmax(-1).Mul(1000).Round(), []int{2}, Float32, []float64{-693, -693}},
		{"contiguous", i.T().Contiguous().Reshape(6), []int{6}, Int32, []float64{1, -4, -2, 5, 3, -6}},
		{"scalar", e.Scalar(3, Int32).Add(i).Index(Int(0), Int(0)), []int{}, Int32, []float64{4}},
		{"sum empty", e.Zeros(Float32, 0, 3).Sum([]int{0}, false), []int{3}, Float32, []float64{0, 0, 0}},
	}
	for _, c := range cases {
		if !slices.Equal(c.t.Shape(), c.shape) || c.t.DType() != c.dtype {
			t.Errorf("%s: %s %s, want %s %s", c.name, FormatShape(c.t.Shape()), c.t.DType(), FormatShape(c.shape), c.dtype)
			continue
		}
		got := c.t.Floats()
		if len(got) != len(c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
			continue
		}
		for k := range got {
			if got[k] != c.want[k] && math.Abs(got[k]-c.want[k]) > 1e-6*math.Abs(c.want[k])+1e-6 {
				t.Errorf("%s: got %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}

func TestMath(t *testing.T) {
	e := cpuEngine(t)
	xs := []float64{-2, -0.5, 0.1, 0.7, 1.5, 3}
	x := e.FromData(xs)
	fns := []struct {
		name string
		t    *Tensor
		f    func(float64) float64
	}{
		{"exp", x.Exp(), math.Exp},
		{"log", x.Abs().Log(), func(v float64) float64 { return math.Log(math.Abs(v)) }},
		{"sin", x.Sin(), math.Sin},
		{"cos", x.Cos(), math.Cos},
		{"tan", x.Tan(), math.Tan},
		{"sqrt", x.Abs().Sqrt(), func(v float64) float64 { return math.Sqrt(math.Abs(v)) }},
		{"rsqrt", x.Abs().Rsqrt(), func(v float64) float64 { return 1 / math.Sqrt(math.Abs(v)) }},
		{"sigmoid", x.Sigmoid(), func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }},
		{"tanh", x.Tanh(), math.Tanh},
		{"gelu", x.Gelu(), func(v float64) float64 {
			return 0.5 * v * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(v+0.044715*v*v*v)))
		}},
		{"relu", x.Relu(), func(v float64) float64 { return math.Max(v, 0) }},
		{"reciprocal", x.Reciprocal(), func(v float64) float64 { return 1 / v }},
		{"pow 0.5", x.Abs().Pow(0.5), func(v float64) float64 { return math.Sqrt(math.Abs(v)) }},
		{"pow tensor", x.Pow(e.Full([]int{6}, 3, Float32).Add(0.0)), func(v float64) float64 { return v * v * v }},
		{"exp2", x.Exp2(), math.Exp2},
		{"log2", x.Abs().Log2(), func(v float64) float64 { return math.Log2(math.Abs(v)) }},
	}
	for _, c := range fns {
		got := c.t.Floats()
		for k, v := range xs {
			w := c.f(v)
			if math.Abs(got[k]-w) > 1e-5+1e-5*math.Abs(w) {
				t.Errorf("%s(%v) = %v, want %v", c.name, v, got[k], w)
			}
		}
	}
}

func TestReadAndCreate(t *testing.T) {
	e := cpuEngine(t)
	x := e.FromData([][]int{{1, 2}, {3, 4}})
	if got := x.ToList(); !reflect.DeepEqual(got, []any{[]any{int64(1), int64(2)}, []any{int64(3), int64(4)}}) {
		t.Errorf("ToList = %#v", got)
	}
	if got := e.FromData([]bool{true}).ToList(); !reflect.DeepEqual(got, []any{true}) {
		t.Errorf("ToList bool = %#v", got)
	}
	if v := x.Sum(nil, false).Value(); v != int64(10) {
		t.Errorf("Value = %#v", v)
	}
	if v := x.Float().Mean(nil, false).Item(); v != 2.5 {
		t.Errorf("Item = %v", v)
	}
	if got := x.Index(Int(1)).Ints(); !reflect.DeepEqual(got, []int64{3, 4}) {
		t.Errorf("Ints = %v", got)
	}
	if got := e.Zeros(Int32, 2, 0).ToList(); !reflect.DeepEqual(got, []any{[]any{}, []any{}}) {
		t.Errorf("empty ToList = %#v", got)
	}
	if x.Numel() != 4 || x.Ndim() != 2 || x.Device() != e.DeviceName() {
		t.Errorf("numel %d ndim %d device %s", x.Numel(), x.Ndim(), x.Device())
	}
	r1, r2 := e.Rand([]int{5}, 7).Floats(), e.Rand([]int{5}, 7).Floats()
	if !reflect.DeepEqual(r1, r2) {
		t.Errorf("rand with a seed is not deterministic")
	}
	e.ManualSeed(3)
	a := e.Randn([]int{1000}).Floats()
	e.ManualSeed(3)
	b := e.Randn([]int{1000}).Floats()
	c := e.Randn([]int{1000}).Floats()
	if !reflect.DeepEqual(a, b) || reflect.DeepEqual(b, c) {
		t.Errorf("manual_seed does not reset the random state")
	}
	mean, sq := 0.0, 0.0
	for _, v := range a {
		mean += v / 1000
		sq += v * v / 1000
	}
	if math.Abs(mean) > 0.15 || math.Abs(sq-1) > 0.15 {
		t.Errorf("randn mean %v, E[x^2] %v", mean, sq)
	}
	for _, v := range e.Rand([]int{1000}).Floats() {
		if v < 0 || v >= 1 {
			t.Fatalf("rand value %v outside [0, 1)", v)
		}
	}
	if got := e.FromData([]any{1, 2.5}).DType(); got != Float32 {
		t.Errorf("mixed data dtype %s", got)
	}
	if got := e.FromData([]int{1}, Float64).DType(); got != Float64 {
		t.Errorf("explicit dtype %s", got)
	}
}

func TestRankZero(t *testing.T) {
	e := cpuEngine(t)
	s := e.FromData(3.5)
	cases := []struct {
		t    *Tensor
		want float64
	}{
		{s.Add(1), 4.5},
		{s.Sum(nil, false), 3.5},
		{s.Sum(nil, true), 3.5},
		{s.Mul(s).Sqrt(), 3.5},
		{s.Reshape(1, 1).Expand(2, 3).Sum(nil, false), 21},
		{s.Max(nil, false).Add(e.Scalar(1, Float32)), 4.5},
		{e.Scalar(2, Int32).Add(3).Cast(Float32), 5},
		{s.Cumsum(0), 3.5},
	}
	for i, c := range cases {
		if got := c.t.Item(); got != c.want {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
	}
	if got := e.FromData([]int{1, 2, 3}).Index(Int(1)).String(); got != "tensor(2, dtype=int32)" {
		t.Errorf("scalar index prints %q", got)
	}
}
