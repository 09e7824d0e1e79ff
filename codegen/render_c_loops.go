package codegen

import (
	"fmt"
)

// This file holds the loop forms RenderC picks from the uops: streaming
// stores for large outputs, lanes of partial accumulators, and square tiles
// for transposes.

// CStreamBytes is the output size from which RenderC writes a contiguous
// store around the caches (the next kernel would not find it there anyway).
const CStreamBytes = 32 << 20

// streamLoop emits innermost loop i; when it is the global loop storing one
// large float32 output contiguously, it computes blocks of 1024 into a
// buffer on the stack and writes each with non-temporal stores, which skip
// reading the output's cache lines before writing them.
func (r *cRenderer) streamLoop(i int, lo, hi string) {
	store := -1
	for j := i + 1; j < r.end[i]; j++ {
		if u := r.u[j]; u.Op == OpStore || u.Op == OpAccum {
			if store >= 0 || u.Op == OpAccum {
				store = -2
			} else {
				store = j
			}
		}
	}
	if i != r.global || r.split || store < 0 || int64(r.p.Global)*4 < CStreamBytes || !r.rerunnable(i) {
		r.plainLoop(i, lo, hi)
		return
	}
	su := r.u[store]
	if g := r.u[su.Src[0]]; len(su.Src) > 3 || su.Src[1] != i || g.DType != Float32 {
		r.plainLoop(i, lo, hi)
		return
	}
	r.used["stream"] = true
	n := r.u[i].Name
	r.line("for (long %s_s = %s; %s_s < %s; %s_s += 1024) {", n, lo, n, hi, n)
	r.line("  const long %s_e = %s_s + 1024 < %s ? %s_s + 1024 : %s;", n, n, hi, n, hi)
	r.line("  float tiny_tmp[1024] __attribute__((aligned(64)));")
	r.depth++
	r.tmp = store
	r.plainLoop(i, n+"_s", n+"_e")
	r.tmp = -1
	r.line("tiny_stream(&%s[%s_s], tiny_tmp, %s_e - %s_s);", r.ref(su.Src[0]), n, n, n)
	r.depth--
	r.line("}")
	r.line("tiny_sfence();")
}

// readsAcc reports whether loop i loads one of the accumulators the lanes
// would fold into.
func (r *cRenderer) readsAcc(i int, accs []int) bool {
	for j := i + 1; j < r.end[i]; j++ {
		u := r.u[j]
		if u.Op != OpLoad {
			continue
		}
		for _, a := range accs {
			if r.u[a].Src[0] == u.Src[0] {
				return true
			}
		}
	}
	return false
}

// rerunnable reports whether running loop i twice gives the same result:
// it stores only to buffers the program never loads.
func (r *cRenderer) rerunnable(i int) bool {
	for j := i + 1; j < r.end[i]; j++ {
		u := r.u[j]
		if u.Op == OpStore && (r.u[u.Src[0]].Op != OpDefineGlobal || r.loaded[r.u[u.Src[0]].Buf]) {
			return false
		}
	}
	return true
}

// laneCount is the number of partial accumulators of a lane loop: four
// 64-byte vectors of the value type.
func laneCount(d DType) int {
	size := map[DType]int{Bool: 1, Uint8: 1, Int32: 4, Int64: 8, Float16: 4, Float32: 4, Float64: 8}[d]
	return 256 / size
}

// laneLoop emits an innermost loop whose ACCUMs into one accumulator each
// fold into lane arrays, combined into the accumulators after the loop.
func (r *cRenderer) laneLoop(i int, lo, hi string, accs []int) {
	n := r.u[i].Name
	L := laneCount(r.u[accs[0]].DType)
	for _, a := range accs {
		L = min(L, laneCount(r.u[a].DType))
	}
	r.line("{")
	r.depth++
	r.lanes = map[int]string{}
	for _, a := range accs {
		u := r.u[a]
		acc := r.u[u.Src[0]]
		name := fmt.Sprintf("lane%d", a)
		r.lanes[a] = name
		r.line("%s %s[%d];", cValueType(u.DType), name, L)
		r.line("for (int l = 0; l < %d; l++) %s[l] = %s;", L, name, cConst(acc.Val, acc.DType))
	}
	r.line("long %s_b = %s;", n, lo)
	r.line("for (; %s_b + %d <= %s; %s_b += %d) {", n, L, hi, n, L)
	r.line("  for (int l = 0; l < %d; l++) {", L)
	r.depth += 2
	r.line("const long %s = %s_b + l;", n, n)
	r.block(i+1, r.end[i], true)
	r.depth -= 2
	r.line("  }")
	r.line("}")
	r.lanes = nil
	r.plainLoop(i, n+"_b", hi)
	for _, a := range accs {
		u := r.u[a]
		dst := fmt.Sprintf("%s[%s]", r.ref(u.Src[0]), r.ref(u.Src[1]))
		r.line("for (int l = 0; l < %d; l++) %s = %s;", L, dst, r.fold(u.ReduceOp, u.DType, dst, fmt.Sprintf("lane%d[l]", a)))
	}
	r.depth--
	r.line("}")
}

// tileSize is the side of a tile of a tiled loop pair.
const tileSize = 32

