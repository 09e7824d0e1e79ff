package shape

import (
	"fmt"
	"math/rand"
	"testing"
)

// This file is the Go form of tinygrad's CheckingShapeTracker: every movement
// op is applied both to a Tracker and to a dense array holding, for each
// element, the buffer index it reads (-1 for padding); then every element's
// (idx, valid), raw, simplified, rendered and after Tracker.Simplify, must
// give the dense array's value.

// dense is a row-major array of buffer indices.
type dense struct {
	shape []int
	vals  []int64
}

func iota(shape ...int) dense {
	d := dense{shape: shape, vals: make([]int64, size(shape))}
	for i := range d.vals {
		d.vals[i] = int64(i)
	}
	return d
}

func size(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// remap builds the array of shape whose element at idx is the element of d
// at from(idx), or -1 when from reports false.
func (d dense) remap(shape []int, from func(idx []int) ([]int, bool)) dense {
	out := dense{shape: shape, vals: make([]int64, size(shape))}
	idx := make([]int, len(shape))
	for flat := range out.vals {
		rest := flat
		for i := len(shape) - 1; i >= 0; i-- {
			idx[i] = rest % shape[i]
			rest /= shape[i]
		}
		out.vals[flat] = -1
		if old, ok := from(idx); ok {
			out.vals[flat] = d.at(old)
		}
	}
	return out
}

func (d dense) at(idx []int) int64 {
	flat := 0
	for i, x := range idx {
		flat = flat*d.shape[i] + x
	}
	return d.vals[flat]
}

func (d dense) permute(order []int) dense {
	shape := make([]int, len(order))
	for i, a := range order {
		shape[i] = d.shape[a]
	}
	return d.remap(shape, func(idx []int) ([]int, bool) {
		old := make([]int, len(idx))
		for i, a := range order {
			old[a] = idx[i]
		}
		return old, true
	})
}

func (d dense) expand(shape []int) dense {
	return d.remap(shape, func(idx []int) ([]int, bool) {
		old := make([]int, len(idx))
		for i := range idx {
			if d.shape[i] != 1 {
				old[i] = idx[i]
			}
		}
		return old, true
	})
}

func (d dense) pad(p [][2]int) dense {
	shape := make([]int, len(p))
	for i, x := range p {
		shape[i] = d.shape[i] + x[0] + x[1]
	}
	return d.remap(shape, func(idx []int) ([]int, bool) {
		old := make([]int, len(idx))
		for i := range idx {
			old[i] = idx[i] - p[i][0]
			if old[i] < 0 || old[i] >= d.shape[i] {
				return nil, false
			}
		}
		return old, true
	})
}

func (d dense) shrink(p [][2]int) dense {
	shape := make([]int, len(p))
	for i, x := range p {
		shape[i] = x[1] - x[0]
	}
	return d.remap(shape, func(idx []int) ([]int, bool) {
		old := make([]int, len(idx))
		for i := range idx {
			old[i] = idx[i] + p[i][0]
		}
		return old, true
	})
}

func (d dense) stride(k []int) dense {
	shape := make([]int, len(k))
	for i, m := range k {
		shape[i] = (d.shape[i] + abs(m) - 1) / abs(m)
	}
	return d.remap(shape, func(idx []int) ([]int, bool) {
		old := make([]int, len(idx))
		for i, m := range k {
			old[i] = idx[i] * m
			if m < 0 {
				old[i] = d.shape[i] - 1 + idx[i]*m
			}
		}
		return old, true
	})
}

// checker applies ops to a tracker and a dense array side by side. After
// split, the ops also build a second tracker from the shape at that point;
// base composed with it must index like the whole sequence.
type checker struct {
	t         testing.TB
	st        Tracker
	d         dense
	split     bool
	base, alt Tracker
}

func newChecker(t testing.TB, shape ...int) *checker {
	return &checker{t: t, st: FromInts(shape...), d: iota(shape...)}
}

// startSplit begins the second tracker at the current shape.
func (c *checker) startSplit() {
	c.split, c.base, c.alt = true, c.st, FromInts(c.d.shape...)
}

func (c *checker) apply(name string, arg any, op func(Tracker) (Tracker, error), d dense) {
	c.t.Helper()
	st, err := op(c.st)
	if err != nil {
		c.t.Fatalf("%s%v on %s: %v", name, arg, c.st, err)
	}
	if c.split {
		if c.alt, err = op(c.alt); err != nil {
			c.t.Fatalf("%s%v on %s: %v", name, arg, c.alt, err)
		}
	}
	c.st, c.d = st, d
	c.check(name, arg)
}

func (c *checker) reshape(shape ...int) {
	c.apply("reshape", shape, func(s Tracker) (Tracker, error) { return s.ReshapeInts(shape) }, dense{shape: shape, vals: c.d.vals})
}

func (c *checker) permute(order ...int) {
	c.apply("permute", order, func(s Tracker) (Tracker, error) { return s.Permute(order) }, c.d.permute(order))
}

func (c *checker) expand(shape ...int) {
	c.apply("expand", shape, func(s Tracker) (Tracker, error) { return s.ExpandInts(shape) }, c.d.expand(shape))
}

func (c *checker) pad(p ...[2]int) {
	c.apply("pad", p, func(s Tracker) (Tracker, error) { return s.PadInts(p) }, c.d.pad(p))
}

func (c *checker) shrink(p ...[2]int) {
	c.apply("shrink", p, func(s Tracker) (Tracker, error) { return s.ShrinkInts(p) }, c.d.shrink(p))
}

func (c *checker) stride(k ...int) {
	c.apply("stride", k, func(s Tracker) (Tracker, error) { return s.Stride(k) }, c.d.stride(k))
}

func (c *checker) flip(axes ...bool) {
	k := make([]int, len(axes))
	for i, f := range axes {
		k[i] = 1
		if f {
			k[i] = -1
		}
	}
	c.apply("flip", axes, func(s Tracker) (Tracker, error) { return s.Flip(axes) }, c.d.stride(k))
}

// check compares every element, through every way of computing it.
func (c *checker) check(name string, arg any) {
	c.t.Helper()
	want := c.d.vals
	ridx := c.st.Ridxs(nil)
	ri, rv := c.st.RawIndexExpr(ridx)
	si, sv := c.st.IndexExpr(ridx)
	simp := c.st.Simplify()
	pi, pv := simp.IndexExpr(simp.Ridxs(nil))
	es, vs := si.Render(), sv.Render()
	for _, way := range []struct {
		what string
		got  []int64
	}{
		{"raw", indexMap(c.st, nodeEval(ri, rv))},
		{"simplified", indexMap(c.st, nodeEval(si, sv))},
		{"rendered " + es + " | " + vs, indexMap(c.st, stringEval(c.t.(*testing.T), es, vs))},
		{"after Simplify " + simp.String(), indexMap(simp, nodeEval(pi, pv))},
	} {
		if !equalInts(way.got, want) {
			c.t.Fatalf("after %s%v: %s index map\n got %v\nwant %v\ntracker %s", name, arg, way.what, way.got, want, c.st)
		}
	}
	if c.split {
		comp := c.base.Compose(c.alt)
		ci, cv := comp.IndexExpr(comp.Ridxs(nil))
		if got := indexMap(comp, nodeEval(ci, cv)); !equalInts(got, want) {
			c.t.Fatalf("after %s%v: %s composed with %s = %s\n got %v\nwant %v", name, arg, c.base, c.alt, comp, got, want)
		}
	}
}

func TestCheckingTracker(t *testing.T) {
	c := newChecker(t, 4, 3)
	c.permute(1, 0)
	c.reshape(2, 6)
	c.pad([2]int{1, 0}, [2]int{0, 2})
	c.shrink([2]int{0, 2}, [2]int{1, 7})
	c.stride(1, -2)
	c.reshape(6)
	c.flip(true)
	c.reshape(2, 1, 3)
	c.expand(2, 4, 3)
	c.permute(2, 0, 1)

	c = newChecker(t, 3, 3, 3)
	c.stride(1, 1, -2)
	c.reshape(3, 6)
	c.shrink([2]int{1, 2}, [2]int{1, 5})
	c.stride(1, -1)

	c = newChecker(t, 1, 5, 1, 15, 1)
	c.pad([2]int{0, 0}, [2]int{0, 5}, [2]int{0, 0}, [2]int{0, 15}, [2]int{0, 0})
	c.reshape(10, 1, 30)
	c.permute(2, 1, 0)
	c.reshape(2, 3, 5, 2, 5)
	if len(c.st.Views) != 1 {
		t.Errorf("splitting a padded view needs one view, got %s", c.st)
	}
}

// FuzzTracker applies random op sequences, as tinygrad's
// fuzz_shapetracker.py does, through the checking tracker.
func FuzzTracker(f *testing.F) {
	f.Add([]byte{3, 2, 4, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{2, 4, 4, 4, 0, 9, 3, 8, 2, 7, 1, 6, 5, 5, 4})
	f.Add([]byte("pad then reshape then stride"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64 {
			return
		}
		fuzzTracker(t, data)
	})
}

func TestTrackerProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	n := 400
	if testing.Short() {
		n = 50
	}
	for i := 0; i < n; i++ {
		data := make([]byte, 40)
		rng.Read(data)
		fuzzTracker(t, data)
	}
}

func fuzzTracker(t *testing.T, data []byte) {
	g := &byteGen{data: data}
	rank := 1 + g.n(3)
	shape := make([]int, rank)
	for i := range shape {
		shape[i] = 1 + g.n(5)
	}
	c := newChecker(t, shape...)
	split := g.n(8)
	for steps := 0; steps < 8 && len(g.data) > 0; steps++ {
		if steps == split {
			c.startSplit()
		}
		fuzzOp(c, g)
	}
}

type byteGen struct{ data []byte }

// n returns a value in [0, k).
func (g *byteGen) n(k int) int {
	if len(g.data) == 0 || k <= 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return int(b) % k
}

func fuzzOp(c *checker, g *byteGen) {
	shape := c.d.shape
	rank := len(shape)
	switch g.n(8) {
	case 0:
		order := rand.New(rand.NewSource(int64(g.n(256)))).Perm(rank)
		c.permute(order...)
	case 1:
		if size(shape) > 300 {
			return
		}
		p := make([][2]int, rank)
		for i := range p {
			p[i] = [2]int{g.n(3), g.n(3)}
		}
		c.pad(p...)
	case 2:
		p := make([][2]int, rank)
		for i, s := range shape {
			b := g.n(s + 1)
			p[i] = [2]int{b, b + g.n(s-b+1)}
		}
		c.shrink(p...)
	case 3:
		c.reshape(randomShape(size(shape), g)...)
	case 4:
		k := make([]int, rank)
		for i := range k {
			k[i] = []int{1, -1, 2, -2, 3}[g.n(5)]
		}
		c.stride(k...)
	case 5:
		ns := append([]int{}, shape...)
		for i, s := range ns {
			if s == 1 {
				ns[i] = 1 + g.n(3)
			}
		}
		if size(ns) <= 600 {
			c.expand(ns...)
		}
	case 6:
		axes := make([]bool, rank)
		for i := range axes {
			axes[i] = g.n(2) == 1
		}
		c.flip(axes...)
	case 7:
		// merge two adjacent dims or split one, the reshapes merge_dims handles
		if rank >= 2 && g.n(2) == 0 {
			i := g.n(rank - 1)
			ns := append(append(append([]int{}, shape[:i]...), shape[i]*shape[i+1]), shape[i+2:]...)
			c.reshape(ns...)
		} else {
			i := g.n(rank)
			for _, f := range []int{2, 3, 5} {
				if shape[i]%f == 0 {
					ns := append(append(append([]int{}, shape[:i]...), f, shape[i]/f), shape[i+1:]...)
					c.reshape(ns...)
					return
				}
			}
			c.reshape(append(append(append([]int{}, shape[:i]...), 1, shape[i]), shape[i+1:]...)...)
		}
	}
}

// randomShape returns a shape of n elements with up to four dims.
func randomShape(n int, g *byteGen) []int {
	var out []int
	for len(out) < 3 && n > 1 {
		var divs []int
		for d := 1; d <= n; d++ {
			if n%d == 0 {
				divs = append(divs, d)
			}
		}
		d := divs[g.n(len(divs))]
		out = append(out, d)
		n /= d
	}
	return append(out, n)
}

func TestCheckerSelf(t *testing.T) {
	d := iota(2, 3).permute([]int{1, 0})
	if fmt.Sprint(d.vals) != "[0 3 1 4 2 5]" {
		t.Errorf("dense permute: %v", d.vals)
	}
	d = iota(4).stride([]int{-2})
	if fmt.Sprint(d.vals) != "[3 1]" {
		t.Errorf("dense stride: %v", d.vals)
	}
}
