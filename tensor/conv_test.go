package tensor

import "testing"

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
