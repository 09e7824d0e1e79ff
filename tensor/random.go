package tensor

import "math"

// Random tensors are generated on the host from a counter-based generator
// (splitmix64 over seed and position), so the same seed gives the same values
// on every device and at every size prefix.

// mix is splitmix64's finalizer, a bijection that scatters bits.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// uniforms returns n float64s in [0, 1) for a seed, exact in float32.
func uniforms(seed uint64, n int) []float64 {
	out := make([]float64, n)
	s := mix(seed)
	for i := range out {
		out[i] = float64(mix(s+uint64(i))>>40) / (1 << 24)
	}
	return out
}

func (e *Engine) seedFor(seed []int64) uint64 {
	if len(seed) > 0 {
		return mix(uint64(seed[0]) ^ 0x5eed)
	}
	return e.nextSeed()
}

// Rand returns float32 values uniform in [0, 1). With a seed the values
// depend only on the seed; without one they come from the engine's random
// state (see ManualSeed).
func (e *Engine) Rand(shp []int, seed ...int64) *Tensor {
	checkShape("rand", shp)
	alloc("rand", Float32, prod(shp)).Free()
	return e.FromFloats(uniforms(e.seedFor(seed), prod(shp)), shp, Float32)
}

// Randn returns float32 values from the standard normal distribution, seeded
// like Rand.
func (e *Engine) Randn(shp []int, seed ...int64) *Tensor {
	checkShape("randn", shp)
	n := prod(shp)
	alloc("randn", Float32, n).Free()
	u := uniforms(e.seedFor(seed), 2*n)
	vals := make([]float64, n)
	for i := range vals {
		// Box-Muller; 1-u keeps the log argument in (0, 1].
		r := math.Sqrt(-2 * math.Log(1-u[2*i]))
		vals[i] = r * math.Cos(2*math.Pi*u[2*i+1])
	}
	return e.FromFloats(vals, shp, Float32)
}
