package tensor

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"
)

// Property tests: random graphs of movement, elementwise and reduce ops run
// through the engine and through dense, a naive evaluator over plain
// row-major slices. Values are small integers held in float32, so every
// result is exact and must match bit for bit.

type dense struct {
	shape []int
	data  []float64
}

func (d dense) strides() []int {
	st := make([]int, len(d.shape))
	acc := 1
	for i := len(d.shape) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= d.shape[i]
	}
	return st
}

// gen builds a dense array of shape shp from f over multi-indices.
func gen(shp []int, f func(idx []int) float64) dense {
	out := dense{shape: append([]int(nil), shp...), data: make([]float64, prod(shp))}
	idx := make([]int, len(shp))
	for i := range out.data {
		rem := i
		for a := len(shp) - 1; a >= 0; a-- {
			idx[a] = rem % shp[a]
			rem /= shp[a]
		}
		out.data[i] = f(idx)
	}
	return out
}

func (d dense) at(idx []int) float64 {
	off := 0
	for i, s := range d.strides() {
		off += idx[i] * s
	}
	return d.data[off]
}

func (d dense) permute(order []int) dense {
	shp := make([]int, len(order))
	for i, o := range order {
		shp[i] = d.shape[o]
	}
	return gen(shp, func(idx []int) float64 {
		src := make([]int, len(idx))
		for i, o := range order {
			src[o] = idx[i]
		}
		return d.at(src)
	})
}

func (d dense) expand(shp []int) dense {
	return gen(shp, func(idx []int) float64 {
		src := make([]int, len(idx))
		for i := range idx {
			if d.shape[i] != 1 {
				src[i] = idx[i]
			}
		}
		return d.at(src)
	})
}

func (d dense) pad(p [][2]int) dense {
	shp := make([]int, len(d.shape))
	for i, s := range d.shape {
		shp[i] = s + p[i][0] + p[i][1]
	}
	return gen(shp, func(idx []int) float64 {
		src := make([]int, len(idx))
		for i := range idx {
			src[i] = idx[i] - p[i][0]
			if src[i] < 0 || src[i] >= d.shape[i] {
				return 0
			}
		}
		return d.at(src)
	})
}

func (d dense) shrink(p [][2]int) dense {
	shp := make([]int, len(d.shape))
	for i := range shp {
		shp[i] = p[i][1] - p[i][0]
	}
	return gen(shp, func(idx []int) float64 {
		src := make([]int, len(idx))
		for i := range idx {
			src[i] = idx[i] + p[i][0]
		}
		return d.at(src)
	})
}

func (d dense) flip(axis int) dense {
	return gen(d.shape, func(idx []int) float64 {
		src := append([]int(nil), idx...)
		src[axis] = d.shape[axis] - 1 - idx[axis]
		return d.at(src)
	})
}

func (d dense) binary(e dense, f func(x, y float64) float64) dense {
	shp, _ := BroadcastShape(d.shape, e.shape)
	a, b := d.expand2(shp), e.expand2(shp)
	out := dense{shape: shp, data: make([]float64, len(a.data))}
	for i := range a.data {
		out.data[i] = float64(float32(f(a.data[i], b.data[i])))
	}
	return out
}

func (d dense) expand2(shp []int) dense {
	return dense{shape: padLeft(d.shape, len(shp)), data: d.data}.expand(shp)
}

func (d dense) reduce(axes []int, f func(acc, x float64) float64, init float64) dense {
	kshape := append([]int(nil), d.shape...)
	for _, a := range axes {
		kshape[a] = 1
	}
	out := gen(kshape, func([]int) float64 { return init })
	idx := make([]int, len(d.shape))
	for i, v := range d.data {
		rem := i
		for a := len(d.shape) - 1; a >= 0; a-- {
			idx[a] = rem % d.shape[a]
			rem /= d.shape[a]
		}
		o := 0
		for a, s := range out.strides() {
			if kshape[a] != 1 {
				o += idx[a] * s
			}
		}
		out.data[o] = float64(float32(f(out.data[o], v)))
	}
	return out
}

// matmulT returns d @ e.T over the last two axes (batch axes equal).
func (d dense) matmulT(e dense) dense {
	n := len(d.shape)
	rows, k := d.shape[n-2], d.shape[n-1]
	shp := append(append([]int(nil), d.shape[:n-1]...), rows)
	return gen(shp, func(idx []int) float64 {
		acc := 0.0
		a := append([]int(nil), idx...)
		b := append([]int(nil), idx...)
		b[n-2] = idx[n-1]
		for j := 0; j < k; j++ {
			a[n-1], b[n-1] = j, j
			acc = float64(float32(acc + d.at(a)*e.at(b)))
		}
		return acc
	})
}

// dot returns the dot product of two vectors as a rank-0 array.
func (d dense) dot(e dense) dense {
	acc := 0.0
	for i := range d.data {
		acc = float64(float32(acc + d.data[i]*e.data[i]))
	}
	return dense{[]int{}, []float64{acc}}
}

