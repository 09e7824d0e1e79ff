package clang

import (
	"math"
	"math/rand"
	"testing"

	"tiny/codegen"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// TestMaxBits checks float MAX bit for bit against the reference device on
// the values where its forms could differ: NaN on either side, -0.0 and
// 0.0 tied in both orders, infinities. The kernels put a MAX in each of the
// places the renderer writes it differently: an elementwise loop (the
// innermost loop's tiny_maxf), and reduces over rows long enough for lanes
// (tiny_maxf accumulating, scalarMax folding the lanes after the loop) or
// too short for them (the rows unrolled, scalarMax), in float32 and float64.
func TestMaxBits(t *testing.T) {
	d := open(t, "", 2)
	special := []float64{math.NaN(), math.Copysign(0, -1), 0, 1, -1, math.Inf(1), math.Inf(-1), 0.5}
	for _, dt := range []codegen.DType{codegen.Float32, codegen.Float64} {
		type kernel struct {
			k    *codegen.Kernel
			cols int
		}
		ks := []kernel{{kt.Kernel(shape.FromInts(37, 29), kt.Op(codegen.OpMax, dt, kt.Load(1, dt, shape.FromInts(37, 29)), kt.Load(2, dt, shape.FromInts(37, 29))),
			kt.Spec(dt, 37*29), kt.Spec(dt, 37*29)), 29}}
		for _, cols := range []int{4, 1000} {
			ks = append(ks, kernel{kt.Kernel(shape.FromInts(64, 1), kt.Reduce(codegen.OpMax, dt, []int{1}, kt.Load(1, dt, shape.FromInts(64, cols))), kt.Spec(dt, 64*cols)), cols})
		}
		for _, kc := range ks {
			k := kc.k
			rng := rand.New(rand.NewSource(2))
			bufs := kt.Alloc(k, rng)
			for _, b := range bufs[1:] {
				for i := range b.Len {
					// A third of the rows zeros of both signs only (ties
					// all the way), a third with a few other values, a
					// third with NaN among them.
					v := special[1+rng.Intn(2)]
					if row := i / kc.cols; row%3 != 0 && rng.Intn(8) == 0 {
						v = special[3+rng.Intn(len(special)-3)]
						if row%3 == 2 && rng.Intn(4) == 0 {
							v = math.NaN()
						}
					}
					kt.Set(b, i, v)
				}
			}
			for _, opts := range []codegen.Options{{}, {Target: &codegen.AVX512Target}} {
				runBitsAgainstRef(t, d, k, opts, bufs)
			}
		}
	}
}
