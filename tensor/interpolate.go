package tensor

import "math"

// Interpolate resizes t's last len(size) axes to size, as tinygrad's
// interpolate: mode "linear" (also "bilinear", "trilinear": linear on every
// resized axis), "nearest" or "nearest-exact"; alignCorners (linear modes
// only) maps the corner elements onto each other. The source positions of
// an axis are known when the graph is built, so each axis is a contraction
// with a constant (out, in) matrix of weights: one fused reduce, with the
// gradient of a matmul. It panics with a *Error on a bad size or mode.
func (t *Tensor) Interpolate(size []int, mode string, alignCorners bool) *Tensor {
	if len(size) == 0 || len(size) > t.Ndim() {
		fail("interpolate: invalid size %s for shape %s", fmtInts(size), FormatShape(t.n.shape))
	}
	linear := false
	switch mode {
	case "linear", "bilinear", "trilinear":
		linear = true
	case "nearest", "nearest-exact":
		if alignCorners {
			fail("interpolate: align_corners option can only be set with the interpolating mode linear")
		}
	default:
		fail("interpolate: mode %q is not supported (linear, bilinear, trilinear, nearest, nearest-exact)", mode)
	}
	for _, s := range size {
		if s <= 0 {
			fail("interpolate: invalid size %s", fmtInts(size))
		}
	}
	if linear && t.n.dtype == Uint8 {
		return t.interpolateUint8(size, alignCorners)
	}
	x := t
	if linear && !t.n.dtype.IsFloat() {
		x = t.Float()
	}
	nd := t.Ndim()
	for j := len(size) - 1; j >= 0; j-- {
		ax := nd - len(size) + j
		in, out := x.n.shape[ax], size[j]
		if in == 0 {
			fail("interpolate: cannot resize an axis of size 0")
		}
		w := make([]float64, out*in)
		if linear {
			lo, hi, perc := linearTaps(in, out, alignCorners)
			for o := range out {
				w[o*in+lo[o]] += float64(1 - float32(perc[o]))
				w[o*in+hi[o]] += perc[o]
			}
		}
		scale := float32(0)
		if out != 0 {
			scale = float32(in) / float32(out)
		}
		for o := 0; o < out && !linear; o++ {
			fo := float32(o)
			var idx float32
			if mode == "nearest-exact" {
				idx = scale * (fo + 0.5)
			} else {
				idx = scale * fo
			}
			w[o*in+min(int(idx), in-1)] = 1
		}
		// x: (..., in, rest) -> (..., 1, in, rest) against w: (out, in, 1...)
		xs := x.n.shape
		grown := append(append(append([]int{}, xs[:ax]...), 1), xs[ax:]...)
		wshp := []int{out, in}
		for range xs[ax+1:] {
			wshp = append(wshp, 1)
		}
		if linear {
			m := t.n.eng.FromFloats(w, wshp, x.n.dtype)
			x = x.Reshape(grown...).Mul(m).Sum([]int{ax + 1}, false)
		} else {
			b := make([]bool, len(w))
			for i, v := range w {
				b[i] = v != 0
			}
			m := t.n.eng.FromBools(b, wshp, Bool)
			x = m.Where(x.Reshape(grown...), t.n.eng.Scalar(0, x.n.dtype)).Sum([]int{ax + 1}, false)
		}
	}
	if x.n.dtype != t.n.dtype {
		x = x.Cast(t.n.dtype)
	}
	return x
}

// linearTaps returns, for each of out positions resized from in, the lower
// and upper source positions and the weight of the upper one, computed in
// float32 as tinygrad computes them.
func linearTaps(in, out int, alignCorners bool) (lo, hi []int, perc []float64) {
	ac := float32(0)
	if alignCorners {
		ac = 1
	}
	scale := float32(0)
	if float32(out)-ac != 0 {
		scale = (float32(in) - ac) / (float32(out) - ac)
	}
	for o := 0; o < out; o++ {
		fo := float32(o)
		var idx float32
		if alignCorners {
			idx = scale * fo
		} else {
			idx = scale*(fo+0.5) - 0.5
		}
		idx = min(max(idx, 0), float32(in-1))
		l := float32(math.Floor(float64(idx)))
		lo = append(lo, int(l))
		hi = append(hi, int(math.Ceil(float64(idx))))
		perc = append(perc, float64(idx-l))
	}
	return lo, hi, perc
}

// pickAxis returns x with axis ax replaced by x's elements at positions
// src along it (a one-hot contraction, exact in any dtype).
func (x *Tensor) pickAxis(ax int, src []int) *Tensor {
	xs := x.n.shape
	in, out := xs[ax], len(src)
	b := make([]bool, out*in)
	for o, i := range src {
		b[o*in+i] = true
	}
	grown := append(append(append([]int{}, xs[:ax]...), 1), xs[ax:]...)
	wshp := []int{out, in}
	for range xs[ax+1:] {
		wshp = append(wshp, 1)
	}
	m := x.n.eng.FromBools(b, wshp, Bool)
	return m.Where(x.Reshape(grown...), x.n.eng.Scalar(0, x.n.dtype)).Sum([]int{ax + 1}, false).Cast(x.n.dtype)
}

// interpolateUint8 is linear interpolation of uint8 as tinygrad's: axis by
// axis, the two source elements blended by Lerp's 7-bit fixed point (torch's
// uint8 bilinear), staying uint8 between axes.
func (t *Tensor) interpolateUint8(size []int, alignCorners bool) *Tensor {
	x, nd := t, t.Ndim()
	for j := len(size) - 1; j >= 0; j-- {
		ax := nd - len(size) + j
		in := x.n.shape[ax]
		if in == 0 {
			fail("interpolate: cannot resize an axis of size 0")
		}
		lo, hi, perc := linearTaps(in, size[j], alignCorners)
		pshp := []int{size[j]}
		for range x.n.shape[ax+1:] {
			pshp = append(pshp, 1)
		}
		w := t.n.eng.FromFloats(perc, pshp, Float32)
		x = x.pickAxis(ax, lo).Lerp(x.pickAxis(ax, hi), w)
	}
	return x
}
