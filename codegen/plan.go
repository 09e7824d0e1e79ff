package codegen

import (
	"fmt"
	"slices"

	"tiny/shape"
	"tiny/symbolic"
)

// plan is a kernel's iteration space while the optimizations reshape it:
// the full shape, which axes are reduced, and the ShapeTracker of every
// Load, Const and Store reshaped along with it.
type plan struct {
	k       *Kernel
	shape   []int
	red     []bool
	reduces []*Node       // the Reduce nodes, all over the same axes, each after those inside it
	level   map[*Node]int // of each reduce: 0, or one more than the highest level of the reduces inside it
	top     int           // the highest level
	leaves  []*Node       // Load, Const, Gather and Store nodes
	sts     map[*Node]shape.Tracker
	never   map[*Node]bool              // loads and consts whose tracker is never valid: they read 0
	strides [][]int64                   // loadStrides' answer for the current shape; nil until asked
	abs     map[*Node][2]*symbolic.Node // absExpr's answers (clip.go), asked once the shape is final
}

// analyze checks k and returns its plan before any optimization.
func analyze(k *Kernel) (pl *plan, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("codegen: %v", r)
		}
	}()
	if k.AST == nil || k.AST.Op != OpStore {
		return nil, fmt.Errorf("codegen: kernel root must be STORE")
	}
	pl = &plan{k: k, sts: map[*Node]shape.Tracker{}, never: map[*Node]bool{}, level: map[*Node]int{}}
	// depth is 0 for a node with no reduce at or below it, else one more
	// than the highest level of those reduces.
	depth := map[*Node]int{}
	var walk func(n *Node) (int, error)
	walk = func(n *Node) (int, error) {
		if d, ok := depth[n]; ok {
			return d, nil
		}
		switch n.Op {
		case OpLoad, OpConst, OpStore, OpGather:
			pl.leaves = append(pl.leaves, n)
			pl.sts[n] = n.ST
			if n.Op != OpStore && neverValid(n.ST) {
				// An empty mask cannot always survive a reshape (to no
				// axes, say): read 0 through a plain broadcast instead.
				pl.never[n] = true
				pl.sts[n] = broadcast(n.ST.IntShape())
			}
			if n.Op != OpConst && (n.Buf < 0 || n.Buf >= len(k.Bufs)) {
				return 0, fmt.Errorf("codegen: buffer %d out of range", n.Buf)
			}
		}
		d := 0
		for _, s := range n.Src {
			ds, err := walk(s)
			if err != nil {
				return 0, err
			}
			d = max(d, ds)
		}
		if n.Op == OpReduce {
			if len(pl.reduces) > 0 && !slices.Equal(pl.reduces[0].Axes, n.Axes) {
				return 0, fmt.Errorf("codegen: reduces over different axes in one kernel")
			}
			pl.reduces = append(pl.reduces, n)
			pl.level[n] = d
			pl.top = max(pl.top, d)
			d++
		}
		depth[n] = d
		return d, nil
	}
	if _, err := walk(k.AST); err != nil {
		return nil, err
	}
	pl.shape = k.AST.ST.IntShape()
	pl.red = make([]bool, len(pl.shape))
	if len(pl.reduces) > 0 {
		full := pl.leafBelow(pl.reduces[0]).ST.IntShape()
		for _, a := range pl.reduces[0].Axes {
			if a < 0 || a >= len(pl.shape) {
				return nil, fmt.Errorf("codegen: reduce axis %d out of range", a)
			}
			pl.red[a] = true
			pl.shape[a] = full[a]
		}
	}
	for _, n := range pl.leaves {
		if err := pl.checkShape(n.ST.IntShape()); err != nil {
			return nil, err
		}
	}
	return pl, nil
}

// neverValid reports whether st has a view whose mask is empty along some
// axis of nonzero size, so that no index is ever valid.
func neverValid(st shape.Tracker) bool {
	for _, v := range st.Views {
		for a, m := range v.Mask {
			lo, ok1 := m[0].Int()
			hi, ok2 := m[1].Int()
			if ok1 && ok2 && lo >= hi && (!v.Shape[a].IsConst() || v.Shape[a].Val > 0) {
				return true
			}
		}
	}
	return false
}

// broadcast returns a tracker of shape s with every stride 0.
func broadcast(s []int) shape.Tracker {
	ones := make([]int, len(s))
	for a := range ones {
		ones[a] = 1
	}
	st, err := shape.FromInts(ones...).ExpandInts(s)
	if err != nil {
		panic("internal error: " + err.Error())
	}
	return st
}

// leafBelow returns a Load or Const under n.
func (pl *plan) leafBelow(n *Node) *Node {
	if n.Op == OpLoad || n.Op == OpConst {
		return n
	}
	for _, s := range n.Src {
		if l := pl.leafBelow(s); l != nil {
			return l
		}
	}
	return nil
}

