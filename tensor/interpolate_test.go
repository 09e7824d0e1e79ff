package tensor

import (
	"math"
	"strings"
	"testing"
)

// TestInterpolateGathers checks the nearest modes against positions
// computed directly (torch's rule: floor(o*in/out), or of (o+0.5)*in/out
// for nearest-exact, in float32), on outputs read in one gather and on one
// past nearestTable positions (a gather per axis), and bilinear against
// the two-tap blend; and that nearest over two axes is one kernel.
func TestInterpolateGathers(t *testing.T) {
	e := testEngine()
	const c, h, w = 2, 3, 5
	vals := make([]float64, c*h*w)
	for i := range vals {
		vals[i] = float64(i*7%11) - 3.5
	}
	x := e.FromFloats(vals, []int{c, h, w}, Float32)
	src := func(in, out, o int, exact bool) int {
		s := float32(in) / float32(out)
		f := s * float32(o)
		if exact {
			f = s * (float32(o) + 0.5)
		}
		return min(int(f), in-1)
	}
	for _, size := range [][2]int{{7, 9}, {2, 3}, {1, 1}, {300, 260}} {
		for _, exact := range []bool{false, true} {
			mode := map[bool]string{false: "nearest", true: "nearest-exact"}[exact]
			got := x.Interpolate(size[:], mode, false).Floats()
			for ch := range c {
				for oy := range size[0] {
					for ox := range size[1] {
						want := vals[ch*h*w+src(h, size[0], oy, exact)*w+src(w, size[1], ox, exact)]
						if g := got[(ch*size[0]+oy)*size[1]+ox]; g != want {
							t.Fatalf("%s %v: (%d, %d, %d) = %v, want %v", mode, size, ch, oy, ox, g, want)
						}
					}
				}
			}
		}
	}
	// Bilinear, align_corners=False: each axis blends its two taps.
	got := x.Interpolate([]int{4, 8}, "bilinear", false).Floats()
	taps := func(in, out, o int) (int, int, float64) {
		f := float32(in)/float32(out)*(float32(o)+0.5) - 0.5
		f = min(max(f, 0), float32(in-1))
		l := float32(math.Floor(float64(f)))
		return int(l), int(math.Ceil(float64(f))), float64(f - l)
	}
	for ch := range c {
		for oy := range 4 {
			y0, y1, py := taps(h, 4, oy)
			for ox := range 8 {
				x0, x1, px := taps(w, 8, ox)
				at := func(y, x int) float64 { return vals[ch*h*w+y*w+x] }
				want := (at(y0, x0)*(1-px)+at(y0, x1)*px)*(1-py) + (at(y1, x0)*(1-px)+at(y1, x1)*px)*py
				if g := got[(ch*4+oy)*8+ox]; math.Abs(g-want) > 1e-5 {
					t.Fatalf("bilinear (%d, %d, %d) = %v, want %v", ch, oy, ox, g, want)
				}
			}
		}
	}
	big := e.FromFloats(make([]float64, 32*64*28*28), []int{32, 64, 28, 28}, Float32)
	if n := len(big.Interpolate([]int{56, 56}, "nearest", false).Schedule()); n != 1 {
		t.Errorf("nearest over two axes: %d kernels, want 1", n)
	}
}

// TestInterpolateEmpty: a resized axis of size 0 is an error in every mode
// (torch's too), while an empty leading axis resizes to an empty result.
func TestInterpolateEmpty(t *testing.T) {
	e := testEngine()
	for _, mode := range []string{"nearest", "nearest-exact", "bilinear"} {
		x := e.Full([]int{2, 3, 0}, 1, Float32)
		err := Catch(func() { x.Interpolate([]int{4}, mode, false) })
		if err == nil || !strings.Contains(err.Error(), "cannot resize an axis of size 0") {
			t.Errorf("%s over an empty axis: error %v", mode, err)
		}
		y := e.Full([]int{2, 0, 3}, 1, Float32).Interpolate([]int{4}, mode, false)
		if got := FormatShape(y.Shape()); got != "(2, 0, 4)" {
			t.Errorf("%s with an empty leading axis: shape %s", mode, got)
		}
	}
}
