package tensor

import (
	"math"
	"testing"
)

// Every dtype through the integer-exact ops, on the CPU device, the
// reference device and the AST evaluator: the three must agree bit for
// bit.
func TestDTypesAgree(t *testing.T) {
	cpu, ref, ast := cpuEngine(t), refDeviceEngine(t), astEngine()
	data := []float64{-3, -1, 0, 1, 2, 5, 7, 100}
	ops := map[string]func(a, b *Tensor) *Tensor{
		"add":      func(a, b *Tensor) *Tensor { return a.Add(b) },
		"sub":      func(a, b *Tensor) *Tensor { return a.Sub(b) },
		"mul":      func(a, b *Tensor) *Tensor { return a.Mul(b) },
		"maximum":  func(a, b *Tensor) *Tensor { return a.Maximum(b) },
		"minimum":  func(a, b *Tensor) *Tensor { return a.Minimum(b) },
		"lt":       func(a, b *Tensor) *Tensor { return a.Lt(b) },
		"eq":       func(a, b *Tensor) *Tensor { return a.Eq(b) },
		"where":    func(a, b *Tensor) *Tensor { return a.Gt(b).Where(a, b) },
		"neg":      func(a, b *Tensor) *Tensor { return a.Neg() },
		"abs":      func(a, b *Tensor) *Tensor { return a.Abs() },
		"sum":      func(a, b *Tensor) *Tensor { return a.Sum(nil, false) },
		"max":      func(a, b *Tensor) *Tensor { return a.Max(nil, false) },
		"min":      func(a, b *Tensor) *Tensor { return a.Min(nil, false) },
		"prod":     func(a, b *Tensor) *Tensor { return a.Shrink([][2]int{{0, 4}}).Prod(nil, false) },
		"cumsum":   func(a, b *Tensor) *Tensor { return a.Cumsum(0) },
		"argmax":   func(a, b *Tensor) *Tensor { return a.Argmax(nil, false) },
		"cast f32": func(a, b *Tensor) *Tensor { return a.Cast(Float32) },
		"cast i32": func(a, b *Tensor) *Tensor { return a.Cast(Int32) },
		"cast b":   func(a, b *Tensor) *Tensor { return a.Cast(Bool) },
		"matmul":   func(a, b *Tensor) *Tensor { return a.Reshape(2, 4).Matmul(b.Reshape(4, 2)) },
		"pad":      func(a, b *Tensor) *Tensor { return a.Pad([][2]int{{1, 2}}, 1) },
		"cat":      func(a, b *Tensor) *Tensor { return a.Cat(0, b.Flip(0)) },
	}
	for _, d := range []DType{Bool, Uint8, Int32, Int64, Float16, Float32, Float64} {
		for name, op := range ops {
			if d == Bool && name == "sub" {
				continue
			}
			var got [3][]float64
			for i, e := range []*Engine{cpu, ref, ast} {
				a := e.FromFloats(data, []int{8}, d)
				b := e.FromFloats(data, []int{8}, d).Flip(0)
				err := Catch(func() { got[i] = op(a, b).Floats() })
				if err != nil {
					t.Fatalf("%s %s: %v", d, name, err)
				}
			}
			for k := range got[0] {
				if math.Float64bits(got[0][k]) != math.Float64bits(got[1][k]) || math.Float64bits(got[0][k]) != math.Float64bits(got[2][k]) {
					t.Errorf("%s %s: cpu %v, reference device %v, AST evaluator %v", d, name, got[0], got[1], got[2])
					break
				}
			}
		}
	}
}

// Float to integer casts give what NumPy's astype and torch's to() give on
// x86-64 (values printed by both), on every engine, whether the float is
// computed in a kernel, a constant folded when the kernel is built, or
// data written into an integer tensor: -2**31 for what int32 cannot hold
// (NaN and the infinities too), and its low bits for the narrower dtypes.
func TestCastOutOfRange(t *testing.T) {
	in := []float64{1e30, -1e30, 3.7, -3.7, 300, 70000, 3e9, -3e9, math.NaN(), math.Inf(1)}
	want := map[DType][]float64{
		Int32: {math.MinInt32, math.MinInt32, 3, -3, 300, 70000, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32},
		Uint8: {0, 0, 3, 253, 44, 112, 0, 0, 0, 0},
		Int8:  {0, 0, 3, -3, 44, 112, 0, 0, 0, 0},
		Int16: {0, 0, 3, -3, 300, 4464, 0, 0, 0, 0},
		Int64: {math.MinInt64, math.MinInt64, 3, -3, 300, 70000, 3e9, -3e9, math.MinInt64, math.MinInt64},
	}
	for name, e := range engines(t) {
		x := e.FromFloats(in, []int{len(in)}, Float32)
		for d, w := range want {
			check := func(how string, got []float64) {
				t.Helper()
				for i := range w {
					if got[i] != w[i] {
						t.Errorf("%s: %s %v to %s: got %v, want %v", name, how, in[i], d, got[i], w[i])
					}
				}
			}
			check("computed", x.Mul(e.Scalar(1, Float32)).Cast(d).Floats())
			consts := make([]float64, len(in))
			for i, v := range in {
				consts[i] = e.Full([]int{1}, v, Float32).Cast(d).Floats()[0]
			}
			check("constant", consts)
			check("data", e.FromFloats(in, []int{len(in)}, d).Floats())
		}
	}
}
