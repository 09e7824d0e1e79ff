package tensor

import (
	"math"
	"slices"
	"testing"

	"tiny/internal/oracle"
)

// The oracle: 152 small programs computed by tinygrad (see
// ../shared/oracle/NOTES.md), replayed through the Go API.

type prog func(e *Engine, a, b *Tensor) *Tensor

var all []int = nil

func ax(a ...int) []int { return a }

// oraclePrograms maps each expression of the vectors to Go calls.
var oraclePrograms = map[string]prog{
	"a + b":                          func(e *Engine, a, b *Tensor) *Tensor { return a.Add(b) },
	"b - a":                          func(e *Engine, a, b *Tensor) *Tensor { return b.Sub(a) },
	"a * b":                          func(e *Engine, a, b *Tensor) *Tensor { return a.Mul(b) },
	"(a * 2 - 3) + a":                func(e *Engine, a, b *Tensor) *Tensor { return a.Mul(2).Sub(3).Add(a) },
	"-a + 4":                         func(e *Engine, a, b *Tensor) *Tensor { return a.Neg().Add(4) },
	"a * 0.5 + 1":                    func(e *Engine, a, b *Tensor) *Tensor { return a.Mul(0.5).Add(1) },
	"(a - b) * (a + b)":              func(e *Engine, a, b *Tensor) *Tensor { return a.Sub(b).Mul(a.Add(b)) },
	"(a - b) * 3":                    func(e *Engine, a, b *Tensor) *Tensor { return a.Sub(b).Mul(3) },
	"a * b - a":                      func(e *Engine, a, b *Tensor) *Tensor { return a.Mul(b).Sub(a) },
	"a + 2 * b":                      func(e *Engine, a, b *Tensor) *Tensor { return a.Add(b.Mul(2)) },
	"a + 0.5":                        func(e *Engine, a, b *Tensor) *Tensor { return a.Add(0.5) },
	"b * a - 1":                      func(e *Engine, a, b *Tensor) *Tensor { return b.Mul(a).Sub(1) },
	"a / b":                          func(e *Engine, a, b *Tensor) *Tensor { return a.Div(b) },
	"a / 4":                          func(e *Engine, a, b *Tensor) *Tensor { return a.Div(4) },
	"1 / b":                          func(e *Engine, a, b *Tensor) *Tensor { return b.RDiv(1) },
	"a / 3":                          func(e *Engine, a, b *Tensor) *Tensor { return a.Div(3) },
	"a == b":                         func(e *Engine, a, b *Tensor) *Tensor { return a.Eq(b) },
	"a < 1":                          func(e *Engine, a, b *Tensor) *Tensor { return a.Lt(1) },
	"a.maximum(0)":                   func(e *Engine, a, b *Tensor) *Tensor { return a.Maximum(0) },
	"a.maximum(b) - b.maximum(a)":    func(e *Engine, a, b *Tensor) *Tensor { return a.Maximum(b).Sub(b.Maximum(a)) },
	"(a < 0).where(0, a)":            func(e *Engine, a, b *Tensor) *Tensor { return a.Lt(0).Where(0, a) },
	"(b < a).where(a, 7)":            func(e *Engine, a, b *Tensor) *Tensor { return b.Lt(a).Where(a, 7) },
	"(a < b).where(a * 2, b - 1)":    func(e *Engine, a, b *Tensor) *Tensor { return a.Lt(b).Where(a.Mul(2), b.Sub(1)) },
	"-a":                             func(e *Engine, a, b *Tensor) *Tensor { return a.Neg() },
	"a.neg() + 1":                    func(e *Engine, a, b *Tensor) *Tensor { return a.Neg().Add(1) },
	"b.sqrt()":                       func(e *Engine, a, b *Tensor) *Tensor { return b.Sqrt() },
	"a.exp()":                        func(e *Engine, a, b *Tensor) *Tensor { return a.Exp() },
	"(a * 0.5).sin() + a":            func(e *Engine, a, b *Tensor) *Tensor { return a.Mul(0.5).Sin().Add(a) },
	"a.sin()":                        func(e *Engine, a, b *Tensor) *Tensor { return a.Sin() },
	"(a - 1).sigmoid()":              func(e *Engine, a, b *Tensor) *Tensor { return a.Sub(1).Sigmoid() },
	"a.sigmoid()":                    func(e *Engine, a, b *Tensor) *Tensor { return a.Sigmoid() },
	"a.relu() + a.sigmoid()":         func(e *Engine, a, b *Tensor) *Tensor { return a.Relu().Add(a.Sigmoid()) },
	"a.relu()":                       func(e *Engine, a, b *Tensor) *Tensor { return a.Relu() },
	"(a - 2).relu() * 2":             func(e *Engine, a, b *Tensor) *Tensor { return a.Sub(2).Relu().Mul(2) },
	"a.reshape(12, 3).permute(1, 0)": func(e *Engine, a, b *Tensor) *Tensor { return a.Reshape(12, 3).Permute(1, 0) },
	"a.reshape(1, 1, 3).permute(1, 2, 0).reshape(1, 3) * 2": func(e *Engine, a, b *Tensor) *Tensor {
		return a.Reshape(1, 1, 3).Permute(1, 2, 0).Reshape(1, 3).Mul(2)
	},
	"a.reshape(2, 1, 1).permute(2, 0, 1) + 1": func(e *Engine, a, b *Tensor) *Tensor { return a.Reshape(2, 1, 1).Permute(2, 0, 1).Add(1) },
	"a.reshape(2, 4, 3).permute(1, 2, 0).reshape(4, 6) * 2": func(e *Engine, a, b *Tensor) *Tensor {
		return a.Reshape(2, 4, 3).Permute(1, 2, 0).Reshape(4, 6).Mul(2)
	},
	"a.reshape(1, 1).expand(4, 1) * b":               func(e *Engine, a, b *Tensor) *Tensor { return a.Reshape(1, 1).Expand(4, 1).Mul(b) },
	"a.reshape(5, 1).expand(5, 2) + b.permute(1, 0)": func(e *Engine, a, b *Tensor) *Tensor { return a.Reshape(5, 1).Expand(5, 2).Add(b.Permute(1, 0)) },
	"a.reshape(1, 5).expand(1, 5) * b":               func(e *Engine, a, b *Tensor) *Tensor { return a.Reshape(1, 5).Expand(1, 5).Mul(b) },
	"a.reshape(1, 3).expand(2, 3) * b":               func(e *Engine, a, b *Tensor) *Tensor { return a.Reshape(1, 3).Expand(2, 3).Mul(b) },
	"a.pad(((1, 1), (2, 1)), value=-1)":              func(e *Engine, a, b *Tensor) *Tensor { return a.Pad([][2]int{{1, 1}, {2, 1}}, -1) },
	"a.pad(((0, 2), (1, 2)))":                        func(e *Engine, a, b *Tensor) *Tensor { return a.Pad([][2]int{{0, 2}, {1, 2}}) },
	"a.pad(((0, 2), (2, 2)), value=-1)":              func(e *Engine, a, b *Tensor) *Tensor { return a.Pad([][2]int{{0, 2}, {2, 2}}, -1) },
	"a.pad(((2, 2), (1, 1)), value=-1)":              func(e *Engine, a, b *Tensor) *Tensor { return a.Pad([][2]int{{2, 2}, {1, 1}}, -1) },
	"a.shrink(((2, 3), (0, 1)))":                     func(e *Engine, a, b *Tensor) *Tensor { return a.Shrink([][2]int{{2, 3}, {0, 1}}) },
	"a.shrink(((0, 3), (0, 1)))":                     func(e *Engine, a, b *Tensor) *Tensor { return a.Shrink([][2]int{{0, 3}, {0, 1}}) },
	"a.shrink(((0, 3), (1, 2)))":                     func(e *Engine, a, b *Tensor) *Tensor { return a.Shrink([][2]int{{0, 3}, {1, 2}}) },
	"a.flip((0, 1))":                                 func(e *Engine, a, b *Tensor) *Tensor { return a.Flip(0, 1) },
	"a.flip(0)":                                      func(e *Engine, a, b *Tensor) *Tensor { return a.Flip(0) },
	"a.flip(1) - a":                                  func(e *Engine, a, b *Tensor) *Tensor { return a.Flip(1).Sub(a) },
	"a[::2]":                                         func(e *Engine, a, b *Tensor) *Tensor { return a.Index(Slice(nil, nil, 2)) },
	"a[1]":                                           func(e *Engine, a, b *Tensor) *Tensor { return a.Index(Int(1)) },
	"a[::3, ::-2]":                                   func(e *Engine, a, b *Tensor) *Tensor { return a.Index(Slice(nil, nil, 3), Slice(nil, nil, -2)) },
	"a[:, 1:][::2]": func(e *Engine, a, b *Tensor) *Tensor {
		return a.Index(Slice(nil, nil, 1), Slice(1, nil, 1)).Index(Slice(nil, nil, 2))
	},
	"a.sum(axis=0, keepdim=True)":   func(e *Engine, a, b *Tensor) *Tensor { return a.Sum(ax(0), true) },
	"a.sum()":                       func(e *Engine, a, b *Tensor) *Tensor { return a.Sum(all, false) },
	"a.sum(axis=0)":                 func(e *Engine, a, b *Tensor) *Tensor { return a.Sum(ax(0), false) },
	"a.sum(axis=(0, 1))":            func(e *Engine, a, b *Tensor) *Tensor { return a.Sum(ax(0, 1), false) },
	"a.min(axis=0) + a.max(axis=0)": func(e *Engine, a, b *Tensor) *Tensor { return a.Min(ax(0), false).Add(a.Max(ax(0), false)) },
	"a.min()":                       func(e *Engine, a, b *Tensor) *Tensor { return a.Min(all, false) },
	"a.mean(axis=0, keepdim=True)":  func(e *Engine, a, b *Tensor) *Tensor { return a.Mean(ax(0), true) },
	"a.mean(axis=0)":                func(e *Engine, a, b *Tensor) *Tensor { return a.Mean(ax(0), false) },
	"a.mean()":                      func(e *Engine, a, b *Tensor) *Tensor { return a.Mean(all, false) },
	"a @ b":                         func(e *Engine, a, b *Tensor) *Tensor { return a.Matmul(b) },
	"a.softmax()":                   func(e *Engine, a, b *Tensor) *Tensor { return a.Softmax(-1) },
	"(a * 0.5).softmax(axis=1)":     func(e *Engine, a, b *Tensor) *Tensor { return a.Mul(0.5).Softmax(1) },
	"a.cat(b, a, dim=1)":            func(e *Engine, a, b *Tensor) *Tensor { return a.Cat(1, b, a) },
	"Tensor.stack(a, b, dim=0)":     func(e *Engine, a, b *Tensor) *Tensor { return Stack(0, a, b) },
	"Tensor.arange(12).reshape(2, 6) + a": func(e *Engine, a, b *Tensor) *Tensor {
		return e.Arange(0, 12, 1).Reshape(2, 6).Add(a)
	},
	"Tensor.arange(4).reshape(2, 2) + a":     func(e *Engine, a, b *Tensor) *Tensor { return e.Arange(0, 4, 1).Reshape(2, 2).Add(a) },
	"Tensor.arange(2, 20, 3) * a[0]":         func(e *Engine, a, b *Tensor) *Tensor { return e.Arange(2, 20, 3).Mul(a.Index(Int(0))) },
	"a @ Tensor.eye(2)":                      func(e *Engine, a, b *Tensor) *Tensor { return a.Matmul(e.Eye(2, 2)) },
	"Tensor.eye(4) * a":                      func(e *Engine, a, b *Tensor) *Tensor { return e.Eye(4, 4).Mul(a) },
	"Tensor.eye(4, 5)":                       func(e *Engine, a, b *Tensor) *Tensor { return e.Eye(4, 5) },
	"Tensor.eye(3) * a":                      func(e *Engine, a, b *Tensor) *Tensor { return e.Eye(3, 3).Mul(a) },
	"Tensor.full((4, 4), 7) * a":             func(e *Engine, a, b *Tensor) *Tensor { return e.Full([]int{4, 4}, 7, Int32).Mul(a) },
	"Tensor.full((5, 1), 7) * a":             func(e *Engine, a, b *Tensor) *Tensor { return e.Full([]int{5, 1}, 7, Int32).Mul(a) },
	"Tensor.ones(5, 1) + a":                  func(e *Engine, a, b *Tensor) *Tensor { return e.Ones(Float32, 5, 1).Add(a) },
	"Tensor.zeros(2, 3) - a":                 func(e *Engine, a, b *Tensor) *Tensor { return e.Zeros(Float32, 2, 3).Sub(a) },
	"b.cast(dtypes.bool).cast(dtypes.int32)": func(e *Engine, a, b *Tensor) *Tensor { return b.Cast(Bool).Cast(Int32) },
	"a.cast(dtypes.bool)":                    func(e *Engine, a, b *Tensor) *Tensor { return a.Cast(Bool) },
	"a.cast(dtypes.int32).cast(dtypes.float32) * 2": func(e *Engine, a, b *Tensor) *Tensor {
		return a.Cast(Int32).Cast(Float32).Mul(2)
	},
	"a.cumsum(axis=0)":                      func(e *Engine, a, b *Tensor) *Tensor { return a.Cumsum(0) },
	"a.cumsum(axis=1).sum(axis=0)":          func(e *Engine, a, b *Tensor) *Tensor { return a.Cumsum(1).Sum(ax(0), false) },
	"a.cumsum(1)":                           func(e *Engine, a, b *Tensor) *Tensor { return a.Cumsum(1) },
	"((a * 2 + b.permute(1, 0)) * a).sum()": func(e *Engine, a, b *Tensor) *Tensor { return a.Mul(2).Add(b.Permute(1, 0)).Mul(a).Sum(all, false) },
	"(a @ b).relu().sum(axis=1)":            func(e *Engine, a, b *Tensor) *Tensor { return a.Matmul(b).Relu().Sum(ax(1), false) },
	"a.pad(((1, 1), (0, 0)))[1:3] + 1": func(e *Engine, a, b *Tensor) *Tensor {
		return a.Pad([][2]int{{1, 1}, {0, 0}}).Index(Slice(1, 3, 1)).Add(1)
	},
	"(a.exp() / a.exp().sum()).max()": func(e *Engine, a, b *Tensor) *Tensor { return a.Exp().Div(a.Exp().Sum(all, false)).Max(all, false) },
	"a.softmax().sum(axis=1)":         func(e *Engine, a, b *Tensor) *Tensor { return a.Softmax(-1).Sum(ax(1), false) },
	"a.reshape(1, 2, 3).expand(2, 2, 3).permute(2, 0, 1).reshape(3, 4)": func(e *Engine, a, b *Tensor) *Tensor {
		return a.Reshape(1, 2, 3).Expand(2, 2, 3).Permute(2, 0, 1).Reshape(3, 4)
	},
	"a.reshape(1, 4, 4).expand(2, 4, 4).permute(2, 0, 1).reshape(4, 8)": func(e *Engine, a, b *Tensor) *Tensor {
		return a.Reshape(1, 4, 4).Expand(2, 4, 4).Permute(2, 0, 1).Reshape(4, 8)
	},
	"a.flip(0).permute(1, 0).reshape(12, 1).expand(12, 2)": func(e *Engine, a, b *Tensor) *Tensor {
		return a.Flip(0).Permute(1, 0).Reshape(12, 1).Expand(12, 2)
	},
	"a.flip(0).permute(1, 0).reshape(4, 1).expand(4, 2)": func(e *Engine, a, b *Tensor) *Tensor {
		return a.Flip(0).Permute(1, 0).Reshape(4, 1).Expand(4, 2)
	},
	"a.max(axis=1, keepdim=True)":       func(e *Engine, a, b *Tensor) *Tensor { return a.Max(ax(1), true) },
	"a.sum(axis=(0, 2))":                func(e *Engine, a, b *Tensor) *Tensor { return a.Sum(ax(0, 2), false) },
	"a.min(axis=(1, 2))":                func(e *Engine, a, b *Tensor) *Tensor { return a.Min(ax(1, 2), false) },
	"a.cast(dtypes.bool).where(a, -1)":  func(e *Engine, a, b *Tensor) *Tensor { return a.Cast(Bool).Where(a, -1) },
	"(a * 0.25).cast(dtypes.int32) * 4": func(e *Engine, a, b *Tensor) *Tensor { return a.Mul(0.25).Cast(Int32).Mul(4) },
}

