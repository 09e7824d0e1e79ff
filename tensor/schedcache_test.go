package tensor

import (
	"slices"
	"testing"
)

// TestScheduleCache runs an SGD loop on one weight: from the second step on
// the schedule comes from the cache and nothing compiles, and the values
// are those of plain arithmetic. Graphs that differ in a constant or a
// shape do not share a schedule.
func TestScheduleCache(t *testing.T) {
	for name, e := range engines(t) {
		w := e.FromFloats([]float64{1, 2, 3}, []int{3}, Float32).SetRequiresGrad(true)
		w.Realize()
		want := []float64{1, 2, 3}
		var hits0, compiles1 int
		for step := range 4 {
			x := e.FromFloats([]float64{float64(step), 1, 2}, []int{3}, Float32)
			loss := w.Mul(x).Sum(nil, false)
			loss.Backward()
			w.Assign(w.Detach().Sub(w.Grad().Mul(e.Scalar(0.5, Float32))))
			w.SetGrad(nil)
			w.Realize()
			for i := range want {
				want[i] = float64(float32(want[i] - 0.5*[]float64{float64(step), 1, 2}[i]))
			}
			if got := w.Floats(); !slices.Equal(got, want) {
				t.Errorf("%s step %d: w = %v, want %v", name, step, got, want)
			}
			st := e.Stats()
			switch step {
			case 0:
				hits0 = st.ScheduleHits
			case 1:
				compiles1 = st.Compiles
			default:
				if st.Compiles != compiles1 {
					t.Errorf("%s step %d: compiled %d kernels", name, step, st.Compiles-compiles1)
				}
			}
		}
		if got := e.Stats().ScheduleHits - hits0; got < 3 {
			t.Errorf("%s: %d cache hits in steps 1-3, want 3", name, got)
		}
		x := e.FromFloats([]float64{1, 2}, []int{2}, Float32)
		a := x.Mul(e.Scalar(2, Float32)).Floats()
		b := x.Mul(e.Scalar(3, Float32)).Floats()
		c := e.FromFloats([]float64{1, 2, 3}, []int{3}, Float32).Mul(e.Scalar(3, Float32)).Floats()
		if !slices.Equal(a, []float64{2, 4}) || !slices.Equal(b, []float64{3, 6}) || !slices.Equal(c, []float64{3, 6, 9}) {
			t.Errorf("%s: x*2 %v, x*3 %v, (3,)*3 %v", name, a, b, c)
		}
	}
}