// checkShape reports whether a tracker's shape fits the kernel's: equal on
// every axis, or 1 on a reduced axis.
func (pl *plan) checkShape(s []int) error {
	if len(s) != len(pl.shape) {
		return fmt.Errorf("codegen: shape %v does not match kernel shape %v", s, pl.shape)
	}
	for a, d := range s {
		if d != pl.shape[a] && !(d == 1 && pl.red[a]) {
			return fmt.Errorf("codegen: shape %v does not match kernel shape %v", s, pl.shape)
		}
	}
	return nil
}

// reshape applies a new full shape to every tracker. f maps a tracker's
// shape to its new shape. It reports false, changing nothing, when some
// tracker would need an extra view to hold the new shape.
func (pl *plan) reshape(newShape []int, newRed []bool, f func([]int) []int) bool {
	sts := make(map[*Node]shape.Tracker, len(pl.sts))
	for n, st := range pl.sts {
		nst, err := st.ReshapeInts(f(st.IntShape()))
		if err != nil || len(nst.Views) != len(st.Views) {
			return false
		}
		sts[n] = nst
	}
	pl.shape, pl.red, pl.sts, pl.strides = newShape, newRed, sts, nil
	return true
}

// refine splits the kernel's axes into the shape of an inner view where a
// load's last view only reshapes the view before it (contiguous, no mask:
// the reshape that ends x.repeat(2, 2) or a broadcast written as a
// reshape), when every tracker can take that finer shape: the load's two
// views then compose into one, and its index is a sum of strides, not
// ((i/1024)%2048)*512 + i%512 for each element of a merged loop (a
// repeat's copy took 7-13 ms for 16 MiB, NumPy's tile 2). A refinement
// that would add a view to any tracker is not taken.
func (pl *plan) refine() {
	for again := true; again; {
		again = false
		for _, n := range pl.leaves {
			st := pl.sts[n]
			k := len(st.Views)
			if n.Op == OpStore || pl.never[n] || k < 2 || !st.Views[k-1].Contiguous || st.Views[k-1].Mask != nil {
				continue
			}
			inner, ok := intsOf(st.Views[k-2].Shape)
			if !ok {
				continue
			}
			parts, ok := splitInto(pl.shape, inner)
			if !ok {
				continue
			}
			var shp []int
			var red []bool
			for a, ps := range parts {
				shp = append(shp, ps...)
				for range ps {
					red = append(red, pl.red[a])
				}
			}
			if len(shp) == len(pl.shape) {
				continue // the same axes: nothing to split
			}
			f := func(s []int) []int {
				var out []int
				for a, ps := range parts {
					if s[a] == pl.shape[a] {
						out = append(out, ps...)
					} else {
						out = append(out, make([]int, len(ps))...)
						for i := len(out) - len(ps); i < len(out); i++ {
							out[i] = 1
						}
					}
				}
				return out
			}
			if pl.reshapeFewer(n, shp, red, f) {
				again = true
				break
			}
		}
	}
}

// splitInto returns, for each axis of shp, the run of dims of inner whose
// product it is, or false where inner does not refine shp that way.
func splitInto(shp, inner []int) ([][]int, bool) {
	parts := make([][]int, len(shp))
	j := 0
	for a, d := range shp {
		p := 1
		for j < len(inner) && (p < d || p == d && inner[j] == 1 && d != 1) {
			if p*inner[j] > d {
				return nil, false
			}
			p *= inner[j]
			parts[a] = append(parts[a], inner[j])
			j++
		}
		if p != d || d == 0 {
			return nil, false
		}
		if len(parts[a]) == 0 {
			parts[a] = []int{1}
		}
	}
	return parts, j == len(inner)
}

// intsOf returns the values of constant dims.
func intsOf(ns []*symbolic.Node) ([]int, bool) {
	out := make([]int, len(ns))
	for i, n := range ns {
		v, ok := n.Int()
		if !ok {
			return nil, false
		}
		out[i] = int(v)
	}
	return out, true
}

// reshapeFewer applies a new full shape as reshape does, each tracker
// simplified afterwards, when no tracker ends with more views than it had
// and target's ends with fewer. It reports whether it changed anything.
func (pl *plan) reshapeFewer(target *Node, newShape []int, newRed []bool, f func([]int) []int) bool {
	sts := make(map[*Node]shape.Tracker, len(pl.sts))
	for n, st := range pl.sts {
		nst, err := st.ReshapeInts(f(st.IntShape()))
		if err != nil {
			return false
		}
		nst = nst.Simplify()
		if len(nst.Views) > len(st.Views) || n == target && len(nst.Views) >= len(st.Views) {
			return false
		}
		sts[n] = nst
	}
	pl.shape, pl.red, pl.sts, pl.strides = newShape, newRed, sts, nil
	return true
}

// scatterSerial reports whether a scatter's program must run serially: when
// its global loop walks the scattered axis, the one its store's tracker
// does not move along (the index's value does). A global loop over another
// axis gives each worker elements no other worker writes: each of those
// axes' positions is a distinct row-major place of the output, whatever
// index the scattered axis takes.
func (pl *plan) scatterSerial(nt nest) bool {
	if !pl.k.AST.Scatters() {
		return false
	}
	if len(nt.outer) == 0 || nt.outer[0].kind != RangeGlobal || nt.split {
		return true
	}
	st := pl.sts[pl.k.AST]
	v := st.Views[len(st.Views)-1]
	s, ok := v.Strides[nt.outer[0].axis].Int()
	return !ok || s == 0
}

