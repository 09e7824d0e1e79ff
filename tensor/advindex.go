package tensor

import (
	"math"
	"slices"

	"tiny/codegen"
)

// This file holds indexing by integer tensors (torch's advanced indexing)
// and the ops built on the gather primitive: Gather, OneHot.

// TensorIndex indexes an axis by the positions an integer tensor holds;
// negative positions count from the end once, and positions still outside
// the axis read 0 (as tinygrad's one-hot indexing gives, with no error).
func TensorIndex(idx *Tensor) IndexItem { return IndexItem{kind: itemTensor, idx: idx} }

// advIndex is Index with tensor items, as tinygrad's _getitem: the basic
// items apply first (ints drop their axis), then the tensor items, broadcast
// together to one shape B, replace the axes they index. The axes of B stand
// where the first indexed axis was when the indexed axes are adjacent, and
// first otherwise (torch's rule, with ints already dropped). All tensor items
// read through one gather kernel.
func (t *Tensor) advIndex(items []IndexItem) *Tensor {
	used := 0
	for _, it := range items {
		if it.kind == itemInt || it.kind == itemSlice || it.kind == itemTensor {
			used++
		}
	}
	basic := make([]IndexItem, len(items))
	var dims []int
	var idxs []*Tensor
	var zeroD []bool // index tensors of rank 0
	pos := 0
	for k, it := range items {
		basic[k] = it
		switch it.kind {
		case itemTensor:
			if !it.idx.DType().IsInt() {
				fail("index: index dtype %s is not supported", it.idx.DType())
			}
			basic[k] = Slice(nil, nil, 1)
			dims = append(dims, pos)
			idxs = append(idxs, it.idx)
			zeroD = append(zeroD, it.idx.Ndim() == 0)
			pos++
		case itemSlice, itemNewAxis:
			pos++
		case itemEllipsis:
			pos += max(t.Ndim()-used, 0)
		}
	}
	x := t.Index(basic...)
	// Broadcast the index tensors together; negative positions wrap once.
	big := []int{}
	for _, ix := range idxs {
		b, err := BroadcastShape(big, ix.n.shape)
		if err != nil {
			fail("index: cannot broadcast indices: %v", err)
		}
		big = b
	}
	// Positions compute in int32 (int64 when the folded axes hold more
	// than int32 reaches), so that small integer dtypes do not wrap.
	wide := Int32
	total := 1
	for _, d := range dims {
		total *= x.n.shape[d]
	}
	if total > math.MaxInt32 {
		wide = Int64
	}
	for j, ix := range idxs {
		size := x.n.shape[dims[j]]
		if ix.DType() != Int64 {
			ix = ix.Cast(wide)
		}
		idxs[j] = ix.Lt(0).Where(ix.Add(size), ix).broadcastTo(big)
	}
	// Move the indexed axes together at dims[0] and fold them into one.
	var rest []int
	for a := range x.Ndim() {
		if !slices.Contains(dims, a) {
			rest = append(rest, a)
		}
	}
	pre, post := rest[:dims[0]], rest[dims[0]:]
	order := append(append(append([]int{}, pre...), dims...), post...)
	xp := x.Permute(order...)
	flat, count := idxs[len(idxs)-1], x.n.shape[dims[len(dims)-1]]
	if len(idxs) > 1 {
		ok := flat.Ge(0).And(flat.Lt(count))
		for j := len(idxs) - 2; j >= 0; j-- {
			size := x.n.shape[dims[j]]
			flat = flat.Add(idxs[j].Mul(count))
			ok = ok.And(idxs[j].Ge(0)).And(idxs[j].Lt(size))
			count *= size
		}
		flat = ok.Where(flat, -1)
	}
	preShape := shapeOf(x, pre)
	postShape := shapeOf(x, post)
	folded := append(append(append([]int{}, preShape...), count), postShape...)
	xp = xp.Reshape(folded...)
	gbig := big
	if len(gbig) == 0 {
		gbig = []int{1}
		flat = flat.Reshape(1)
	}
	nb := len(gbig)
	ones := func(n int) []int { return slices.Repeat([]int{1}, n) }
	src := append(append(append(append([]int{}, preShape...), ones(nb-1)...), count), postShape...)
	out := append(append(append([]int{}, preShape...), gbig...), postShape...)
	srcShape := slices.Clone(out)
	srcShape[len(preShape)+nb-1] = count
	xs := xp.Reshape(src...).Expand(srcShape...)
	ix := flat.Reshape(append(append(append([]int{}, ones(len(preShape))...), gbig...), ones(len(postShape))...)...).Expand(out...)
	res := xs.take(len(preShape)+nb-1, ix)
	if len(big) == 0 {
		res = res.Reshape(append(append([]int{}, preShape...), postShape...)...)
	}
	// Where B goes, torch's rule (and tinygrad's, whose 0-d constants are
	// ints): a 0-d index acts as an int, dropping its axis; B stands where
	// the other indexed axes were when they are adjacent once those axes
	// are gone, and first otherwise.
	var placed []int // positions of the indexed axes with the 0-d ones removed
	first := -1
	for j, d := range dims {
		if zeroD[j] {
			continue
		}
		if first < 0 {
			first = d
		}
		gone := 0
		for k, e := range dims {
			if zeroD[k] && e < d {
				gone++
			}
		}
		placed = append(placed, d-gone)
	}
	if first >= 0 {
		to := 0
		if placed[len(placed)-1]-placed[0] == len(placed)-1 {
			for _, a := range rest {
				if a < first {
					to++
				}
			}
		}
		from := len(preShape)
		if to != from {
			var others []int
			for a := range res.Ndim() {
				if a < from || a >= from+len(big) {
					others = append(others, a)
				}
			}
			perm := append([]int{}, others[:to]...)
			for a := range len(big) {
				perm = append(perm, from+a)
			}
			res = res.Permute(append(perm, others[to:]...)...)
		}
	}
	return res
}

