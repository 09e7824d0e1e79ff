package kerneltest

import (
	"math/rand"

	"tiny/codegen"
	"tiny/shape"
)

// RandomKernel returns a small random kernel: an elementwise expression over
// loads through random views (permuted, expanded, padded, shrunk, flipped,
// reshaped into several views) and constants, sometimes reduced over random
// axes and combined with a value after the reduce.
func RandomKernel(rng *rand.Rand) *codegen.Kernel {
	g := &gen{rng: rng}
	rank := 1 + rng.Intn(3)
	g.full = make([]int, rank)
	for a := range g.full {
		g.full[a] = 1 + rng.Intn(6)
		if rng.Intn(4) == 0 {
			g.full[a] = 1 + rng.Intn(70)
		}
	}
	d := []codegen.DType{codegen.Float32, codegen.Float32, codegen.Int32, codegen.Float16, codegen.Float64, codegen.Int64, codegen.Uint8}[rng.Intn(7)]
	out := append([]int{}, g.full...)
	v := g.expr(d, 3, g.full)
	if rng.Intn(2) == 0 {
		var axes []int
		for a := range out {
			if rng.Intn(2) == 0 {
				axes = append(axes, a)
				out[a] = 1
			}
		}
		if len(axes) > 0 {
			op := []codegen.Op{codegen.OpAdd, codegen.OpMax}[rng.Intn(2)]
			v = Reduce(op, d, axes, v)
			if rng.Intn(2) == 0 {
				v = Op(codegen.OpAdd, d, v, g.expr(d, 1, out))
			}
		}
	}
	k := Kernel(g.view(out, 0), v, g.bufs...)
	k.Bufs[0].Size = g.size
	return k
}

type gen struct {
	rng  *rand.Rand
	full []int
	bufs []codegen.BufSpec
	size int // the size of the buffer of the last view built
}

func (g *gen) expr(d codegen.DType, depth int, sh []int) *codegen.Node {
	r := g.rng
	if depth == 0 || r.Intn(3) == 0 {
		if r.Intn(4) == 0 {
			return Const(float64(r.Intn(5)-1), d, Must(shape.FromInts(ones(len(sh))...).ExpandInts(sh)))
		}
		st := g.view(sh, 2)
		g.bufs = append(g.bufs, codegen.BufSpec{DType: d, Size: g.size})
		return Load(len(g.bufs), d, st)
	}
	a := g.expr(d, depth-1, sh)
	switch r.Intn(6) {
	case 0:
		if d.IsFloat() {
			return Op([]codegen.Op{codegen.OpNeg, codegen.OpExp2, codegen.OpSin, codegen.OpSqrt, codegen.OpRecip}[r.Intn(5)], d, a)
		}
		return Op(codegen.OpNeg, d, a)
	case 1:
		c := Op(codegen.OpCmpLt, codegen.Bool, a, g.expr(d, depth-1, sh))
		return Op(codegen.OpWhere, d, c, g.expr(d, depth-1, sh), a)
	case 2:
		other := []codegen.DType{codegen.Float32, codegen.Int32, codegen.Float16, codegen.Bool}[r.Intn(4)]
		return Op(codegen.OpCast, d, Op(codegen.OpCast, other, a))
	}
	ops := []codegen.Op{codegen.OpAdd, codegen.OpSub, codegen.OpMul, codegen.OpMax}
	if d.IsFloat() {
		ops = append(ops, codegen.OpDiv)
	} else {
		ops = append(ops, codegen.OpIDiv, codegen.OpMod)
	}
	return Op(ops[r.Intn(len(ops))], d, a, g.expr(d, depth-1, sh))
}

func ones(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// view returns a random tracker of shape sh built from a contiguous buffer
// through up to depth movement ops; g.size is that buffer's size.
func (g *gen) view(sh []int, depth int) shape.Tracker {
	r := g.rng
	if depth == 0 || r.Intn(3) == 0 {
		g.size = prod(sh)
		return shape.FromInts(sh...)
	}
	n := len(sh)
	switch r.Intn(6) {
	case 0: // permute
		o := r.Perm(n)
		b := make([]int, n)
		for i := range o {
			b[o[i]] = sh[i]
		}
		return Must(g.view(b, depth-1).Permute(o))
	case 1: // expand
		b := append([]int{}, sh...)
		for a := range b {
			if r.Intn(2) == 0 {
				b[a] = 1
			}
		}
		return Must(g.view(b, depth-1).ExpandInts(sh))
	case 2: // pad
		b := append([]int{}, sh...)
		p := make([][2]int, n)
		for a := range b {
			if b[a] > 2 {
				p[a] = [2]int{r.Intn(2), r.Intn(2)}
				b[a] -= p[a][0] + p[a][1]
			}
		}
		return Must(g.view(b, depth-1).PadInts(p))
	case 3: // shrink
		b := append([]int{}, sh...)
		p := make([][2]int, n)
		for a := range b {
			lo := r.Intn(3)
			b[a] += lo + r.Intn(3)
			p[a] = [2]int{lo, lo + sh[a]}
		}
		return Must(g.view(b, depth-1).ShrinkInts(p))
	case 4: // flip
		f := make([]bool, n)
		for a := range f {
			f[a] = r.Intn(2) == 0
		}
		return Must(g.view(sh, depth-1).Flip(f))
	}
	// reshape from the reversed shape (often needing a second view)
	b := make([]int, n)
	for i := range sh {
		b[i] = sh[n-1-i]
	}
	return Must(g.view(b, depth-1).ReshapeInts(sh))
}

func prod(s []int) int {
	p := 1
	for _, d := range s {
		p *= d
	}
	return p
}
