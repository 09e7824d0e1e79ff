package tensor

import (
	"math"
	"testing"
)

// A convolution is one multiply and one sum over a view of its input: one
// reduce kernel, bias and all, and a max pool is one kernel too.
func TestConvKernelCounts(t *testing.T) {
	e := testEngine()
	x := e.Rand([]int{4, 3, 12, 12}, 1)
	w := e.Rand([]int{8, 3, 5, 5}, 2)
	b := e.Rand([]int{8}, 3)
	w1 := e.Rand([]int{4, 3, 3}, 4)
	w3 := e.Rand([]int{2, 3, 2, 2, 2}, 5)
	x1 := e.Rand([]int{2, 3, 9}, 6)
	x3 := e.Rand([]int{1, 3, 4, 5, 6}, 7)
	cases := []struct {
		name string
		t    *Tensor
	}{
		{"conv2d", x.Conv2d(w, nil, 1, []int{1}, []int{1}, []int{0})},
		{"conv2d bias", x.Conv2d(w, b, 1, []int{1}, []int{1}, []int{0})},
		{"conv2d stride dilation padding", x.Conv2d(w, b, 1, []int{2}, []int{2}, []int{3})},
		{"conv2d groups", x.Conv2d(e.Rand([]int{6, 1, 3, 3}, 8), nil, 3, []int{1}, []int{1}, []int{1})},
		{"conv1d", x1.Conv2d(w1, nil, 1, []int{1}, []int{1}, []int{1})},
		{"conv3d", x3.Conv2d(w3, nil, 1, []int{1}, []int{1}, []int{0})},
		{"conv_transpose2d", x.ConvTranspose2d(e.Rand([]int{3, 2, 3, 3}, 9), nil, 1, []int{2}, []int{1}, []int{1}, []int{1})},
		{"max_pool2d", x.MaxPool2d([]int{2, 2}, nil, []int{1}, []int{0}, false)},
		{"max_pool2d k3 s2 p1", x.MaxPool2d([]int{3, 3}, []int{2}, []int{1}, []int{1}, false)},
		{"avg_pool2d", x.AvgPool2d([]int{2, 2}, nil, []int{1}, []int{0}, false, true)},
	}
	for _, c := range cases {
		if n := kernels(t, c.t); n != 1 {
			t.Errorf("%s: %d kernels, want 1", c.name, n)
		}
	}
}

// The tiled path (operands copied into matmul-like layouts, the weight
// gradient summed over chunks of the batch) gives the results of the
// single-kernel path, forward and backward, on every option.
func TestConvTiledMatchesViews(t *testing.T) {
	for _, dev := range []string{"CPU", "CLANG"} {
		e, err := NewEngine(Options{Device: dev})
		if err != nil {
			t.Logf("%s: %v", dev, err)
			continue
		}
		t.Run(dev, func(t *testing.T) { convTiledMatchesViews(t, e) })
	}
}

