package tensor

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"tiny/devices/clang"
)

// scatterRef is Scatter computed naively: a copy of x, then for every
// position of idx in row-major order, src's value written where idx points
// along axis d (when in range); the last write to an element stays.
func scatterRef(x []float64, xs []int, idx []int64, src []float64, is, ss []int, d int) []float64 {
	out := slices.Clone(x)
	pos := make([]int, len(is))
	for n := range prod(is) {
		r := n
		for a := len(is) - 1; a >= 0; a-- {
			pos[a] = r % is[a]
			r /= is[a]
		}
		v := idx[n]
		if v < 0 || v >= int64(xs[d]) {
			continue
		}
		o, s := 0, 0
		for a := range xs {
			p := pos[a]
			if a == d {
				p = int(v)
			}
			o = o*xs[a] + p
			s = s*ss[a] + pos[a]
		}
		out[o] = src[s]
	}
	return out
}

// TestScatterStore checks Scatter's writing kernel (a scattering store, one
// kernel over the indices after the copy) against the naive reference on
// every engine: each axis of a 3-d tensor, indices with repeats (the last
// write wins) and out of range (nothing written), an index tensor smaller
// than self on the other axes and than src, int32 and int64 indices.
func TestScatterStore(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	xs := []int{5, 6, 7}
	for name, e := range engines(t) {
		for d := range 3 {
			for _, it := range []DType{Int32, Int64} {
				is := []int{4, 5, 6}
				is[d] = 9 // more writes than the axis has places: repeats
				ss := []int{5, 6, 9}
				ss[d] = max(ss[d], 9)
				x := make([]float64, prod(xs))
				for i := range x {
					x[i] = float64(i)
				}
				src := make([]float64, prod(ss))
				for i := range src {
					src[i] = 1000 + float64(i)
				}
				idx := make([]int64, prod(is))
				for i := range idx {
					idx[i] = int64(rng.Intn(xs[d]+2)) - 1 // -1 and xs[d] are out of range
				}
				xt := e.FromFloats(x, xs, Float32)
				out := xt.Scatter(d, e.FromInts(idx, is, it), e.FromFloats(src, ss, Float32), "")
				ks := out.Schedule()
				if len(ks) != 2 || !strings.Contains(ks[1].String(), "scatter") || strings.Contains(ks[1].String(), "REDUCE") {
					t.Fatalf("%s: want a copy and a scattering store, no reduce:\n%s\n%s", name, ks[0], ks[len(ks)-1])
				}
				want := scatterRef(x, xs, idx, src, is, ss, d)
				if got := out.Floats(); !slices.Equal(got, want) {
					t.Fatalf("%s: scatter along %d (%s indices): got %v, want %v", name, d, it, got, want)
				}
				// self is untouched: the writes went into a copy.
				if got := xt.Floats(); !slices.Equal(got, x) {
					t.Fatalf("%s: scatter changed self", name)
				}
			}
		}
	}
}

