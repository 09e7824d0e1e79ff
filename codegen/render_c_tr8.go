package codegen

import "slices"

// This file renders a transpose tile as 8 x 8 blocks, each eight vector
// loads, a transpose in registers and eight vector stores (tiny_tr8 in the
// prelude). OptTile walks an elementwise kernel whose load strides along
// its innermost axis (x.permute(...).contiguous()) in square tiles; written
// as its two loops, gcc unrolled an 8 x 8 tile into 64 scalar loads and
// stores with half the values spilled to the stack (permute of 64x128x256:
// 4.1 ms on two threads, 6.8 on one, NumPy 4.6). Only data moves, so every
// bit is kept.

// trSide is the side of the blocks tiny_tr8 transposes.
const trSide = 8

// trStreamSide is the side of the blocks tiny_tr16s transposes, writing
// each destination row's whole cache line at once, around the caches.
const trStreamSide = 16

// tr8 is one tile rendered by tiny_tr8: loop inner inside loop outer, each
// of a multiple of trSide iterations, whose body loads one 4-byte element
// that walks outer contiguously and inner loadStride apart, and stores it
// where inner walks contiguously and outer storeStride apart.
type tr8 struct {
	outer, inner, load, store int
	outerTrip, innerTrip      int
	loadStride, storeStride   int64
}

// trBlocks returns the trip count of RANGE x when it is a plain loop over
// [0, n) (constant bounds, not clipped) whose n trSide divides.
func (r *cRenderer) trBlocks(x int) (int, bool) {
	n, ok := r.constTrip(x)
	return n, ok && r.u[x].Val == 0 && n%trSide == 0
}

// tr8At returns the tile whose outer loop is RANGE i, if the loop pair is
// one: nothing but index arithmetic besides the one load and the one store
// of its value, neither gated, and both indices linear in the two loops.
// A tile whose store is streamed (streamStores) keeps its loops.
func (r *cRenderer) tr8At(i int) (tr8, bool) {
	t := tr8{outer: i, inner: -1, load: -1, store: -1}
	if i == r.global || r.vec.loops[i] {
		return t, false
	}
	var ok bool
	if t.outerTrip, ok = r.trBlocks(i); !ok {
		return t, false
	}
	for j := i + 1; j < r.end[i]; j++ {
		u := r.u[j]
		switch {
		case u.Op == OpRange && t.inner < 0 && r.end[j] == r.end[i]-1:
			t.inner = j
		case u.Op == OpEnd && j == r.end[t.inner]:
		case u.Op == OpLoad && t.load < 0 && t.inner >= 0 && len(u.Src) == 2 && u.DType.Size() == 4:
			t.load = j
		case u.Op == OpStore && t.store < 0 && t.load >= 0 && len(u.Src) == 3 && u.Src[2] == t.load:
			t.store = j
		case u.DType == Index && u.Op != OpRange && u.Op != OpLoad && u.Op != OpDefineAcc:
		default:
			return t, false
		}
	}
	if t.inner < 0 || t.store < 0 || r.vec.loops[t.inner] {
		return t, false
	}
	if t.innerTrip, ok = r.trBlocks(t.inner); !ok {
		return t, false
	}
	if _, streamed := r.streams[t.inner]; streamed {
		return t, false
	}
	if b := r.p.Bufs[r.u[r.u[t.store].Src[0]].Buf]; b.DType.Size() != 4 {
		return t, false
	}
	coef := func(idx, loop int) int64 { return r.coef(idx, loop, map[int]int64{loop: 1}) }
	li, si := r.u[t.load].Src[1], r.u[t.store].Src[1]
	t.loadStride, t.storeStride = coef(li, t.inner), coef(si, t.outer)
	if coef(li, t.outer) != 1 || coef(si, t.inner) != 1 || t.loadStride == noCoef || t.storeStride == noCoef {
		return t, false
	}
	return t, true
}

// emitTr8 renders tile t: its index arithmetic once, with both loop
// variables 0, then a tiny_tr8 call for each block of trSide x trSide,
// from the load's element to the store's.
func (r *cRenderer) emitTr8(t tr8) {
	r.used["tr8"] = true
	r.line("{")
	r.depth++
	r.line("const long %s = 0LL, %s = 0LL;", r.u[t.outer].Name, r.u[t.inner].Name)
	for j := t.outer + 1; j < r.end[t.outer]; j++ {
		switch r.u[j].Op {
		case OpRange, OpEnd, OpLoad, OpStore:
		default:
			r.uop(j)
		}
	}
	ld, st := r.u[t.load], r.u[t.store]
	side, helper := trSide, "tiny_tr8"
	if r.tileStreamed(t) {
		r.used["stream"] = true // tiny_sfence after the kernel's loops
		side, helper = trStreamSide, "tiny_tr16s"
	}
	r.line("for (long ta = 0; ta < %d; ta += %d) for (long tb = 0; tb < %d; tb += %d)", t.outerTrip, side, t.innerTrip, side)
	r.line("  %s(&%s[%s + ta + tb*%dLL], %dLL, &%s[%s + ta*%dLL + tb], %dLL);", helper,
		r.ref(ld.Src[0]), r.ref(ld.Src[1]), t.loadStride, t.loadStride, r.ref(st.Src[0]), r.ref(st.Src[1]), t.storeStride, t.storeStride)
	r.depth--
	r.line("}")
}

// tileStreamed reports whether tile t's blocks are written around the
// caches (tiny_tr16s): the Program streams the tile's output (OptStream on
// its buffer, streamTile), both trips are multiples of trStreamSide, and
// the destination's rows are whole cache lines apart in elements (the
// helper checks the address itself).
func (r *cRenderer) tileStreamed(t tr8) bool {
	buf := r.u[r.u[t.store].Src[0]].Buf
	streams := slices.ContainsFunc(r.p.Opts, func(o Opt) bool { return o.Op == OptStream && o.Axis == buf })
	return streams && !r.split && t.outerTrip%trStreamSide == 0 && t.innerTrip%trStreamSide == 0 && t.storeStride%trStreamSide == 0
}