// globalSpan returns the Program's Span: the number of output elements
// each iteration g of the global loop owns, [g*span, (g+1)*span), when the
// store's tracker proves that the iteration writes nowhere else; 0 when it
// does not. The global loop must walk an axis with a positive stride in
// steps of mul positions and start no tile early (a shifted last tile
// rewrites its neighbour's places), and every other axis (and a scatter's
// index, Bound places Stride apart) must stay within one step of it.
func (pl *plan) globalSpan(nt nest) int {
	if len(nt.outer) == 0 || nt.outer[0].kind != RangeGlobal || nt.split || nt.outer[0].shift != 0 {
		return 0
	}
	st := pl.sts[pl.k.AST]
	if len(st.Views) != 1 {
		return 0
	}
	v := st.Views[0]
	if off, ok := v.Offset.Int(); v.Mask != nil || !ok || off != 0 {
		return 0
	}
	g := nt.outer[0]
	reach := 0 // the farthest an iteration's writes go past its first place
	span := 0
	for a, s := range v.Strides {
		si, ok := s.Int()
		if !ok || si < 0 {
			return 0
		}
		if a == g.axis {
			span = g.mul * int(si)
			reach += (g.mul - 1) * int(si)
		} else {
			reach += (pl.shape[a] - 1) * int(si)
		}
	}
	if root := pl.k.AST; root.Scatters() {
		reach += (root.Bound - 1) * root.Stride
	}
	if span <= 0 || reach >= span {
		return 0
	}
	return span
}

// dropOnes removes the axes of size 1.
func (pl *plan) dropOnes() {
	keep := func(s []int) []int {
		var out []int
		for a, d := range s {
			if pl.shape[a] != 1 {
				out = append(out, d)
			}
		}
		return out
	}
	var red []bool
	for a, r := range pl.red {
		if pl.shape[a] != 1 {
			red = append(red, r)
		}
	}
	if !pl.reshape(keep(pl.shape), red, keep) {
		panic("internal error: dropping size-1 axes needed a new view")
	}
}

// merge joins adjacent axes of the same kind wherever every tracker can
// hold the merged shape in its last view, so that a contiguous (4096, 4096)
// add becomes one loop of 16M.
func (pl *plan) merge() {
	for a := len(pl.shape) - 2; a >= 0; a-- {
		if pl.red[a] != pl.red[a+1] || pl.shape[a] == 0 || pl.shape[a+1] == 0 {
			continue
		}
		join := func(s []int) []int {
			out := append([]int{}, s[:a]...)
			out = append(out, s[a]*s[a+1])
			return append(out, s[a+2:]...)
		}
		red := append(append([]bool{}, pl.red[:a+1]...), pl.red[a+2:]...)
		pl.reshape(join(pl.shape), red, join)
	}
}

// loadStrides returns, for each load, the distance in memory between
// neighbouring elements along each axis (0 along axes of size 1 and axes
// the load does not depend on; 1<<20 where the distance is not constant).
// The heuristics of nest.go ask for it many times per lowering: it is
// computed once per shape (reshape clears it). Callers must not modify it.
func (pl *plan) loadStrides() [][]int64 {
	if pl.strides != nil {
		return pl.strides
	}
	out := [][]int64{}
	for _, n := range pl.leaves {
		if n.Op != OpLoad && n.Op != OpGather {
			continue
		}
		st := pl.sts[n]
		zero := make([]*symbolic.Node, len(pl.shape))
		for a := range zero {
			zero[a] = symbolic.C(0)
		}
		base, _ := st.IndexExpr(zero)
		s := make([]int64, len(pl.shape))
		for a, d := range st.IntShape() {
			if d < 2 {
				continue
			}
			zero[a] = symbolic.C(1)
			idx, _ := st.IndexExpr(zero)
			zero[a] = symbolic.C(0)
			if idx.IsConst() && base.IsConst() {
				s[a] = idx.Val - base.Val
			} else {
				s[a] = 1 << 20
			}
		}
		out = append(out, s)
	}
	pl.strides = out
	return out
}

// strideCost returns, for each axis, the sum over loads of the distance in
// memory between neighbouring elements along that axis: the innermost loop
// should walk the axis where it is smallest.
func (pl *plan) strideCost() []int64 {
	cost := make([]int64, len(pl.shape))
	for _, s := range pl.loadStrides() {
		for a, d := range s {
			cost[a] += abs64(d)
		}
	}
	return cost
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// emptyReduce reports whether a reduced axis has size 0: every reduce then
// yields its identity.
func (pl *plan) emptyReduce() bool {
	for a, r := range pl.red {
		if r && pl.shape[a] == 0 {
			return true
		}
	}
	return false
}

// emptyOutput reports whether an output axis has size 0: the kernel then
// does nothing.
func (pl *plan) emptyOutput() bool {
	for a, r := range pl.red {
		if !r && pl.shape[a] == 0 {
			return true
		}
	}
	return false
}