func shapeOf(t *Tensor, axes []int) []int {
	out := make([]int, len(axes))
	for i, a := range axes {
		out[i] = t.n.shape[a]
	}
	return out
}

// Gather returns out[i][j][k] = t[idx[i][j][k]][j][k] along dim (torch's and
// tinygrad's gather): idx has t's rank, and on every other axis a size no
// larger than t's. Positions outside the axis read 0; negative ones are not
// wrapped, as in tinygrad.
func (t *Tensor) Gather(dim int, idx *Tensor) *Tensor {
	d := normAxis("gather", dim, max(t.Ndim(), 1))
	if idx.Ndim() != t.Ndim() {
		fail("gather: index rank %d does not match tensor rank %d", idx.Ndim(), t.Ndim())
	}
	if !idx.DType().IsInt() {
		fail("gather: index dtype %s is not supported", idx.DType())
	}
	if t.Ndim() == 0 {
		return t.Reshape(1).Gather(0, idx.Reshape(1)).Reshape()
	}
	bounds := make([][2]int, t.Ndim())
	for a, s := range idx.n.shape {
		if a != d && s > t.n.shape[a] {
			fail("gather: index shape %s is larger than tensor shape %s on axis %d", FormatShape(idx.n.shape), FormatShape(t.n.shape), a)
		}
		bounds[a] = [2]int{0, s}
	}
	bounds[d] = [2]int{0, t.n.shape[d]}
	return t.Shrink(bounds).take(d, idx)
}

// OneHot returns t (integers) as one-hot rows of numClasses: a new last
// axis that is 1 at the position t holds (int32, as tinygrad); numClasses
// -1 means t.max()+1.
func (t *Tensor) OneHot(numClasses int) *Tensor {
	if !t.DType().IsInt() {
		fail("one_hot: expected an integer tensor, got %s", t.DType())
	}
	if numClasses == -1 {
		numClasses = int(t.Max(nil, false).Item()) + 1
	}
	if numClasses < 0 {
		fail("one_hot: num_classes must be positive or -1, got %d", numClasses)
	}
	cls := t.n.eng.Arange(0, float64(numClasses), 1, t.DType())
	return t.Unsqueeze(-1).Eq(cls).Cast(Int32)
}

