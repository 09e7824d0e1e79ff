package tensor

import "math"

// Random tensors are kernels, not host data: element i of a draw is a hash
// of its position i and the draw's 64-bit seed, computed in uint32
// arithmetic by the kernel that uses it (or that realizes it). The same seed
// gives the same values on every device and at every size prefix, and a
// draw of any size holds nothing on the host beyond a position table
// (positions).

// mix is splitmix64's finalizer, a bijection that scatters bits; it turns
// seeds and call counts into well-spread 64-bit keys on the host.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// hash32 is a bijection of uint32 tensors with full avalanche (the
// lowbias32 integer hash: xor-shifts and odd multipliers, mod 2**32).
func hash32(x *Tensor) *Tensor {
	x = x.Xor(x.Rshift(16)).Mul(x.n.eng.Scalar(0x7feb352d, Uint32))
	x = x.Xor(x.Rshift(15)).Mul(x.n.eng.Scalar(0x846ca68b, Uint32))
	return x.Xor(x.Rshift(16))
}

// randomBits returns n uint32 words for a key (a uint32 buffer whose words
// 0 and 1 are the key; a buffer, not constants in the kernel, so that a new
// seed compiles nothing): two keyed rounds of hash32 over the position (its
// high word, beyond 2**32 elements, joins in the second round; it is 0
// below, so prefixes agree).
func (e *Engine) randomBits(n int, key *Tensor, word int) *Tensor {
	k0 := key.Shrink([][2]int{{word, word + 1}})
	k1 := key.Shrink([][2]int{{word + 1, word + 2}})
	p := e.positions(n)
	h := hash32(p.Cast(Uint32).Xor(k0)).Xor(k1)
	if p.n.dtype == Int64 {
		h = h.Xor(hash32(p.Cast(Uint64).Rshift(32).Cast(Uint32)))
	}
	return hash32(h)
}

// uniform01 returns n float32s uniform in [0, 1): the top 24 bits of each
// word of randomBits over 2**24, so every value is exact in float32.
func (e *Engine) uniform01(n int, key *Tensor, word int) *Tensor {
	return e.randomBits(n, key, word).Rshift(8).Cast(Float32).Mul(1.0 / (1 << 24))
}

// randomKey returns the key buffer of a draw: words 0-1 from s, 2-3 from a
// second mix of it.
func (e *Engine) randomKey(s uint64) *Tensor {
	t := mix(s ^ 0x6a09e667f3bcc909)
	w := []int64{int64(uint32(s)), int64(uint32(s >> 32)), int64(uint32(t)), int64(uint32(t >> 32))}
	return e.FromInts(w, []int{4}, Uint32)
}

func (e *Engine) seedFor(seed []int64) uint64 {
	if len(seed) > 0 {
		return mix(uint64(seed[0]) ^ 0x5eed)
	}
	return e.nextSeed()
}

// Rand returns float32 values uniform in [0, 1). With a seed the values
// depend only on the seed; without one they come from the engine's random
// state (see ManualSeed). One kernel computes them into the result's buffer
// when Rand is called.
func (e *Engine) Rand(shp []int, seed ...int64) *Tensor {
	checkShape("rand", shp)
	checkAlloc("rand", Float32, prod(shp))
	key := e.randomKey(mix(e.seedFor(seed)))
	return e.drawn("rand", e.uniform01(prod(shp), key, 0).Reshape(shp...))
}

// RandOf returns values of float dtype d uniform in [0, 1), seeded as Rand.
// A float16 draw takes 11 bits, each value exact in float16: rounding a
// float32 draw to float16 would give 1.0 for the top 2**-12 of it, which
// tinygrad's rand never does.
func (e *Engine) RandOf(d DType, shp []int, seed ...int64) *Tensor {
	if !d.IsFloat() {
		fail("rand only supports float dtypes, got %s", d)
	}
	if d != Float16 {
		return e.Rand(shp, seed...).Cast(d)
	}
	checkShape("rand", shp)
	checkAlloc("rand", Float32, prod(shp))
	key := e.randomKey(mix(e.seedFor(seed)))
	u := e.randomBits(prod(shp), key, 0).Rshift(21).Cast(Float32).Mul(1.0 / (1 << 11))
	return e.drawn("rand", u.Reshape(shp...)).Cast(Float16)
}

// Randn returns float32 values from the standard normal distribution, seeded
// like Rand: Box-Muller over two independent uniform draws u and v,
// sqrt(-2 ln(1-u)) cos(2 pi v), computed in float32 (1-u keeps the log's
// argument in (0, 1]).
func (e *Engine) Randn(shp []int, seed ...int64) *Tensor {
	checkShape("randn", shp)
	checkAlloc("randn", Float32, prod(shp))
	key := e.randomKey(mix(e.seedFor(seed)))
	n := prod(shp)
	u, v := e.uniform01(n, key, 0), e.uniform01(n, key, 2)
	r := u.RSub(1.0).Log().Mul(-2.0).Sqrt()
	return e.drawn("randn", r.Mul(v.Mul(2*math.Pi).Cos()).Reshape(shp...))
}

// drawn realizes a random draw into a buffer of its own, a leaf as a
// tensor built from data is: a draw fused into its users would be
// recomputed by each of them (a convolution reads each input many times).
func (e *Engine) drawn(op string, t *Tensor) *Tensor {
	if prod(t.n.shape) == 0 {
		return e.FromFloats(nil, t.n.shape, Float32)
	}
	return t.Contiguous().Realize()
}