// cumsum returns running sums along axis.
func (d dense) cumsum(axis int) dense {
	return gen(d.shape, func(idx []int) float64 {
		acc := 0.0
		src := append([]int(nil), idx...)
		for j := 0; j <= idx[axis]; j++ {
			src[axis] = j
			acc = float64(float32(acc + d.at(src)))
		}
		return acc
	})
}

// pair is one value in both worlds.
type pair struct {
	t *Tensor
	d dense
}

// randomStep applies one random op to x (sometimes with other). With
// floats, the int detour is left out: truncation would turn a difference
// in the last bit into one of a whole unit.
func randomStep(r *rand.Rand, e *Engine, x, other pair, floats bool) (pair, string) {
	n := len(x.d.shape)
	op := r.Intn(14)
	if floats && op == 13 {
		return x, "no int detour"
	}
	switch op {
	case 11: // x @ x.T over the last two axes (or a vector dot)
		c := x.t.Clip(-3, 3)
		cd := x.d.binary(dense{[]int{}, []float64{0}}, func(a, _ float64) float64 { return math.Max(-3, math.Min(3, a)) })
		if n < 2 {
			return pair{c.Matmul(c), cd.dot(cd)}, "dot"
		}
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		order[n-1], order[n-2] = order[n-2], order[n-1]
		return pair{c.Matmul(c.Transpose(-1, -2)), cd.matmulT(cd)}, "matmul x x.T"
	case 12:
		a := r.Intn(n)
		return pair{x.t.Cumsum(a), x.d.cumsum(a)}, fmt.Sprintf("cumsum(%d)", a)
	case 13: // an int detour: exact, but through casts
		it := x.t.Cast(Int32).Mul(3).FloorDiv(2).Cast(Float32)
		return pair{it, x.d.binary(dense{[]int{}, []float64{0}}, func(a, _ float64) float64 { return math.Floor(math.Trunc(a) * 3 / 2) })}, "int detour"

	case 0: // reshape to a random factorization
		shp := factor(r, prod(x.d.shape))
		return pair{x.t.Reshape(shp...), dense{shp, x.d.data}}, fmt.Sprintf("reshape%v", shp)
	case 1:
		order := r.Perm(n)
		return pair{x.t.Permute(order...), x.d.permute(order)}, fmt.Sprintf("permute%v", order)
	case 2: // insert a 1 and expand it
		a := r.Intn(n + 1)
		k := 1 + r.Intn(3)
		shp := append(append(append([]int(nil), x.d.shape[:a]...), 1), x.d.shape[a:]...)
		big := append([]int(nil), shp...)
		big[a] = k
		return pair{x.t.Reshape(shp...).Expand(big...), dense{shp, x.d.data}.expand(big)}, fmt.Sprintf("expand axis %d to %d", a, k)
	case 3:
		p := make([][2]int, n)
		for i := range p {
			p[i] = [2]int{r.Intn(2), r.Intn(2)}
		}
		return pair{x.t.Pad(p), x.d.pad(p)}, fmt.Sprintf("pad%v", p)
	case 4:
		p := make([][2]int, n)
		for i, s := range x.d.shape {
			lo := r.Intn(s)
			p[i] = [2]int{lo, lo + 1 + r.Intn(s-lo)}
		}
		return pair{x.t.Shrink(p), x.d.shrink(p)}, fmt.Sprintf("shrink%v", p)
	case 5:
		a := r.Intn(n)
		return pair{x.t.Flip(a), x.d.flip(a)}, fmt.Sprintf("flip(%d)", a)
	case 6, 7: // binary with other, made to broadcast against x
		y := other
		if prod(y.d.shape) != prod(x.d.shape) || r.Intn(2) == 0 {
			y = pair{x.t.Neg(), dense{x.d.shape, negAll(x.d.data)}}
		} else {
			y = pair{y.t.Reshape(x.d.shape...), dense{x.d.shape, y.d.data}}
		}
		switch r.Intn(4) {
		case 0:
			return pair{x.t.Add(y.t), x.d.binary(y.d, func(a, b float64) float64 { return a + b })}, "add"
		case 1:
			return pair{x.t.Sub(y.t), x.d.binary(y.d, func(a, b float64) float64 { return a - b })}, "sub"
		case 2:
			return pair{x.t.Maximum(y.t), x.d.binary(y.d, math.Max)}, "maximum"
		}
		return pair{x.t.Mul(y.t.Clip(-2, 2)), x.d.binary(y.d, func(a, b float64) float64 { return a * math.Max(-2, math.Min(2, b)) })}, "mul clip"
	case 8:
		c := float64(r.Intn(5) - 2)
		return pair{x.t.Add(c), x.d.binary(dense{[]int{}, []float64{c}}, func(a, b float64) float64 { return a + b })}, fmt.Sprintf("add %v", c)
	case 9, 10:
		axes := []int{r.Intn(n)}
		keep := r.Intn(2) == 0
		var out pair
		name := "sum"
		if r.Intn(2) == 0 {
			out = pair{x.t.Sum(axes, true), x.d.reduce(axes, func(a, b float64) float64 { return a + b }, 0)}
		} else {
			name = "max"
			out = pair{x.t.Max(axes, true), x.d.reduce(axes, math.Max, math.Inf(-1))}
		}
		if !keep && n > 1 {
			shp := append(append([]int(nil), x.d.shape[:axes[0]]...), x.d.shape[axes[0]+1:]...)
			out = pair{out.t.Reshape(shp...), dense{shp, out.d.data}}
		}
		return out, fmt.Sprintf("%s(%d, keep=%v)", name, axes[0], keep)
	}
	panic("unreachable")
}

func negAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = -x
	}
	return out
}

// factor returns a random shape of rank 1 to 4 with the given size.
func factor(r *rand.Rand, n int) []int {
	var shp []int
	for len(shp) < 3 {
		var divs []int
		for d := 2; d <= n; d++ {
			if n%d == 0 {
				divs = append(divs, d)
			}
		}
		if len(divs) == 0 || r.Intn(3) == 0 {
			break
		}
		d := divs[r.Intn(len(divs))]
		shp = append(shp, d)
		n /= d
	}
	return append(shp, n)
}

// randomInput returns a float32 input of shape shp: small integers, or
// with floats, random values in [-2, 2).
func randomInput(r *rand.Rand, e *Engine, shp []int, floats bool) pair {
	d := gen(shp, func([]int) float64 {
		if floats {
			return float64(float32(r.Float64()*4 - 2))
		}
		return float64(r.Intn(9) - 4)
	})
	return pair{e.FromFloats(d.data, shp, Float32), d}
}

func TestRandomGraphs(t *testing.T) {
	es := engines(t)
	prebuildGPU(t, es, randomGraphs)
	for name, e := range es {
		t.Run(name, func(t *testing.T) { randomGraphs(t, e) })
	}
}

// graphIters is how many random graphs each test builds.
func graphIters() int {
	if testing.Short() {
		return 40
	}
	return 150
}

// randomGraph builds the random graph of seed on e: a few random steps
// from a random input, as a tensor and as a dense array, and the steps.
func randomGraph(seed int, e *Engine, floats bool) (pair, []string) {
	r := rand.New(rand.NewSource(int64(seed)))
	shp := factor(r, []int{6, 8, 12, 16, 24}[r.Intn(5)])
	x := randomInput(r, e, shp, floats)
	other := randomInput(r, e, []int{prod(shp)}, floats)
	var trail []string
	for step := 0; step < 2+r.Intn(6); step++ {
		var what string
		x, what = randomStep(r, e, x, other, floats)
		trail = append(trail, what)
		if prod(x.d.shape) > 4096 || prod(x.d.shape) == 0 || len(x.d.shape) == 0 {
			break
		}
	}
	return x, trail
}

// Random graphs over random floats give on every engine what the reference
// device gives, within float32 rounding: the devices may order a sum
// differently, never compute something else.
func TestRandomFloatGraphs(t *testing.T) {
	es := engines(t)
	prebuildGPU(t, es, func(t *testing.T, e *Engine) {
		for seed := range graphIters() {
			got, _ := randomGraph(seed, e, true)
			got.t.Floats()
		}
	})
	ref := es["ref"]
	delete(es, "ref")
	for seed := range graphIters() {
		want, trail := randomGraph(seed, ref, true)
		w := want.t.Floats()
		for name, e := range es {
			got, _ := randomGraph(seed, e, true)
			g := got.t.Floats()
			if !slices.Equal(got.t.Shape(), want.t.Shape()) {
				t.Fatalf("%s: seed %d %v: shape %v, reference %v", name, seed, trail, got.t.Shape(), want.t.Shape())
			}
			for i := range w {
				if !closeTo(g[i], w[i], 1e-5) {
					t.Fatalf("%s: seed %d %v: element %d: got %v, reference device %v", name, seed, trail, i, g[i], w[i])
				}
			}
		}
	}
}

func randomGraphs(t *testing.T, e *Engine) {
	for seed := range graphIters() {
		x, trail := randomGraph(seed, e, false)
		got := x.t.Floats()
		if !slices.Equal(x.t.Shape(), x.d.shape) {
			t.Fatalf("seed %d %v: shape %v, want %v", seed, trail, x.t.Shape(), x.d.shape)
		}
		for i, w := range x.d.data {
			if got[i] != w {
				t.Fatalf("seed %d %v: element %d: got %v, want %v\ngot  %v\nwant %v", seed, trail, i, got[i], w, got, x.d.data)
			}
		}
	}
}