// SetIndex returns t with the positions that Index(items...) selects set to
// v (cast to t's dtype and broadcast to the selection's shape), as
// tinygrad's __setitem__: the target must be contiguous, and neither t nor
// v may require grad. A position selected twice by tensor indices takes
// the value of the last selection. The result is realized, so a loop of
// assignments keeps no graph; the caller rebinds t's holder to it (the
// language changes the tensor value itself, as tinygrad's assign).
func (t *Tensor) SetIndex(items []IndexItem, v *Tensor) *Tensor {
	if !t.ShapeTracker().Contiguous() {
		fail("setitem: setitem target needs to be contiguous")
	}
	if t.RequiresGrad() || v.RequiresGrad() {
		fail("setitem: setitem with requires_grad is not supported")
	}
	sel := t.Index(items...)
	shp, err := BroadcastShape(sel.n.shape, v.n.shape)
	if err != nil || !slices.Equal(shp, sel.n.shape) {
		fail("setitem: cannot broadcast value of shape %s to the selection's shape %s", FormatShape(v.n.shape), FormatShape(sel.n.shape))
	}
	vals := v.Cast(t.DType()).broadcastTo(sel.n.shape)
	advanced := false
	for _, it := range items {
		advanced = advanced || it.kind == itemTensor
	}
	var out *Tensor
	if inv := t.writeMap(sel); !advanced && inv != nil {
		// Where each element of t takes its value from, computed here: the
		// kernel reads it as data, so setting t[i] in a loop compiles one
		// kernel, not one per i.
		src := t.n.eng.FromInts(inv, []int{len(inv)}, Int32)
		got := vals.Reshape(-1).take(0, src)
		out = src.Ge(0).Where(got, t.Reshape(-1)).Reshape(t.n.shape...)
	} else if !advanced {
		// A basic index is a chain of views of t: undo it for the values
		// and for a mask of where they go, as backward undoes movements.
		mask := t.n.eng.Full(sel.n.shape, 1, Bool)
		for n := sel.n; n != t.n; n = n.parent {
			if n.kind != kView || n.parent == nil {
				panic("internal error: setitem: basic index is not a chain of views")
			}
			vals = unmove(n.mv, n.parent.shape, vals)
			mask = unmove(n.mv, n.parent.shape, mask)
		}
		out = mask.Where(vals, t)
	} else {
		// Positions of the selected elements in t, flat, and a scattering
		// store of the values there in order: the last value written to a
		// position wins. (A one-hot of every position against every
		// selected one took numel x selected steps.) Realized here, so
		// that the copy below is the view's own buffer, not another copy.
		where := t.n.eng.Arange(0, float64(t.Numel()), 1, Int32).Reshape(t.n.shape...).Index(items...).Reshape(-1)
		out = t.Reshape(-1).scatterStore(0, where, vals.Reshape(-1), 0).Reshape(t.n.shape...).Realize()
	}
	// Not t.Assign: in-place writes read back wrong on the GPU device
	// (main's TestAssignInPlace fails there too); the caller rebinds.
	return out.Cast(t.DType()).Contiguous().Realize()
}

