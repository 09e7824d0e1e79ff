package tensor

import (
	"slices"
	"strings"
	"testing"
)

// X[idx] for a tensor of indices is one kernel that reads the chosen rows
// (a GATHER load), not a one-hot reduce over the indexed axis: issue 11's
// minibatches of 512 out of 60000 images depend on it.
func TestIndexByTensorIsOneGather(t *testing.T) {
	for name, e := range engines(t) {
		x := e.Randn([]int{300, 1, 4, 7}, 1).Realize()
		pos := []int64{5, 299, 0, -1, 17, 300, -301, 5}
		idx := e.FromInts(pos, []int{len(pos)}, Int32)
		out := x.Index(TensorIndex(idx))
		ks := out.Schedule()
		if len(ks) != 1 {
			t.Fatalf("%s: %d kernels, want 1", name, len(ks))
		}
		ast := ks[0].String()
		if !strings.Contains(ast, "GATHER") || strings.Contains(ast, "REDUCE") {
			t.Fatalf("%s: want one GATHER and no reduce:\n%s", name, ast)
		}
		if got := out.Shape(); !slices.Equal(got, []int{8, 1, 4, 7}) {
			t.Fatalf("%s: shape %v", name, got)
		}
		xs, got := x.Floats(), out.Floats()
		for i, p := range pos {
			if p < 0 {
				p += 300
			}
			for j := range 28 {
				want := 0.0
				if p >= 0 && p < 300 {
					want = xs[int(p)*28+j]
				}
				if got[i*28+j] != want {
					t.Fatalf("%s: out[%d][%d] = %v, want %v", name, i, j, got[i*28+j], want)
				}
			}
		}
	}
}

// The gradient of a gather adds each read position's gradient into the
// row it read, twice for a row read twice, nothing for an index out of range.
func TestGatherGradient(t *testing.T) {
	for name, e := range engines(t) {
		x := e.Randn([]int{4, 3}, 2).SetRequiresGrad(true)
		idx := e.FromInts([]int64{1, 3, 1, 7}, []int{4}, Int32)
		w := e.FromFloats([]float64{1, 2, 3, 4}, []int{4, 1}, Float32)
		g := x.Index(TensorIndex(idx)).Mul(w).Sum(nil, false).Gradient(x)[0].Floats()
		want := []float64{0, 0, 0, 4, 4, 4, 0, 0, 0, 2, 2, 2}
		if !slices.Equal(g, want) {
			t.Fatalf("%s: grad %v, want %v", name, g, want)
		}
	}
}

// BenchmarkIndexRows is issue 11's minibatch: 512 random rows of a
// (60000, 1, 28, 28) float32 tensor.
func BenchmarkIndexRows(b *testing.B) {
	for _, dev := range []string{"CLANG", "CPU"} {
		b.Run(dev, func(b *testing.B) {
			e, err := NewEngine(Options{Device: dev})
			if err != nil {
				b.Skip(err)
			}
			x := e.Randn([]int{60000, 1, 28, 28}, 1).Realize()
			idx := e.Rand([]int{512}, 2).Mul(60000).Cast(Int32).Realize()
			x.Index(TensorIndex(idx)).Realize()
			b.ResetTimer()
			for range b.N {
				x.Index(TensorIndex(idx)).Realize()
			}
		})
	}
}

// An assign whose value gathers from the tensor itself must not write in
// place: the gather reads positions that earlier elements already wrote.
func TestAssignOfOwnGatherIsNotInPlace(t *testing.T) {
	for name, e := range engines(t) {
		w := e.FromFloats([]float64{1, 2, 3, 4}, []int{4}, Float32).Realize()
		idx := e.FromInts([]int64{3, 2, 1, 0}, []int{4}, Int32)
		w.Assign(w.Index(TensorIndex(idx))).Realize()
		if got := w.Floats(); !slices.Equal(got, []float64{4, 3, 2, 1}) {
			t.Fatalf("%s: %v, want [4 3 2 1]", name, got)
		}
	}
}
