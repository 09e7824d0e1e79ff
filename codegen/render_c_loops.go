package codegen

// This file holds the store form RenderC picks from the uops: streaming
// stores for large outputs.

import "slices"

// CStreamBytes is the output size from which RenderC writes a contiguous
// store around the caches. A loop of calls (y = f(x)) writes a different
// output buffer each round, one the pool hands back from a few rounds ago,
// and a plain store first reads each of its lines from memory. On the
// 32 MiB-L3 AMD this was measured from 16 MiB (pad, x + bias, the last
// kernels of log_softmax and of cumsum down the columns, cat: 3.85 / 4.20 /
// 13.2 / 13.4 / 6.66 ms plain, 3.12 / 3.01 / 10.1 / 9.96 / 5.45 streamed).
// On the AVX-512 Xeon (2 MiB L2 a core) it pays from 4 MiB, the size above
// which a result outlives the L2 anyway: the embedding row's gather into a
// 4 MiB output, one thread in a C harness, took 0.70-0.87 ms writing into
// 8 buffers in turn and 0.36 into one, and 0.32-0.34 streamed either way;
// in the engine its median went from 0.57-1.10 to 0.40-0.62 ms (three
// alternated rounds). Below 4 MiB the next kernel would find the output in
// L2, which streaming gives up.
const CStreamBytes = 4 << 20

// minStreamTrip is the fewest iterations of an inner loop whose store is
// streamed: a pad's one-element edges keep plain stores.
const minStreamTrip = 64

