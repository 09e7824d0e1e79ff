package codegen

import (
	"fmt"
	"slices"
	"strconv"
)

// This file holds the register-tiled reduce RenderC writes for matmul-shaped
// loops: rows times vector columns of accumulators kept in registers.

// jamState names the copies of a register-tiled reduce: uops inside loop
// i get the suffix _uU (row copy U), uops inside loop j also _vV (vector V).
type jamState struct {
	on   bool
	i, k int
	j    int
	u, v int
	vec  bool // rendering loop j's body as vectors
}

// suffix returns the copy suffix of uop x's name.
func (r *cRenderer) suffix(x int) string {
	if !r.jam.on || x == r.jam.k || !r.inside(x, r.jam.i) {
		return ""
	}
	s := fmt.Sprintf("_u%d", r.jam.u)
	if r.jam.vec && r.inside(x, r.jam.j) {
		s += fmt.Sprintf("_v%d", r.jam.v)
	}
	return s
}

// inside reports whether uop x is loop l or lies inside it.
func (r *cRenderer) inside(x, l int) bool {
	if x == l {
		return true
	}
	for s := r.scope[x]; s >= 0; s = r.scope[s] {
		if s == l {
			return true
		}
	}
	return false
}

// Register tiling: rows x vector columns of accumulators kept in registers.
const (
	tileRows = 4
	tileVecs = 4
	tileCols = 16 * tileVecs
)

// reduceForm is the shape of a reduce a tiled reduce handles (matmul's):
//
//	for i:                      (loop i)
//	  acc[N] (float32)
//	  for k:                    (reduce loop)
//	    x = ...                 (pure uops)
//	    for j < N:              (innermost)
//	      acc[j] += f(x, contiguous float32 loads along j)
//	  for j2 < N: store g(acc[j2])
type reduceForm struct {
	k, j, store int
	accs        []int
}

// tiledReduceForm reports whether loop i has the reduce form.
func (r *cRenderer) tiledReduceForm(i int) (f reduceForm, ok bool) {
	f.k, f.j, f.store = -1, -1, -1
	for x := i + 1; x < r.end[i]; x++ {
		u := r.u[x]
		switch {
		case u.Op == OpRange && f.k < 0:
			f.k = x
			x = r.end[x]
		case u.Op == OpRange && f.store < 0:
			f.store = x
			x = r.end[x]
		case u.Op == OpRange || u.Op == OpStore || u.Op == OpAccum || u.Op == OpLoad && r.u[u.Src[0]].Op == OpDefineAcc:
			return f, false
		case u.Op == OpDefineAcc:
			if u.DType != Float32 || f.k >= 0 {
				return f, false
			}
			f.accs = append(f.accs, x)
		}
	}
	if f.k < 0 || f.store < 0 || len(f.accs) == 0 || !r.innermost[f.store] || r.innermost[f.k] {
		return f, false
	}
	n := int(r.u[r.u[f.store].Src[1]].Val)
	for _, a := range f.accs {
		if r.u[a].Size != n {
			return f, false
		}
	}
	for x := f.k + 1; x < r.end[f.k]; x++ {
		u := r.u[x]
		switch {
		case u.Op == OpRange && f.j < 0 && r.innermost[x]:
			f.j = x
			x = r.end[x]
		case u.Op == OpRange || u.Op == OpStore || u.Op == OpAccum || u.Op == OpDefineAcc || u.Op == OpLoad && r.u[u.Src[0]].Op == OpDefineAcc:
			return f, false
		}
	}
	if f.j < 0 || int(r.u[r.u[f.j].Src[1]].Val) != n || n < tileCols || r.u[r.u[f.j].Src[0]].Val != 0 {
		return f, false
	}
	accums := 0
	for x := f.j + 1; x < r.end[f.j]; x++ {
		u := r.u[x]
		switch {
		case u.DType == Index && u.Op != OpLoad:
		case u.Op == OpLoad:
			g := r.u[u.Src[0]]
			if c, ok := r.coef(u.Src[1], f.j); g.Op != OpDefineGlobal || g.DType != Float32 || len(u.Src) > 2 || !ok || c != 1 {
				return f, false
			}
		case u.Op == OpAdd || u.Op == OpSub || u.Op == OpMul:
			if u.DType != Float32 {
				return f, false
			}
		case u.Op == OpAccum:
			if u.Src[1] != f.j || u.ReduceOp != OpAdd || !slices.Contains(f.accs, u.Src[0]) {
				return f, false
			}
			accums++
		default:
			return f, false
		}
	}
	for x := f.store + 1; x < r.end[f.store]; x++ {
		if u := r.u[x]; u.Op == OpAccum || u.Op == OpLoad && r.u[u.Src[0]].Op == OpDefineAcc && u.Src[1] != f.store {
			return f, false
		}
	}
	return f, accums > 0
}