// scatterGradCase is the scatter of TestScatterGrad and TestScatterAddGrad:
// self 3x5, src 3x4, indices with repeats and one out of range (row 0
// writes 0, 4, 0, 2; row 1 1, 1, 3 and 7; row 2 4, 0, 2, 4), and the
// weights 1..15 of self's elements in the loss.
func scatterGradCase(e *Engine) (x, src, idx, w *Tensor) {
	x = e.Randn([]int{3, 5}, 1)
	src = e.Randn([]int{3, 4}, 2)
	idx = e.FromInts([]int64{0, 4, 0, 2, 1, 1, 3, 7, 4, 0, 2, 4}, []int{3, 4}, Int32)
	w = e.FromFloats([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, []int{3, 5}, Float32)
	return x, src, idx, w
}

// trackedScatterGrads scatters scatterGradCase's src into its x with
// reduce, both tracked, checks that the kernels store (no one-hot fold) and
// give the untracked result, and returns the gradients of
// (out * w).sum() for self and src, and w.
func trackedScatterGrads(t *testing.T, name string, e *Engine, reduce string) (self, src, w []float64) {
	t.Helper()
	x, srcT, idx, wT := scatterGradCase(e)
	plain := x.Scatter(1, idx, srcT, reduce).Floats()
	xg, sg := x.Detach().SetRequiresGrad(true), srcT.Detach().SetRequiresGrad(true)
	out := xg.Scatter(1, idx, sg, reduce)
	for _, k := range out.Schedule() {
		if strings.Contains(k.String(), "REDUCE") {
			t.Fatalf("%s: a tracked scatter (reduce %q) folds a one-hot:\n%s", name, reduce, k)
		}
	}
	if got := out.Floats(); !slices.Equal(got, plain) {
		t.Fatalf("%s: tracked %v, untracked %v", name, got, plain)
	}
	gs := out.Mul(wT).Sum(nil, false).Gradient(xg, sg)
	return gs[0].Floats(), gs[1].Floats(), wT.Floats()
}

// With a gradient to track Scatter still stores (no one-hot fold) and gives
// torch's gradients: self's where no index writes, src's where its position
// was the last write to its element (out-of-range positions get none).
func TestScatterGrad(t *testing.T) {
	for name, e := range engines(t) {
		self, src, _ := trackedScatterGrads(t, name, e, "")
		// Row 0 writes 0, 4, 0, 2 (the first 0 overwritten); row 1 writes
		// 1, 1, 3 and 7 (out of range); row 2 writes 4, 0, 2, 4.
		if want := []float64{0, 2, 0, 4, 0, 6, 0, 8, 0, 10, 0, 12, 0, 14, 0}; !slices.Equal(self, want) {
			t.Fatalf("%s: self's grad %v, want %v", name, self, want)
		}
		if want := []float64{0, 5, 1, 3, 0, 7, 9, 0, 0, 11, 13, 15}; !slices.Equal(src, want) {
			t.Fatalf("%s: src's grad %v, want %v", name, src, want)
		}
	}
}

// A scatter's add with a gradient to track stores too (no one-hot fold)
// and gives torch's gradients: self's is g, src's is g where its position
// adds (none out of range), repeats each getting theirs.
func TestScatterAddGrad(t *testing.T) {
	for name, e := range engines(t) {
		self, src, w := trackedScatterGrads(t, name, e, "add")
		if !slices.Equal(self, w) {
			t.Fatalf("%s: self's grad %v, want %v", name, self, w)
		}
		if want := []float64{1, 5, 1, 3, 7, 7, 9, 0, 15, 11, 13, 15}; !slices.Equal(src, want) {
			t.Fatalf("%s: src's grad %v, want %v", name, src, want)
		}
	}
}

// Setting positions chosen by tensor indices writes them with a scattering
// store, not a one-hot of every position against every selected one
// (numel x selected steps: x[rows] = v for 512 rows of a 4096x1024 tensor
// would compare 4M positions with 512K), and a position selected twice
// takes the last value.
func TestSetIndexByTensorScatters(t *testing.T) {
	var log strings.Builder
	e, err := NewEngine(Options{Device: "CPU", Debug: 2, Log: &log})
	if err != nil {
		t.Skip(err)
	}
	x := e.Zeros(Float32, 5, 4).Contiguous()
	idx := e.FromInts([]int64{1, 3, 1}, []int{3}, Int32)
	v := e.FromFloats([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, []int{3, 4}, Float32)
	got := x.SetIndex([]IndexItem{TensorIndex(idx)}, v).Floats()
	want := []float64{0, 0, 0, 0, 9, 10, 11, 12, 0, 0, 0, 0, 5, 6, 7, 8, 0, 0, 0, 0}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if s := log.String(); !strings.Contains(s, "(scatter: ") || strings.Contains(s, "REDUCE") {
		t.Fatalf("want a scattering store and no reduce:\n%s", s)
	}
}

// TestScatterFold checks scatter's add and multiply without a gradient to
// track (a folding scattering store: each write folds into the element, in
// the order of the indices, the scattered axis walked outermost) against
// the naive reference on every engine, repeats and out-of-range indices
// included, and that a gather's gradient (an embedding's backward) is such
// a store rather than a one-hot reduce.
func TestScatterFold(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	for name, e := range engines(t) {
		for _, tc := range []struct {
			xs, is []int
			d      int
		}{{[]int{5, 6, 7}, []int{4, 9, 6}, 1}, {[]int{5, 6, 7}, []int{9, 6, 7}, 0}, {[]int{5, 6, 7}, []int{5, 6, 12}, 2}, {[]int{6}, []int{20}, 0}} {
			for _, red := range []string{"add", "multiply"} {
				x := make([]float64, prod(tc.xs))
				for i := range x {
					x[i] = float64(i%5 + 1)
				}
				src := make([]float64, prod(tc.is))
				for i := range src {
					src[i] = float64(i%3 + 1)
				}
				idx := make([]int64, prod(tc.is))
				for i := range idx {
					idx[i] = int64(rng.Intn(tc.xs[tc.d] + 1)) // xs[d] is out of range
				}
				out := e.FromFloats(x, tc.xs, Float32).Scatter(tc.d, e.FromInts(idx, tc.is, Int32), e.FromFloats(src, tc.is, Float32), red)
				if ks := out.Schedule(); !strings.Contains(ks[len(ks)-1].String(), "(scatter "+map[string]string{"add": "ADD", "multiply": "MUL"}[red]) {
					t.Fatalf("%s: want a folding scatter:\n%s", name, ks[len(ks)-1])
				}
				want := slices.Clone(x)
				pos := make([]int, len(tc.is))
				for n := range prod(tc.is) {
					r := n
					for a := len(tc.is) - 1; a >= 0; a-- {
						pos[a], r = r%tc.is[a], r/tc.is[a]
					}
					if idx[n] >= int64(tc.xs[tc.d]) {
						continue
					}
					o := 0
					for a := range tc.xs {
						p := pos[a]
						if a == tc.d {
							p = int(idx[n])
						}
						o = o*tc.xs[a] + p
					}
					if red == "add" {
						want[o] += src[n]
					} else {
						want[o] = float64(float32(want[o] * src[n]))
					}
				}
				if got := out.Floats(); !slices.Equal(got, want) {
					t.Fatalf("%s: scatter %s along %d of %v: got %v, want %v", name, red, tc.d, tc.xs, got, want)
				}
			}
		}
		x := e.Randn([]int{6, 3}, 2).SetRequiresGrad(true)
		idx := e.FromInts([]int64{1, 3, 1, 7, 1}, []int{5}, Int32)
		g := x.Index(TensorIndex(idx)).Sum(nil, false).Gradient(x)[0]
		if ks := g.Schedule(); !strings.Contains(ks[len(ks)-1].String(), "(scatter ADD") {
			t.Fatalf("%s: a gather's gradient is not a folding scatter:\n%s", name, ks[len(ks)-1])
		}
		if got, want := g.Floats(), []float64{0, 0, 0, 3, 3, 3, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0}; !slices.Equal(got, want) {
			t.Fatalf("%s: gather gradient %v, want %v", name, got, want)
		}
	}
}

// An index broadcast along the axes it does not scatter (one position a
// row, as a gather's gradient has) is loaded once per run of the inner
// loop, and so is its range check: the CPU device's store took such a
// gate for one it could ignore and wrote out of range (a panic, slice
// bounds out of range), on every kind of scatter.
func TestScatterBroadcastIndex(t *testing.T) {
	for name, e := range engines(t) {
		rows := e.FromInts([]int64{1, 3, 1, 7, -1}, []int{5, 1}, Int32).Expand(5, 3)
		src := e.FromFloats([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, []int{5, 3}, Float32)
		for _, tc := range []struct {
			red  string
			want []float64
		}{
			{"", []float64{1, 1, 1, 7, 8, 9, 1, 1, 1, 4, 5, 6}},
			{"add", []float64{1, 1, 1, 9, 11, 13, 1, 1, 1, 5, 6, 7}},
		} {
			got := e.Ones(Float32, 4, 3).Scatter(0, rows, src, tc.red).Floats()
			if !slices.Equal(got, tc.want) {
				t.Fatalf("%s: scatter %q: got %v, want %v", name, tc.red, got, tc.want)
			}
		}
	}
}

// TestScatterPairs checks the CLANG device's pair of a scatter and its copy
// (runPair): the copy of each chunk of rows runs right before the scatter's
// writes into them, on one worker. The pair must show as one line at
// DEBUG=1 where the rows match (self laid out by rows, computed in the same
// realize or not, several workers or one), and the results must be the
// naive reference's whether the kernels paired or not (a transposed self
// gives the copy rows of another length, which do not pair).
func TestScatterPairs(t *testing.T) {
	if _, err := clang.Available(); err != nil {
		t.Skipf("CLANG device not available: %v", err)
	}
	var log strings.Builder
	e, err := NewEngine(Options{Device: "CLANG", Debug: 1, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(9))
	const (
		no = iota
		yes
		either
	)
	for _, c := range []struct {
		name     string
		xs, is   []int
		self     func(x *Tensor) *Tensor
		selfVals func(x []float64, xs []int) []float64
		paired   int // yes, no or either
	}{
		{"rows", []int{512, 1024}, []int{512, 64}, func(x *Tensor) *Tensor { return x }, nil, yes},
		{"small", []int{5, 40}, []int{5, 7}, func(x *Tensor) *Tensor { return x }, nil, yes},
		{"computed", []int{300, 64}, []int{300, 9}, func(x *Tensor) *Tensor { return x.Add(x.Sum([]int{1}, true)) },
			func(x []float64, xs []int) []float64 {
				out := slices.Clone(x)
				for r := range xs[0] {
					s := 0.0
					for c := range xs[1] {
						s += x[r*xs[1]+c]
					}
					for c := range xs[1] {
						out[r*xs[1]+c] += s
					}
				}
				return out
			}, yes},
		// x is 96x128 here, self its transpose.
		{"transposed", []int{128, 96}, []int{128, 5}, func(x *Tensor) *Tensor { return x.Reshape(96, 128).Permute(1, 0) },
			func(x []float64, xs []int) []float64 {
				out := make([]float64, len(x))
				for r := range xs[0] {
					for c := range xs[1] {
						out[r*xs[1]+c] = x[c*xs[0]+r]
					}
				}
				return out
			}, either},
		{"fewer rows", []int{64, 32}, []int{60, 4}, func(x *Tensor) *Tensor { return x }, nil, no},
	} {
		x := make([]float64, prod(c.xs))
		for i := range x {
			x[i] = float64(rng.Intn(64))
		}
		idx := make([]int64, prod(c.is))
		for i := range idx {
			idx[i] = int64(rng.Intn(c.xs[1]+2)) - 1
		}
		src := make([]float64, prod(c.is))
		for i := range src {
			src[i] = 1000 + float64(i)
		}
		xt := e.FromFloats(x, c.xs, Float32).Realize()
		log.Reset()
		out := c.self(xt).Scatter(1, e.FromInts(idx, c.is, Int32), e.FromFloats(src, c.is, Float32), "").Realize()
		self := x
		if c.selfVals != nil {
			self = c.selfVals(x, c.xs)
		}
		want := scatterRef(self, c.xs, idx, src, c.is, c.is, 1)
		if got := out.Floats(); !slices.Equal(got, want) {
			t.Errorf("%s: got %v..., want %v...", c.name, got[:8], want[:8])
		}
		if paired := strings.Contains(log.String(), "+E_"); c.paired != either && paired != (c.paired == yes) {
			t.Errorf("%s: paired %v, want %v:\n%s", c.name, paired, c.paired, log.String())
		}
	}
}
