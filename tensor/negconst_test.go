package tensor

import (
	"math"
	"testing"
)

// TestNegOfNegativeConstant: clip(-0.0, 0.0) is a minimum written as a
// maximum of negations, so it negates the constant -0.0. The C and OpenCL
// renderers wrote that as "--0.0f", C's decrement, and the kernel did not
// compile.
func TestNegOfNegativeConstant(t *testing.T) {
	for name, e := range engines(t) {
		x := e.FromFloats([]float64{-0.0, 1, -1, 0.5}, []int{4}, Float32)
		got := x.Clip(math.Copysign(0, -1), 0.0).Add(x.Neg().Neg().Mul(0)).Floats()
		for i, v := range got {
			if v != 0 {
				t.Errorf("%s: element %d = %v, want 0", name, i, v)
			}
		}
	}
}
