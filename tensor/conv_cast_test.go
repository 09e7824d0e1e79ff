package tensor

import "testing"

// A tiled convolution of uint8 images gathered by a batch of positions
// (beautiful_mnist's input) casts them before its copies: cast inside the
// product, the weight gradient realized the cast of the windows, an im2col
// buffer 25 times the input.
func TestConvCastsBeforeCopies(t *testing.T) {
	e := testEngine()
	defer func(old int) { convTiledMACs = old }(convTiledMACs)
	convTiledMACs = 0
	X := e.Randint([]int{20, 1, 12, 12}, 0, 256, Uint8, 1)
	idx := e.Randint([]int{8}, 0, 20, Int32, 2)
	w := e.Rand([]int{4, 1, 5, 5}, 3).SetRequiresGrad(true)
	y := X.Index(TensorIndex(idx)).Conv2d(w, nil, 1, []int{1}, []int{1}, []int{0})
	g := y.Sum(nil, false).Gradient(w)[0]
	const windows = 8 * 8 * 8 * 25 // images x positions x taps
	for _, k := range g.Schedule() {
		if n := k.Bufs[0].Size; n >= windows {
			t.Errorf("kernel %s stores %d elements: the windows of the input", k.Name, n)
		}
	}
}
