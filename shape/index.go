package shape

import (
	"fmt"

	"tiny/symbolic"
)

// This file defines the index expressions of views and trackers: for output
// indices idxs, the buffer index idx and the boolean valid that tells whether
// the element exists (it is false in padding).

// IndexExpr returns the raw (unsimplified) buffer index and validity of the
// view at idxs, one index per dim, with valid anded onto the given one.
func (v View) IndexExpr(idxs []*symbolic.Node, valid *symbolic.Node) (idx, ok *symbolic.Node) {
	idx = v.Offset
	if valid == nil {
		valid = symbolic.Bool(true)
	}
	for i, x := range idxs {
		if !isInt(v.Shape[i], 1) && !isInt(v.Strides[i], 0) {
			idx = symbolic.Add(idx, symbolic.Mul(x, v.Strides[i]))
		}
		if v.Mask != nil {
			m := v.Mask[i]
			if !isInt(m[0], 0) {
				valid = symbolic.And(valid, symbolic.Ge(x, m[0]))
			}
			if !eq(m[1], v.Shape[i]) {
				valid = symbolic.And(valid, symbolic.Lt(x, m[1]))
			}
		}
	}
	return idx, valid
}

// RawIndexExpr returns the unsimplified (idx, valid) of the tracker at idxs:
// the last view indexes with idxs, and each earlier view (minified) with the
// row-major unravelling of the flat index the view after it computes.
//
// It panics if idxs does not hold one index per axis, a programming error.
func (st Tracker) RawIndexExpr(idxs []*symbolic.Node) (idx, valid *symbolic.Node) {
	if len(idxs) != len(st.Shape()) {
		panic(fmt.Sprintf("shape: got %d indices for shape %s", len(idxs), Tuple(st.Shape())))
	}
	idx, valid = st.last().IndexExpr(idxs, nil)
	for i := len(st.Views) - 2; i >= 0; i-- {
		v := st.Views[i].Minify()
		sub := make([]node, len(v.Shape))
		acc := c(1)
		for d := len(v.Shape) - 1; d >= 0; d-- {
			sub[d] = symbolic.Mod(symbolic.Div(idx, acc), v.Shape[d])
			acc = mul(acc, v.Shape[d])
		}
		idx, valid = v.IndexExpr(sub, valid)
	}
	return idx, valid
}

// IndexExpr returns the simplified (idx, valid) of the tracker at idxs, one
// node per output dim: element idxs reads buffer index idx when valid is true.
// idx is simplified under valid (see underValid), so it is meaningful only
// where valid is true; where valid is false the element is padding and no
// buffer element is read.
func (st Tracker) IndexExpr(idxs []*symbolic.Node) (idx, valid *symbolic.Node) {
	idx, valid = st.RawIndexExpr(idxs)
	valid = symbolic.Simplify(valid)
	return symbolic.Simplify(underValid(idx, valid)), valid
}

// underValid narrows the bounds of the variables of idx by the clauses of
// valid of the form x<c and (x<c)!=True, which hold wherever idx is used.
// Narrow bounds let Simplify prove numerators non-negative: with a mask
// starting at 2, (ridx0+-2)%2 folds to ridx0%2, as in tinygrad.
func underValid(idx, valid *symbolic.Node) *symbolic.Node {
	lo, hi := map[string]int64{}, map[string]int64{}
	vars := map[string]*symbolic.Node{}
	for _, c := range splitAnd(valid) {
		neg := false
		if c.Op == symbolic.OpNe && c.Src[1].IsTrue() {
			c, neg = c.Src[0], true
		}
		if c.Op != symbolic.OpLt || c.Src[0].Op != symbolic.OpVar || !c.Src[1].IsConst() || c.Src[1].IsBool {
			continue
		}
		x, k := c.Src[0], c.Src[1].Val
		if _, ok := vars[x.Name]; !ok {
			vars[x.Name], lo[x.Name], hi[x.Name] = x, x.Min(), x.Max()
		}
		if neg {
			lo[x.Name] = max(lo[x.Name], k)
		} else {
			hi[x.Name] = min(hi[x.Name], k-1)
		}
	}
	if len(vars) == 0 {
		return idx
	}
	m := map[string]*symbolic.Node{}
	for name, x := range vars {
		if r := x.Restrict(lo[name], hi[name]); r != x {
			m[name] = r
		}
	}
	return symbolic.Substitute(idx, m)
}

func splitAnd(n *symbolic.Node) []*symbolic.Node {
	if n.Op != symbolic.OpAnd {
		return []*symbolic.Node{n}
	}
	return append(splitAnd(n.Src[0]), splitAnd(n.Src[1])...)
}

// Ridxs returns the loop indices of the tracker's output axes, one
// symbolic.Range per axis bounded by its dim, named by names; axes beyond
// names (all of them for nil) are named ridx0, ridx1, ...
func (st Tracker) Ridxs(names []string) []*symbolic.Node {
	shape := st.Shape()
	out := make([]*symbolic.Node, len(shape))
	for i, s := range shape {
		name := fmt.Sprintf("ridx%d", i)
		if i < len(names) {
			name = names[i]
		}
		out[i] = symbolic.Range(name, i, max(s.Max()-1, 0))
	}
	return out
}

// Render returns the simplified idx and valid rendered in tinygrad's notation
// with the output indices named by names (nil names them ridx0, ridx1, ...).
func (st Tracker) Render(names []string) (idx, valid string) {
	i, v := st.IndexExpr(st.Ridxs(names))
	return i.Render(), v.Render()
}

// Minify returns the view reshaped to its merged dims (mergeDims), the
// fewest dims that index it the same way; symbolic views stay as they are.
func (v View) Minify() View {
	if !allInt(v.Shape) || !allInt(v.Strides) || v.Mask != nil && !allInt(flatMask(v.Mask)) {
		return v
	}
	blocks := mergeDims(v.Shape, v.Strides, v.Mask)
	shape := make([]node, len(blocks))
	for i, b := range blocks {
		shape[i] = b.size
	}
	if nv, ok := v.Reshape(shape); ok {
		return nv
	}
	return v
}

func flatMask(mask [][2]node) []node {
	out := make([]node, 0, 2*len(mask))
	for _, m := range mask {
		out = append(out, m[0], m[1])
	}
	return out
}
