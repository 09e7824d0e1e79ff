package codegen

import "slices"

// This file holds the store form RenderC picks from the uops: streaming
// stores for large outputs.

// CStreamBytes is the output size from which RenderC writes a contiguous
// store around the caches (the next kernel would not find it there anyway).
const CStreamBytes = 32 << 20

// streamStore returns the STORE of p that streaming stores can write, or
// -1: the one store of the global loop, innermost and not a split reduce,
// of a float32 output of at least CStreamBytes, contiguous in the loop
// variable, ungated, to a buffer the program never loads, with no
// accumulator folded in the loop. Lower records it as OptStream.
func streamStore(p *Program) int {
	us := p.UOps
	global := slices.IndexFunc(us, func(u UOp) bool { return u.Op == OpRange })
	if global < 0 || p.SplitReduce || int64(p.Global)*4 < CStreamBytes {
		return -1
	}
	store := -1
	for j := global + 1; us[j].Op != OpEnd || us[j].Src[0] != global; j++ {
		switch u := us[j]; u.Op {
		case OpRange, OpAccum:
			return -1
		case OpStore:
			g := us[u.Src[0]]
			if store >= 0 || g.Op != OpDefineGlobal || g.DType != Float32 || len(u.Src) > 3 || u.Src[1] != global {
				return -1
			}
			store = j
		}
	}
	if store < 0 {
		return -1
	}
	buf := us[us[store].Src[0]].Buf
	for _, u := range us {
		if u.Op == OpLoad && us[u.Src[0]].Op == OpDefineGlobal && us[u.Src[0]].Buf == buf {
			return -1
		}
	}
	return store
}

// streamLoop emits innermost loop i; when it is the global loop and the
// Program's Opts say to stream its store (OptStream), it computes blocks of
// 1024 into a buffer on the stack and writes each with non-temporal
// stores, which skip reading the output's cache lines before writing them.
func (r *cRenderer) streamLoop(i int, lo, hi string) {
	store := -1
	if r.p.Opts.Has(OptStream) && i == r.global && !r.split && r.rerunnable(i) {
		store = streamStore(r.p)
	}
	if store < 0 {
		r.plainLoop(i, lo, hi)
		return
	}
	su := r.u[store]
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