// oracleTensor makes an input of the vectors a tensor of e.
func oracleTensor(e *Engine, o oracle.Array) *Tensor {
	d, _ := ParseDType(o.DType)
	return e.FromFloats(o.Data, o.Shape, d)
}

func TestOracle(t *testing.T) {
	es := engines(t)
	prebuildGPU(t, es, runOracle)
	for name, e := range es {
		t.Run(name, func(t *testing.T) { runOracle(t, e) })
	}
}

func runOracle(t *testing.T, e *Engine) {
	cases := oracle.TensorCases(t)
	pass := 0
	for _, c := range cases {
		p, ok := oraclePrograms[c.Expr]
		if !ok {
			t.Errorf("%s: no program for %q", c.ID, c.Expr)
			continue
		}
		var a, b *Tensor
		if in, ok := c.Inputs["a"]; ok {
			a = oracleTensor(e, in)
		}
		if in, ok := c.Inputs["b"]; ok {
			b = oracleTensor(e, in)
		}
		var got *Tensor
		err := Catch(func() { got = p(e, a, b) })
		if err != nil {
			t.Errorf("%s %q: %v", c.ID, c.Expr, err)
			continue
		}
		if msg := compareOracle(got, c); msg != "" {
			t.Errorf("%s %q: %s", c.ID, c.Expr, msg)
			continue
		}
		pass++
	}
	t.Logf("oracle: %d/%d", pass, len(cases))
}

func compareOracle(got *Tensor, c oracle.TensorCase) string {
	want := c.Result
	if !slices.Equal(got.Shape(), want.Shape) {
		return "shape " + FormatShape(got.Shape()) + ", want " + FormatShape(want.Shape)
	}
	if got.DType().String() != want.DType {
		return "dtype " + got.DType().String() + ", want " + want.DType
	}
	vals := got.Floats()
	for i, w := range want.Data {
		g := vals[i]
		if c.Exact {
			if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
				return fmtMismatch(i, g, w, vals, want.Data)
			}
			continue
		}
		if math.IsNaN(w) != math.IsNaN(g) || math.Abs(g-w) > c.Tolerance.Atol+c.Tolerance.Rtol*math.Abs(w) {
			return fmtMismatch(i, g, w, vals, want.Data)
		}
	}
	return ""
}
