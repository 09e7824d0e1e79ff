package codegen

// This file finds the lane folds RenderC writes as one vector helper: the
// sum or the maximum of a reduce's 16 lanes, which Lower emits as 16 loads
// of the accumulator and a pairwise tree, ((a0+a1)+(a2+a3))+... gcc
// compiles the tree to 16 extractions and 15 scalar steps; a dot product
// kernel (a @ b.T) folds 16 accumulators after every 64 vector steps, and
// the folds were a quarter of its instructions. The tiny_fold16 helpers
// combine the same pairs in the same order, with the same left operands,
// in four vector steps: the bits are the tree's.

// foldLanes is the width of a fold tiny_fold16 computes.
const foldLanes = 16

// planFolds returns the roots of the folds to render with the tiny_fold16
// helpers, each with its accumulator, and the uops inside them (the tree's
// other steps and its loads), which the helper computes. A fold qualifies
// when it is a perfect tree, four deep, of float32 ADDs, float32 MAXes or
// int32 MAXes (an argmax's index), whose leaves, left to right, load lanes
// 0..15 of one accumulator of that dtype and at least 16 elements, outside
// any vector loop, each of its uops but the root used once, by the tree,
// and nothing writing the accumulator between its first load and the root.
func (r *cRenderer) planFolds() (map[int]int, map[int]bool) {
	uses := make([]int, len(r.u))
	for _, u := range r.u {
		for _, s := range u.Src {
			uses[s]++
		}
	}
	folds, folded := map[int]int{}, map[int]bool{}
	for root, u := range r.u {
		if !(u.Op == OpAdd && u.DType == Float32 || u.Op == OpMax && (u.DType == Float32 || u.DType == Int32)) || r.vec.class[root] != 0 {
			continue
		}
		var leaves, inner []int
		var walk func(x, depth int) bool
		walk = func(x, depth int) bool {
			v := r.u[x]
			if x != root && (uses[x] != 1 || r.vec.class[x] != 0) {
				return false
			}
			if depth == 0 {
				leaves = append(leaves, x)
				return v.Op == OpLoad && len(v.Src) == 2
			}
			inner = append(inner, x)
			return v.Op == u.Op && v.DType == u.DType && len(v.Src) == 2 && walk(v.Src[0], depth-1) && walk(v.Src[1], depth-1)
		}
		if !walk(root, 4) {
			continue
		}
		acc := r.u[leaves[0]].Src[0]
		if a := r.u[acc]; a.Op != OpDefineAcc || a.DType != u.DType || a.Size < foldLanes {
			continue
		}
		ok := true
		for k, l := range leaves {
			idx := r.u[r.u[l].Src[1]]
			ok = ok && r.u[l].Src[0] == acc && idx.Op == OpConst && idx.Val == float64(k) && r.scope[l] == r.scope[root]
		}
		for j := leaves[0]; ok && j < root; j++ {
			if w := r.u[j]; (w.Op == OpAccum || w.Op == OpStore) && w.Src[0] == acc {
				ok = false
			}
		}
		if !ok {
			continue
		}
		folds[root] = acc
		for _, x := range append(leaves, inner[1:]...) {
			folded[x] = true
		}
	}
	return folds, folded
}