// Scatter returns t with src's values written along dim at the positions
// idx holds (tinygrad's scatter): out[..., idx[p], ...] = src[p] for every
// position p of idx, whose size on each axis is at most src's and, except
// on dim, at most t's. reduce is "" (the last write to a position wins),
// "add" or "multiply" (folded with t's value). Positions outside the axis
// write nothing, as in tinygrad. It is a copy of t and a scattering store
// (scatterStore), with torch's gradients for t and src when one is tracked
// (scatterWithGrad, scatterAddWithGrad); multiply with a gradient to track
// folds a one-hot comparison over dim instead, as tinygrad does, whose
// gradient flows.
func (t *Tensor) Scatter(dim int, idx, src *Tensor, reduce string) *Tensor {
	if reduce != "" && reduce != "add" && reduce != "multiply" {
		fail("scatter: reduce must be none, 'add' or 'multiply', got '%s'", reduce)
	}
	if !idx.DType().IsInt() {
		fail("scatter: index dtype %s is not supported", idx.DType())
	}
	src = src.Cast(t.DType())
	if idx.Ndim() != t.Ndim() || src.Ndim() != t.Ndim() {
		fail("scatter: self.ndim, index.ndim and src.ndim must all equal, got %d, %d and %d", t.Ndim(), idx.Ndim(), src.Ndim())
	}
	if t.Ndim() == 0 {
		return t.Reshape(1).Scatter(0, idx.Reshape(1), src.Reshape(1), reduce).Reshape()
	}
	d := normAxis("scatter", dim, t.Ndim())
	cut := make([][2]int, t.Ndim())
	for a, s := range idx.n.shape {
		if (a != d && s > t.n.shape[a]) || s > src.n.shape[a] {
			fail("scatter: index shape %s must be no larger than src shape %s, and than self shape %s except on dim %d",
				FormatShape(idx.n.shape), FormatShape(src.n.shape), FormatShape(t.n.shape), d)
		}
		cut[a] = [2]int{0, s}
	}
	src = src.Shrink(cut)
	memo := map[*lazy]bool{}
	tracked := reachesMarked(t.n, memo) || reachesMarked(src.n, memo)
	if (reduce == "" || t.n.dtype != Bool) && !tracked {
		return t.scatterStore(d, idx, src, map[string]codegen.Op{"add": codegen.OpAdd, "multiply": codegen.OpMul}[reduce])
	}
	if reduce == "" && t.n.dtype.IsFloat() {
		return t.scatterWithGrad(d, idx, src)
	}
	if reduce == "add" && t.n.dtype.IsFloat() {
		return t.scatterAddWithGrad(d, idx, src)
	}
	size := t.n.shape[d]
	m := idx.n.shape[d]
	wide := slices.Insert(slices.Clone(idx.n.shape), d, size) // (..., size, m, ...)
	pos := t.n.eng.Arange(0, float64(size), 1, idx.DType()).Reshape(axisShape(len(wide), d, size)...)
	hit := idx.Unsqueeze(d).Expand(wide...).Eq(pos)
	vals := src.Unsqueeze(d).Expand(wide...)
	// Pad the result of the fold to t's shape: positions idx does not
	// reach keep t's values.
	pad := make([][2]int, t.Ndim())
	for a := range pad {
		if a != d {
			pad[a] = [2]int{0, t.n.shape[a] - idx.n.shape[a]}
		}
	}
	fold := []int{d + 1}
	switch reduce {
	case "add":
		return hit.Where(vals, 0).Sum(fold, false).Cast(t.DType()).Pad(pad).Add(t)
	case "multiply":
		return hit.Where(vals, 1).Prod(fold, false).Cast(t.DType()).Pad(pad, 1).Mul(t)
	}
	// The last write wins: one reduce finds, for each position, the last
	// p along dim that writes it (1-based, 0 for none), and a gather reads
	// src there. (Picking src's value inside the fold as well took a
	// second reduce over the same one-hot: 3x the time.)
	ord := t.n.eng.Arange(1, float64(m+1), 1, Int32).Reshape(axisShape(len(wide), d+1, m)...)
	last := hit.Where(ord, 0).Max(fold, false).Contiguous()
	val := src.take(d, last.Sub(1)).Pad(pad)
	wrote := last.Gt(0).Pad(pad)
	return wrote.Where(val, t)
}