// tiledReduce emits loop i in the reduce form as a register-tiled kernel:
// for each block of tileCols columns and each group of tileRows rows, the
// tileRows x tileVecs vector accumulators stay in registers for the whole
// reduce loop, each column vector loaded once for all rows; the store loop
// then runs over the block. Column blocks are outermost so that the block's
// slice of the loaded matrix stays in cache across all rows. Rows left over
// run the plain loop.
func (r *cRenderer) tiledReduce(i int, f reduceForm, lo, hi string) {
	r.used["vec"] = true
	I, n := r.u[i].Name, int(r.u[r.u[f.j].Src[1]].Val)
	r.line("const long %s_m = %s + (%s - %s) / %d * %d;", I, lo, hi, lo, tileRows, tileRows)
	n64 := n / tileCols * tileCols
	r.line("for (long jb = 0; jb < %d; jb += %d) {", n64, tileCols)
	r.line("  for (long %s_b = %s; %s_b < %s_m; %s_b += %d) {", I, lo, I, I, I, tileRows)
	r.depth += 2
	r.jam = jamState{on: true, i: i, k: f.k, j: f.j}
	for u := range tileRows {
		r.jam.u = u
		r.line("const long %s = %s_b + %d;", r.ref(i), I, u)
		for _, a := range f.accs {
			r.line("float %s[%d];", r.ref(a), n)
		}
		for x := i + 1; x < f.k; x++ {
			if r.u[x].Op != OpDefineAcc {
				r.uop(x)
			}
		}
		for _, a := range f.accs {
			for v := range tileVecs {
				r.line("tiny_f32x16 c%d_u%d_v%d = (tiny_f32x16){} + %s;", a, u, v, cConst(r.u[a].Val, Float32))
			}
		}
	}
	K := r.u[f.k].Name
	r.line("for (long %s = %s; %s < %s; %s++) {", K, r.ref(r.u[f.k].Src[0]), K, r.ref(r.u[f.k].Src[1]), K)
	r.depth++
	for u := range tileRows {
		r.jam.u = u
		for x := f.k + 1; x < r.end[f.k]; x++ {
			if x == f.j {
				x = r.end[x]
				continue
			}
			r.uop(x)
		}
	}
	r.jam.vec = true
	for u := range tileRows {
		for v := range tileVecs {
			r.jam.u, r.jam.v = u, v
			r.line("const long %s = jb + %d;", r.ref(f.j), 16*v)
			for x := f.j + 1; x < r.end[f.j]; x++ {
				r.vecUop(x)
			}
		}
	}
	r.jam.vec = false
	r.depth--
	r.line("}")
	for u := range tileRows {
		r.jam.u = u
		for _, a := range f.accs {
			for v := range tileVecs {
				r.line("__builtin_memcpy(&%s[jb + %d], &c%d_u%d_v%d, 64);", r.ref(a), 16*v, a, u, v)
			}
		}
		for x := r.end[f.k] + 1; x < r.end[i]; x++ {
			if x == f.store {
				r.plainLoop(x, "jb", fmt.Sprintf("jb + %d", tileCols))
				x = r.end[x]
				continue
			}
			r.uop(x)
		}
	}
	r.jam = jamState{}
	r.depth -= 2
	r.line("  }")
	r.line("}")
	if n64 < n {
		r.columnTail(i, f, lo, n64)
	}
	r.line("for (long %s = %s_m; %s < %s; %s++) {", I, I, I, hi, I)
	r.depth++
	r.block(i+1, r.end[i], true)
	r.depth--
	r.line("}")
}

// columnTail emits the columns [from, N) past the last whole block of a
// tiled reduce for the rows in whole groups, each row with scalar code.
func (r *cRenderer) columnTail(i int, f reduceForm, lo string, from int) {
	I, n := r.u[i].Name, int(r.u[r.u[f.j].Src[1]].Val)
	r.line("for (long %s_b = %s; %s_b < %s_m; %s_b += %d) {", I, lo, I, I, I, tileRows)
	r.depth++
	r.jam = jamState{on: true, i: i, k: f.k, j: f.j}
	for u := range tileRows {
		r.jam.u = u
		r.line("const long %s = %s_b + %d;", r.ref(i), I, u)
		for _, a := range f.accs {
			r.line("float %s[%d];", r.ref(a), n)
			r.line("for (long i = %d; i < %d; i++) %s[i] = %s;", from, n, r.ref(a), cConst(r.u[a].Val, Float32))
		}
		for x := i + 1; x < f.k; x++ {
			if r.u[x].Op != OpDefineAcc {
				r.uop(x)
			}
		}
	}
	K := r.u[f.k].Name
	r.line("for (long %s = %s; %s < %s; %s++) {", K, r.ref(r.u[f.k].Src[0]), K, r.ref(r.u[f.k].Src[1]), K)
	r.depth++
	for u := range tileRows {
		r.jam.u = u
		for x := f.k + 1; x < r.end[f.k]; x++ {
			if x == f.j {
				r.plainLoop(x, strconv.Itoa(from), strconv.Itoa(n))
				x = r.end[x]
				continue
			}
			r.uop(x)
		}
	}
	r.depth--
	r.line("}")
	for u := range tileRows {
		r.jam.u = u
		for x := r.end[f.k] + 1; x < r.end[i]; x++ {
			if x == f.store {
				r.plainLoop(x, strconv.Itoa(from), strconv.Itoa(n))
				x = r.end[x]
				continue
			}
			r.uop(x)
		}
	}
	r.jam = jamState{}
	r.depth--
	r.line("}")
}

// vecUop emits uop x of a tiled reduce's column loop on 16-float vectors.
func (r *cRenderer) vecUop(x int) {
	u := r.u[x]
	switch {
	case u.DType == Index:
		r.uop(x)
	case u.Op == OpLoad:
		r.line("const tiny_f32x16 %s = *(const tiny_f32x16u*)&%s[%s];", r.ref(x), r.ref(u.Src[0]), r.ref(u.Src[1]))
	case u.Op == OpAccum:
		c := fmt.Sprintf("c%d_u%d_v%d", u.Src[0], r.jam.u, r.jam.v)
		r.line("%s = %s + %s;", c, c, r.ref(u.Src[2]))
	default:
		r.line("const tiny_f32x16 %s = %s;", r.ref(x), r.alu(u.Op, u.DType, u.DType, []string{r.ref(u.Src[0]), r.ref(u.Src[1])}))
	}
}
