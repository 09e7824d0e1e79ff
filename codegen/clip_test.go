package codegen

import (
	"strings"
	"testing"

	"tiny/shape"
	"tiny/symbolic"
)

// paddedConvKernel returns a convolution's input gradient in one spatial
// dimension: out[b, o, co] = sum over c, k of g[o+k-(k-1), b, c] *
// w[k, c, co], g (w, b, c) read through a view padded by k-1 on both
// sides, the windows a second view over it.
func paddedConvKernel(w, b, c, co, k int) *Kernel {
	base := must(shape.FromInts(w, b, c).PadInts([][2]int{{k - 1, k - 1}, {0, 0}, {0, 0}}))
	out := w + k - 1
	shp := shape.Ints(b, out, co, c, k)
	win, err := shape.NewView(shp, shape.Ints(c, b*c, 0, 1, b*c), symbolic.C(0), nil)
	if err != nil {
		panic(err)
	}
	wv, err := shape.NewView(shp, shape.Ints(0, 0, 1, co, c*co), symbolic.C(0), nil)
	if err != nil {
		panic(err)
	}
	x := shape.Tracker{Views: append(append([]shape.View{}, base.Views...), win)}
	return &Kernel{AST: store(Float32, shape.FromInts(b, out, co, 1, 1), sum([]int{3, 4},
		alu(OpMul, Float32, load(1, Float32, x), load(2, Float32, shape.Tracker{Views: []shape.View{wv}})))),
		Bufs: []BufSpec{{Float32, b * out * co}, {Float32, w * b * c}, {Float32, k * c * co}}}
}

// TestClipOpt checks the clipped kernel window of a padded convolution:
// CLIP is recorded, the loop over the taps runs between computed bounds
// with the axis's extent in its Val, the loads inside have no gate, a
// replay gives the same program and Skip keeps the whole window.
func TestClipOpt(t *testing.T) {
	k := paddedConvKernel(9, 12, 4, 16, 3)
	p := lower(t, k, Options{})
	if !p.Opts.Has(OptClip) {
		t.Fatalf("no CLIP in %s\n%s", p.Opts, p)
	}
	clipped := 0
	for _, u := range p.UOps {
		switch {
		case u.Op == OpRange && u.Val > 0:
			clipped++
			if u.Val != 3 || p.UOps[u.Src[0]].Op == OpConst || p.UOps[u.Src[1]].Op == OpConst {
				t.Errorf("clipped RANGE %+v: want computed bounds and Val 3", u)
			}
		case u.Op == OpLoad && len(u.Src) > 2:
			t.Errorf("a gated load is left in the clipped loop:\n%s", p)
		}
	}
	if clipped != 1 {
		t.Errorf("%d clipped loops, want 1:\n%s", clipped, p)
	}
	if q := lower(t, k, Options{Replay: p.Opts}); q.String() != p.String() {
		t.Errorf("replaying %s did not give the same program:\n%s\nreplayed:\n%s", p.Opts, p, q)
	}
	q := lower(t, k, Options{Skip: []OptOp{OptClip}})
	if q.Opts.Has(OptClip) || strings.Contains(q.String(), "MAX          : index") {
		t.Errorf("Skip CLIP: still clipped\n%s", q)
	}
	// The same sums with compensated blocks (a reduce longer than the
	// block): a skipped block would move the sum by the last error.
	if r := lower(t, k, Options{NoReorder: true}); r.Opts.Has(OptClip) {
		t.Errorf("clipped a plain nest with compensated blocks: %s", r.Opts)
	}
}