// scatterStore is Scatter with no gradient to track: a copy of t, into
// which one kernel over idx's positions writes src's values where idx says
// (a scattering store, codegen.Node), so that the last write to an element
// stays; with op (OpAdd, OpMul) each write folds into the element instead,
// in the order of idx's positions (torch's order on the CPU: (t + a) + b).
// It reads each index and value once, where the one-hot fold compares
// every index with every position of the axis: 4096x1024 by 4096x64
// indices took 13-15 ms a call that way (NumPy's put_along_axis 3-5).
func (t *Tensor) scatterStore(d int, idx, src *Tensor, op codegen.Op) *Tensor {
	into := &lazy{kind: kContiguous, dtype: t.n.dtype, shape: t.n.shape, src: []*lazy{t.n}, eng: t.n.eng}
	n := &lazy{kind: kScatter, op: op, dtype: t.n.dtype, shape: slices.Clone(t.n.shape), src: []*lazy{into, idx.n, src.n}, axes: []int{d}, eng: t.n.eng}
	return &Tensor{n}
}

// scatterWithGrad is Scatter's last write winning with a gradient to track:
// the store forward, and torch's gradient: self's where no index writes,
// src's where its position was the last write to its element. Which
// position wrote last comes from a store of the positions' ordinals
// (1-based, 0 where nothing was written) read back at each position by a
// gather, so that the gradient too is linear in the indices, not the
// one-hot fold's places x indices.
func (t *Tensor) scatterWithGrad(d int, idx, src *Tensor) *Tensor {
	out := t.scatterStore(d, idx, src, 0)
	ord := t.n.eng.Arange(1, float64(idx.Numel()+1), 1, Int32).Reshape(idx.n.shape...)
	last := t.n.eng.Full(t.n.shape, 0, Int32).scatterStore(d, idx, ord, 0)
	return withGrad(out, []*Tensor{t, src}, func(g *Tensor) []*Tensor {
		mine := last.Gather(d, idx).Eq(ord)
		return []*Tensor{last.Eq(0).Where(g, 0.0), mine.Where(g.Gather(d, idx), 0.0)}
	})
}

// scatterAddWithGrad is a scatter's add with a gradient to track: the
// folding store, and torch's rule: self's gradient is g, src's is g at the
// element its position adds to (none where the index is out of range).
// The one-hot fold it replaces compared every position with every place
// along dim (4096x1024 by 4096x64: 268M comparisons a call).
func (t *Tensor) scatterAddWithGrad(d int, idx, src *Tensor) *Tensor {
	out := t.scatterStore(d, idx, src, codegen.OpAdd)
	return withGrad(out, []*Tensor{t, src}, func(g *Tensor) []*Tensor {
		in := idx.Lt(0).Not().And(idx.Lt(t.n.shape[d]))
		return []*Tensor{g, in.Where(g.Gather(d, idx), 0.0)}
	})
}

// MaskedFill returns value where mask is true and t elsewhere, broadcast
// together (tinygrad's masked_fill).
func (t *Tensor) MaskedFill(mask *Tensor, value any) *Tensor {
	return mask.Where(value, t)
}

// writeMap returns, for each element of t in order, the position in the
// flattened sel it is selected by, or -1: sel a view of contiguous t
// through one unmasked view (what basic indexing gives), else nil.
func (t *Tensor) writeMap(sel *Tensor) []int64 {
	numel := t.Numel()
	inv := make([]int64, numel)
	for i := range inv {
		inv[i] = -1
	}
	if sel.n == t.n {
		for i := range inv {
			inv[i] = int64(i)
		}
		return inv
	}
	if sel.n.kind != kView || sel.n.base != t.n.baseOf() || len(sel.n.st.Views) != 1 || sel.n.st.Views[0].Mask != nil {
		return nil
	}
	v := sel.n.st.Views[0]
	off, ok := v.Offset.Int()
	if !ok {
		return nil
	}
	strides := make([]int64, len(v.Strides))
	for a, st := range v.Strides {
		if strides[a], ok = st.Int(); !ok {
			return nil
		}
	}
	shp := sel.n.shape
	idx := make([]int, len(shp))
	for j := range prod(shp) {
		p := off
		for a, k := range idx {
			p += int64(k) * strides[a]
		}
		if p < 0 || p >= int64(numel) {
			return nil
		}
		inv[p] = int64(j)
		for a := len(idx) - 1; a >= 0; a-- {
			idx[a]++
			if idx[a] < shp[a] {
				break
			}
			idx[a] = 0
		}
	}
	return inv
}
