package codegen

// This file holds the store form RenderC picks from the uops: streaming
// stores for large outputs.

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
