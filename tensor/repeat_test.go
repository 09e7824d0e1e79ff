package tensor

import (
	"math"
	"testing"
)

// The same program on the same data gives the same bits on every call, on
// every device, whatever the goroutine scheduling: split reduces fold one
// partial per chunk and combine them in chunk order (devices.PartialChunks),
// never per worker in the order the workers finish.
func TestRepeatedRunsIdentical(t *testing.T) {
	const runs = 20
	cases := []struct {
		name string
		in   func(e *Engine) []*Tensor
		f    func(in []*Tensor) *Tensor
	}{
		{"sum of 4M floats", func(e *Engine) []*Tensor {
			return []*Tensor{e.Randn([]int{4 << 20}, 3).Realize()}
		}, func(in []*Tensor) *Tensor { return in[0].Sum(nil, false) }},
		{"matmul 512", func(e *Engine) []*Tensor {
			return []*Tensor{e.Randn([]int{512, 512}, 4).Realize(), e.Randn([]int{512, 512}, 5).Realize()}
		}, func(in []*Tensor) *Tensor { return in[0].Matmul(in[1]) }},
	}
	for ename, e := range deviceEngines(t) {
		for _, c := range cases {
			var first []uint64
			err := Catch(func() {
				in := c.in(e)
				for i := range runs {
					got := c.f(in).Floats()
					bits := make([]uint64, len(got))
					for j, v := range got {
						bits[j] = math.Float64bits(v)
					}
					if i == 0 {
						first = bits
						continue
					}
					for j := range bits {
						if bits[j] != first[j] {
							t.Errorf("%s: %s: run %d: element %d is %v, first run %v", ename, c.name, i, j,
								math.Float64frombits(bits[j]), math.Float64frombits(first[j]))
							return
						}
					}
				}
			})
			if err != nil {
				t.Errorf("%s: %s: %v", ename, c.name, err)
			}
		}
	}
}