// tileable reports whether loop i and the one loop inside it form an
// elementwise pair worth walking in tiles: the body only computes and
// stores, and some load or store strides along the inner loop.
func (r *cRenderer) tileable(i int) (inner int, ok bool) {
	inner = -1
	for j := i + 1; j < r.end[i]; j++ {
		u := r.u[j]
		switch {
		case u.Op == OpRange:
			if inner >= 0 || !r.innermost[j] {
				return -1, false
			}
			inner = j
			j = r.end[j]
		case u.Op == OpDefineAcc || u.Op == OpAccum || u.Op == OpStore && r.scope[j] == i:
			return -1, false
		}
	}
	if inner < 0 || r.u[r.u[inner].Src[1]].Val < 2*tileSize || r.u[i].Kind != RangeGlobal || r.u[inner].Kind != RangeGlobal {
		return -1, false
	}
	if i != r.global && r.u[r.u[i].Src[1]].Val < 2*tileSize {
		return -1, false
	}
	strided := false
	for j := inner + 1; j < r.end[inner]; j++ {
		if u := r.u[j]; u.Op == OpLoad || u.Op == OpStore {
			if c, ok := r.coef(u.Src[1], inner); !ok || c > 1 || c < -1 {
				strided = true
			}
		}
	}
	for j := inner + 1; j < r.end[inner]; j++ {
		if r.u[j].Op == OpStore && r.rerunnable(inner) == false {
			return -1, false
		}
	}
	return inner, strided
}

// coef returns how much index uop x grows per step of loop rng, when x is
// affine in it.
func (r *cRenderer) coef(x, rng int) (int64, bool) {
	u := r.u[x]
	switch {
	case x == rng:
		return 1, true
	case u.Op == OpConst || u.Op == OpRange || !r.inside(x, rng):
		return 0, true
	case u.Op == OpAdd:
		a, aok := r.coef(u.Src[0], rng)
		b, bok := r.coef(u.Src[1], rng)
		return a + b, aok && bok
	case u.Op == OpMul:
		for k := range 2 {
			if c := r.u[u.Src[1-k]]; c.Op == OpConst {
				a, ok := r.coef(u.Src[k], rng)
				return a * int64(c.Val), ok
			}
		}
	}
	return 0, false
}

// transposeCopy reports whether loop j (inside loop i) only copies float32
// elements from a load contiguous along i to a store contiguous along j:
// then whole tiles are transposed 16x16 in registers.
func (r *cRenderer) transposeCopy(i, j int) (load, store int, ok bool) {
	load, store = -1, -1
	if r.end[j]+1 != r.end[i] {
		return -1, -1, false
	}
	for x := j + 1; x < r.end[j]; x++ {
		u := r.u[x]
		switch {
		case u.DType == Index && u.Op != OpLoad:
		case u.Op == OpLoad && load < 0 && len(u.Src) == 2 && r.u[u.Src[0]].Op == OpDefineGlobal && r.u[u.Src[0]].DType == Float32:
			load = x
		case u.Op == OpStore && store < 0 && len(u.Src) == 3 && r.u[u.Src[0]].DType == Float32 && u.Src[2] == load && load >= 0:
			store = x
		default:
			return -1, -1, false
		}
	}
	if load < 0 || store < 0 {
		return -1, -1, false
	}
	li, lj := r.coefs(r.u[load].Src[1], i, j)
	si, sj := r.coefs(r.u[store].Src[1], i, j)
	return load, store, li == 1 && sj == 1 && lj > 1 && si > 1
}

// coefs returns x's coefficients along loops i and j (0 when unknown).
func (r *cRenderer) coefs(x, i, j int) (ci, cj int64) {
	ci, iok := r.coef(x, i)
	cj, jok := r.coef(x, j)
	if !iok || !jok {
		return 0, 0
	}
	return ci, cj
}

// tiled emits loop i and its inner loop j walking tiles of tileSize squared.
func (r *cRenderer) tiled(i, j int, lo, hi string) {
	a, b := r.u[i].Name, r.u[j].Name
	blo, bhi := r.ref(r.u[j].Src[0]), r.ref(r.u[j].Src[1])
	r.line("for (long %s_t = %s; %s_t < %s; %s_t += %d) {", a, lo, a, hi, a, tileSize)
	r.line("  for (long %s_t = %s; %s_t < %s; %s_t += %d) {", b, blo, b, bhi, b, tileSize)
	r.line("    const long %s_e = %s_t + %d < %s ? %s_t + %d : %s;", a, a, tileSize, hi, a, tileSize, hi)
	r.line("    const long %s_e = %s_t + %d < %s ? %s_t + %d : %s;", b, b, tileSize, bhi, b, tileSize, bhi)
	r.depth += 2
	if load, store, ok := r.transposeCopy(i, j); ok {
		r.used["vec"], r.used["tr16"] = true, true
		r.line("if (%s_e - %s_t == %d && %s_e - %s_t == %d) {", a, a, tileSize, b, b, tileSize)
		r.line("  for (long %s = %s_t; %s < %s_e; %s += 16) {", a, a, a, a, a)
		r.depth += 2
		r.block(i+1, j, true)
		r.line("for (long %s = %s_t; %s < %s_e; %s += 16) {", b, b, b, b, b)
		r.depth++
		for x := j + 1; x < r.end[j]; x++ {
			if x != load && x != store {
				r.uop(x)
			}
		}
		_, lj := r.coefs(r.u[load].Src[1], i, j)
		si, _ := r.coefs(r.u[store].Src[1], i, j)
		r.line("tiny_tr16(&%s[%s], %d, &%s[%s], %d);", r.ref(r.u[store].Src[0]), r.ref(r.u[store].Src[1]), si,
			r.ref(r.u[load].Src[0]), r.ref(r.u[load].Src[1]), lj)
		r.depth--
		r.line("}")
		r.depth -= 2
		r.line("  }")
		r.line("  continue;")
		r.line("}")
	}
	r.line("for (long %s = %s_t; %s < %s_e; %s++) {", a, a, a, a, a)
	r.depth++
	r.block(i+1, j, true)
	r.innerLoop(j, b+"_t", b+"_e")
	r.block(r.end[j]+1, r.end[i], true)
	r.depth--
	r.line("}")
	r.depth -= 2
	r.line("  }")
	r.line("}")
}