// streamStores returns, for each innermost loop of p whose store
// streaming stores can write, that STORE (nil when none): p is elementwise
// (no accumulators), not a split reduce, and stores only to one output (of
// any dtype) of at least CStreamBytes that it never loads, ungated; the loop
// holds no other store, the store's index is the loop variable plus
// values computed before the loop (contiguous in the loop), and its loads
// step by one element with it or stay (loadsUnit). The loop is the
// global loop, or one of at least minStreamTrip iterations (a row of an
// elementwise kernel over a 2-D shape). Lower records it as OptStream.
func (l *cListing) streamStores() map[int]int {
	us := l.u
	if l.streamBuf() < 0 {
		return nil
	}
	out := map[int]int{}
	for i, u := range us {
		if u.Op != OpRange || !l.innermost[i] {
			continue
		}
		store := l.onlyStore(i)
		if store < 0 || !l.loadsUnit(i) {
			continue
		}
		if i != l.global {
			if lo, hi := us[u.Src[0]], us[u.Src[1]]; lo.Op != OpConst || lo.Val != 0 || hi.Op != OpConst || hi.Val < minStreamTrip {
				if outer, ok := l.streamNest(i, store); ok {
					out[outer] = store
				}
				continue
			}
		}
		if streamContiguous(us, i, us[store].Src[1]) {
			out[i] = store
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// onlyStore returns loop i's one STORE, or -1 when it has none or several.
func (l *cListing) onlyStore(i int) int {
	store := -1
	for j := i + 1; j < l.end[i]; j++ {
		if l.u[j].Op == OpStore {
			if store >= 0 {
				return -1
			}
			store = j
		}
	}
	return store
}

// streamNest returns the loop around innermost loop i, whose trip is too
// short to stream alone, that streamLoop can stream with i inside it, and
// whether there is one. i's trip T (from 0) fills whole cache lines of
// the output; the outer loop is the global loop or runs at least
// minStreamTrip elements, holds no other loop and no other store, and no
// float32 sin (whose second and third tries write the output directly);
// and the store's index steps by one along i and by T along the outer loop
// (the runs of consecutive iterations are one contiguous run), built of
// additions and multiplications (affineIndex; indexAt renders it at a
// block's start). A permute that keeps the last axis (x of (n, h*w, c)
// made (h*w, n, c) for a convolution, c = 32) wrote its runs of 128 bytes
// with plain stores: 400x512x32 floats, two threads in a C harness,
// 2.7-4.2 ms, streamed 1.4-2.0.
func (l *cListing) streamNest(i, store int) (int, bool) {
	us := l.u
	outer := l.scope[i]
	lo, hi := us[us[i].Src[0]], us[us[i].Src[1]]
	if outer < 0 || lo.Op != OpConst || lo.Val != 0 || hi.Op != OpConst || hi.Val < 1 {
		return -1, false
	}
	trip := int64(hi.Val)
	size := int64(us[us[store].Src[2]].DType.Size())
	if g := us[us[store].Src[0]]; g.Op == OpDefineGlobal {
		size = int64(l.p.Bufs[g.Buf].DType.Size())
	}
	if trip*size%64 != 0 || trip > streamBlock {
		return -1, false
	}
	if outer != l.global {
		olo, ohi := us[us[outer].Src[0]], us[us[outer].Src[1]]
		if olo.Op != OpConst || olo.Val != 0 || ohi.Op != OpConst || int64(ohi.Val)*trip < minStreamTrip {
			return -1, false
		}
	}
	for j := outer + 1; j < l.end[outer]; j++ {
		u := us[j]
		if u.Op == OpRange && j != i || u.Op == OpStore && j != store || u.Op == OpSin && u.DType != Float64 {
			return -1, false
		}
	}
	idx := us[store].Src[1]
	if l.coef(idx, i, map[int]int64{i: 1}) != 1 || l.coef(idx, outer, map[int]int64{outer: 1}) != trip || !l.affineIndex(idx, outer) {
		return -1, false
	}
	return outer, true
}

// affineIndex reports whether index x is built, inside loop outer, of
// additions and multiplications over the loop variables, constants and
// values computed before the loop (the coefficients say it is linear).
func (l *cListing) affineIndex(x, outer int) bool {
	u := l.u[x]
	switch {
	case x <= outer || u.Op == OpConst || u.Op == OpRange:
		return true
	case (u.Op == OpAdd || u.Op == OpMul) && len(u.Src) == 2:
		return l.affineIndex(u.Src[0], outer) && l.affineIndex(u.Src[1], outer)
	}
	return false
}

// streamBuf returns the output whose stores streaming stores could write,
// or -1: p is elementwise (no accumulators), not a split reduce, and stores
// only to one output (of any dtype) of at least CStreamBytes that it never
// loads, ungated.
func (l *cListing) streamBuf() int {
	p, us := l.p, l.u
	buf := -1
	for _, u := range us {
		switch u.Op {
		case OpAccum, OpDefineAcc:
			return -1
		case OpStore:
			g := us[u.Src[0]]
			if g.Op != OpDefineGlobal || len(u.Src) > 3 || buf >= 0 && g.Buf != buf {
				return -1
			}
			buf = g.Buf
		}
	}
	if buf < 0 || p.SplitReduce || int64(p.Bufs[buf].Size)*int64(p.Bufs[buf].DType.Size()) < CStreamBytes || l.loaded[buf] {
		return -1
	}
	return buf
}

// streamTile returns the output a transpose tile (OptTile in p's Opts)
// copies into when RenderC can stream the tile's blocks (tiny_tr16s), or
// -1: streamBuf's output, of 4-byte elements, and the tile's side a
// multiple of trStreamSide. Lower records it as OptStream too.
func (l *cListing) streamTile() int {
	i := slices.IndexFunc(l.p.Opts, func(o Opt) bool { return o.Op == OptTile })
	if i < 0 || l.p.Opts[i].Arg%trStreamSide != 0 {
		return -1
	}
	if buf := l.streamBuf(); buf >= 0 && l.p.Bufs[buf].DType.Size() == 4 {
		return buf
	}
	return -1
}

// loadsUnit reports whether every load in loop i reads at a fixed place or
// at the next or the previous element each iteration (a flip). A strided
// load measured slower streamed, through the block on the stack. So did a
// flip on the 32 MiB-L3 AMD (4096x1024 flipped: 5.1-5.9 ms of CPU against
// 4.8-5.8 not streamed), but on the AVX-512 Xeon, its output buffer one the
// pool hands back from a few rounds ago, the flip took 0.78-0.96 ms a call
// streamed against 1.46-1.85 (60 calls after 0.3 s of warm-up, three
// alternated runs).
func (l *cListing) loadsUnit(i int) bool {
	memo := map[int]int64{i: 1}
	for j := i + 1; j < l.end[i]; j++ {
		if u := l.u[j]; u.Op == OpLoad {
			if c := l.coef(u.Src[1], i, memo); c < -1 || c > 1 {
				return false
			}
		}
	}
	return true
}

// streamContiguous reports whether index x is loop i's variable plus
// values computed before the loop: a tree of additions with the variable
// at one leaf.
func streamContiguous(us []UOp, i, x int) bool {
	n := 0
	var walk func(x int) bool
	walk = func(x int) bool {
		switch {
		case x == i:
			n++
			return true
		case x < i:
			return true
		case us[x].Op == OpAdd && len(us[x].Src) == 2:
			return walk(us[x].Src[0]) && walk(us[x].Src[1])
		}
		return false
	}
	return walk(x) && n == 1
}

// indexAt renders index x (streamContiguous in loop i, or affineIndex
// inside it) with the loop variables in at replaced by those values.
func (r *cRenderer) indexAt(i, x int, at map[int]string) string {
	u := r.u[x]
	if v, ok := at[x]; ok {
		return v
	}
	if x < i || u.Op == OpConst {
		return r.ref(x)
	}
	op := "+"
	if u.Op == OpMul {
		op = "*"
	}
	return "(" + r.indexAt(i, u.Src[0], at) + op + r.indexAt(i, u.Src[1], at) + ")"
}

// streamBlock is the number of elements a streamed loop computes into the
// block on the stack before writing them out.
const streamBlock = 1024

// streamLoop emits loop i, innermost or the one around a short innermost
// loop (streamNest); when the Program's Opts say to stream the output
// (OptStream) and the loop's store can be (streamStores), it computes
// blocks of streamBlock elements into a buffer on the stack and writes
// each with non-temporal stores, which skip reading the output's cache
// lines before writing them.
func (r *cRenderer) streamLoop(i int, lo, hi string) {
	store := r.streamed(i)
	if store < 0 {
		r.plainLoop(i, lo, hi)
		return
	}
	su := r.u[store]
	r.used["stream"] = true
	n := r.u[i].Name
	at := map[int]string{i: n + "_s"}
	per, inner := 1, -1 // elements an iteration of i stores, and the loop inside storing them
	if !r.innermost[i] {
		inner = r.scope[store]
		per = int(r.u[r.u[inner].Src[1]].Val)
		at[inner] = "0"
	}
	step := streamBlock / per
	r.line("for (long %s_s = %s; %s_s < %s; %s_s += %d) {", n, lo, n, hi, n, step)
	r.line("  const long %s_e = %s_s + %d < %s ? %s_s + %d : %s;", n, n, step, hi, n, step, hi)
	r.line("  %s tiny_tmp[%d] __attribute__((aligned(64)));", cStoreType(r.u[su.Src[0]].DType), streamBlock)
	r.depth++
	r.tmp, r.tmpLoop, r.tmpInner, r.tmpPer = store, i, inner, per
	r.plainLoop(i, n+"_s", n+"_e")
	r.tmp = -1
	r.line("tiny_stream(&%s[%s], tiny_tmp, (%s_e - %s_s)*%d, sizeof tiny_tmp[0]);", r.ref(su.Src[0]), r.indexAt(i, su.Src[1], at), n, n, per)
	r.depth--
	r.line("}")
}

// streamed returns the STORE of loop i that streamLoop writes with
// non-temporal stores, or -1.
func (r *cRenderer) streamed(i int) int {
	if s, ok := r.streams[i]; ok && r.p.Opts.Has(OptStream) && !r.split && r.rerunnable(i) {
		return s
	}
	return -1
}

// streamsAny reports whether any loop of the kernel is streamed. Such a
// kernel is compiled without gcc's loop distribution into library calls
// (optimizeAttr): the loop filling the block on the stack, when it only
// copies (a pad's or a repeat's rows), became an inline memcpy of rep movsq
// for each block, and the kernel took twice the time of the same loop
// vectorized: 4096x1024 padded, two threads in a C harness, 0.94-0.97 ms
// against 0.68-0.75; 2048x512 repeated to 4096x1024, 1.26-1.28 against
// 0.62-0.69 (a hand-written copy streamed from the source: 0.50-0.58).
func (r *cRenderer) streamsAny() bool {
	for i := range r.streams {
		if r.streamed(i) >= 0 {
			return true
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