func convTiledMatchesViews(t *testing.T, e *Engine) {
	cases := []struct {
		name             string
		x, w             []int
		groups           int
		stride, dil, pad []int
	}{
		{"plain", []int{8, 3, 9, 8}, []int{4, 3, 3, 3}, 1, []int{1}, []int{1}, []int{0}},
		{"stride dilation padding", []int{8, 4, 11, 10}, []int{6, 2, 3, 2}, 2, []int{2, 1}, []int{1, 2}, []int{1, 2, 0, 1}},
		{"negative padding", []int{16, 2, 7, 7}, []int{3, 2, 3, 3}, 1, []int{1}, []int{1}, []int{-1, 1, 1, 0}},
		{"conv1d stride", []int{8, 3, 20}, []int{5, 3, 4}, 1, []int{3}, []int{1}, []int{2}},
		{"conv3d", []int{4, 2, 5, 4, 6}, []int{3, 2, 2, 3, 2}, 1, []int{1}, []int{1}, []int{1}},
		// A batch of 160: the register tile's batch rows are cut into
		// blocks of 32 (codegen's rowBlock), each ending in a shifted tile.
		{"batch blocks", []int{160, 3, 6, 5}, []int{32, 3, 3, 3}, 1, []int{1}, []int{1}, []int{0}},
		// 8 input channels or more: the weight gradient's tile columns are
		// the input channels (fewer: the output channels).
		{"channels", []int{4, 16, 6, 5}, []int{8, 8, 3, 2}, 2, []int{1}, []int{1}, []int{1}},
	}
	defer func(old int) { convTiledMACs = old }(convTiledMACs)
	for _, c := range cases {
		run := func(tiled bool) [][]float64 {
			convTiledMACs = 1 << 40
			if tiled {
				convTiledMACs = 0
			}
			x := e.Randn(c.x, 1).SetRequiresGrad(true)
			w := e.Randn(c.w, 2).SetRequiresGrad(true)
			y := x.Conv2d(w, nil, c.groups, c.stride, c.dil, c.pad)
			up := e.Randn(y.Shape(), 3)
			gs := y.Mul(up).Sum(nil, false).Gradient(x, w)
			return [][]float64{y.Floats(), gs[0].Floats(), gs[1].Floats()}
		}
		want, got := run(false), run(true)
		for i, what := range []string{"output", "input gradient", "weight gradient"} {
			if len(want[i]) != len(got[i]) {
				t.Fatalf("%s: %s has %d values, want %d", c.name, what, len(got[i]), len(want[i]))
			}
			for j := range want[i] {
				if d := got[i][j] - want[i][j]; math.Abs(d) > 1e-4+1e-4*math.Abs(want[i][j]) {
					t.Errorf("%s: %s[%d] = %v, want %v", c.name, what, j, got[i][j], want[i][j])
					break
				}
			}
		}
	}
}

// A max pool over channels-last data (a tiled convolution's result) stores
// its maximum channels innermost (but not a pool whose channels hold fewer
// than 16 values); its values and its gradient, ties shared evenly, are
// those of the same pool over row-major data, in as many kernels.
func TestMaxPoolChannelsLast(t *testing.T) {
	for _, dev := range []string{"CPU", "CLANG"} {
		e, err := NewEngine(Options{Device: dev})
		if err != nil {
			t.Logf("%s: %v", dev, err)
			continue
		}
		t.Run(dev, func(t *testing.T) {
			// Values rounded to halves, so windows hold ties.
			nhwc := e.Randn([]int{3, 10, 9, 5}, 1).Mul(2).Round().Div(2).Contiguous().Realize()
			cl := nhwc.Permute(0, 3, 1, 2)
			rm := cl.Contiguous().Realize()
			if !channelsLast(cl.Relu()) || channelsLast(rm.Relu()) {
				t.Fatalf("channelsLast: %v on the permuted copy, %v on the row-major one", channelsLast(cl.Relu()), channelsLast(rm.Relu()))
			}
			for _, c := range []struct {
				name         string
				k, s, d, pad []int
				ceil, small  bool // small: fewer than 16 outputs per channel
			}{
				{"k2", []int{2, 2}, nil, []int{1}, []int{0}, false, false},
				{"k3 s2 p1", []int{3, 3}, []int{2}, []int{1}, []int{1}, false, false},
				{"k2 s1 d2 ceil", []int{2, 3}, []int{1, 2}, []int{2, 1}, []int{0}, true, false},
				{"k4", []int{4, 4}, nil, []int{1}, []int{0}, false, true},
			} {
				run := func(x *Tensor) ([]float64, int) {
					x = x.SetRequiresGrad(true)
					y := x.Relu().MaxPool2d(c.k, c.s, c.d, c.pad, c.ceil)
					if got := y.n.kind == kView && len(y.n.st.Views) == 1 && y.n.st.Views[0].Strides[1].IsInt(1); got != (x == cl && !c.small) {
						t.Errorf("%s: max stored channels-last: %v", c.name, got)
					}
					n := len(y.Schedule())
					up := e.Randn(y.Shape(), 2)
					g := y.Mul(up).Sum(nil, false).Gradient(x)[0]
					return append(y.Floats(), g.Floats()...), n
				}
				want, nw := run(rm)
				got, ng := run(cl)
				if ng != nw {
					t.Errorf("%s: %d kernels, want %d", c.name, ng, nw)
				}
				for j := range want {
					if d := got[j] - want[j]; math.Abs(d) > 1e-6+1e-5*math.Abs(want[j]) {
						t.Errorf("%s: value %d = %v, want %v", c.name, j, got[j], want[j])
						break
					}
				}
			}
		})
	}
}
