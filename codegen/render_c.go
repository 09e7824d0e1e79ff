package codegen

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// This file defines RenderC, the C renderer the CLANG device compiles. The
// C follows the uops line for line; the loop shapes that let the compiler
// vectorize without -ffast-math (register tiles, lanes of partial
// accumulators, transpose tiles) are chosen by codegen for the device's
// Target (DefaultTarget, or AVX512Target, whose Vector the Program records
// for the width of the renderer's vectors), so the renderer only adds what
// is particular to C:
//
//   - streaming stores: a large contiguous float32 output is written around
//     the caches (render_c_loops.go), when the Program's Opts say STREAM;
//   - sin: a loop whose SIN arguments all fit the fast reduction runs the
//     vectorizable sin; when one does not, the loop runs again with the
//     exact one (only loops that may run twice: stores not read back, no
//     accumulators);
//   - split reduce: each worker folds into its own slice of a partials
//     buffer; a second function combines the slices and runs the rest.

// CABI says how to call the code RenderC renders for a program. Every
// function takes the buffers as an array of pointers, in the program's
// buffer order, and the symbolic variables' values in the order of Vars.
//
//	void Entry(void* const* bufs, long start, long end, unsigned char* part, const long* vars)
//	void Finish(void* const* bufs, unsigned char* parts, long nparts, const long* vars)
//
// Entry runs iterations [start, end) of the global loop (the whole program
// when Global is 0). For a SplitReduce program, part points at PartBytes
// bytes for this worker's partial accumulators, and Finish, called once with
// the nparts workers' slices laid out one after another, combines them and
// runs the uops after the global loop.
type CABI struct {
	Entry, Finish string
	PartBytes     int
	Vars          []string
}

// RenderC returns the C source of p, exported through the functions CABIOf
// describes, and the kernel itself as
//
//	void NAME(T0* restrict data0, const T1* restrict data1, ..., long start, long end)
//
// with the symbolic variables as long parameters before start, and, for a
// SplitReduce program, a partials pointer after end.
func RenderC(p *Program) string {
	r := newCRenderer(p)
	return r.render()
}

// CABIOf returns how to call RenderC(p)'s functions.
func CABIOf(p *Program) CABI {
	r := newCRenderer(p)
	abi := CABI{Entry: "tiny_" + r.name, Vars: r.vars, PartBytes: r.partBytes}
	if r.split {
		abi.Finish = "tiny_" + r.name + "_finish"
	}
	return abi
}

// cValueType is the C type a value of d lives in while a kernel runs.
func cValueType(d DType) string {
	switch d {
	case Bool, Uint8:
		return "uint8_t"
	case Int8:
		return "int8_t"
	case Int16:
		return "int16_t"
	case Uint16:
		return "uint16_t"
	case Int32:
		return "int32_t"
	case Uint32:
		return "uint32_t"
	case Int64:
		return "int64_t"
	case Uint64:
		return "uint64_t"
	case Float16, Float32:
		return "float"
	case Float64:
		return "double"
	}
	return "long"
}

// cStoreType is the C type of a buffer element of d.
func cStoreType(d DType) string {
	if d == Float16 {
		return "uint16_t"
	}
	return cValueType(d)
}

// cConst renders v as a C literal of d's value type.
func cConst(v float64, d DType) string {
	switch {
	case d == Bool:
		if v != 0 {
			return "1"
		}
		return "0"
	case d == Float16 || d == Float32 || d == Float64:
		suffix := "f"
		if d == Float64 {
			suffix = ""
		}
		switch {
		case math.IsNaN(v):
			return "__builtin_nan" + suffix + "(\"\")"
		case math.IsInf(v, 1):
			return "__builtin_inf" + suffix + "()"
		case math.IsInf(v, -1):
			return "(-__builtin_inf" + suffix + "())"
		}
		return floatLit(v, d)
	}
	if d.IsUnsigned() {
		return unsignedLit(v, d, "ULL")
	}
	i := int64(v)
	switch {
	case d == Int32 && i == math.MinInt32:
		return "(-2147483647-1)"
	case i == math.MinInt64:
		return "(-9223372036854775807LL-1)"
	case d == Int64 || d == Index:
		if i < 0 {
			return "(" + strconv.FormatInt(i, 10) + "LL)"
		}
		return strconv.FormatInt(i, 10) + "LL"
	case i < 0:
		return "(" + strconv.FormatInt(i, 10) + ")"
	}
	return strconv.FormatInt(i, 10)
}

// cIdent turns a kernel name into a C identifier.
func cIdent(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] >= '0' && b[0] <= '9' {
		return "k_" + string(b)
	}
	return string(b)
}

// cRenderer holds the analysis of one program while it is rendered.
type cRenderer struct {
	cListing
	split     bool        // workers fold the global loop into partial accumulators
	partOff   map[int]int // top-level DEFINE_ACC -> byte offset in the partials (SplitReduce)
	partBytes int
	used      map[string]bool // helper functions the source needs
	// While one copy of a loop body is emitted:
	tmp      int          // the STORE writing to the streaming block instead, -1 if none
	tmpLoop  int          // the loop that block is of
	tmpInner int          // the short loop inside tmpLoop holding the STORE (streamNest), -1 if none
	tmpPer   int          // the elements an iteration of tmpLoop stores
	streams  map[int]int  // loops whose store can be streamed -> that STORE (streamStores)
	sin      string       // "fast": SIN uses the fast path and sets big; "" the exact one
	big      string       // the flag variable of the fast sin
	vec      vecPlan      // loops and accumulators rendered as vectors (render_c_vec.go)
	vecCols  map[int]bool // the trip counts of the Opts' INNER and LANES loops
	pack     packPlan     // loads copied into contiguous panels first (render_c_pack.go)
	vw       int          // float32 values in one vector (the Program's Vector)
	vt       string       // the C type of one vector: tiny_v8 or tiny_v16
	vecAccs  int          // vector accumulators one reduce nest may keep in registers
	inner    int          // innermost loops being emitted around the current line (scalarMax)
	folds    map[int]int  // ADD or MAX at the root of a 16-lane fold -> its DEFINE_ACC (planFolds)
	folded   map[int]bool // the fold trees' other uops, rendered inside tiny_fold16
}

func newCRenderer(p *Program) *cRenderer {
	r := &cRenderer{cListing: newCListing(p, cConst), tmp: -1, partOff: map[int]int{}, used: map[string]bool{}}
	folded := r.globalFolds()
	for i, u := range r.u {
		if u.Op == OpDefineAcc && r.scope[i] < 0 && folded[i] {
			r.partOff[i] = r.partBytes
			r.partBytes += (max(u.Size, 1)*8 + 63) &^ 63
		}
	}
	// NOTE: a reduce loop can be the global loop without SplitReduce (Lower
	// with NoSplit); workers still fold it into partials, as on the CPU device.
	r.split = r.global >= 0 && len(r.partOff) > 0
	if !r.split {
		r.partOff, r.partBytes = map[int]int{}, 0
	}
	r.vw, r.vecAccs = vecShape(p.Vector)
	r.vt = fmt.Sprintf("tiny_v%d", r.vw)
	r.vec = r.planVec()
	r.folds, r.folded = r.planFolds()
	r.pack = r.planPack(true)
	r.streams = r.streamStores()
	return r
}

// params returns the kernel's buffer and variable parameters.
func (r *cRenderer) params() []string {
	var ps []string
	for i, b := range r.p.Bufs {
		c := ""
		if !r.stored[i] {
			c = "const "
		}
		ps = append(ps, fmt.Sprintf("%s%s* restrict data%d", c, cStoreType(b.DType), i))
	}
	for i := range r.vars {
		ps = append(ps, fmt.Sprintf("long var%d", i))
	}
	return ps
}

// args returns the arguments unpacking the entry points' arrays.
func (r *cRenderer) args() []string {
	var as []string
	for i, b := range r.p.Bufs {
		as = append(as, fmt.Sprintf("(%s*)bufs[%d]", cStoreType(b.DType), i))
	}
	for i := range r.vars {
		as = append(as, fmt.Sprintf("vars[%d]", i))
	}
	return as
}

func (r *cRenderer) render() string {
	var body strings.Builder
	r.b = strings.Builder{}
	ps := r.params()
	attr := r.optimizeAttr()
	if r.split {
		r.line("%svoid %s(%s, long start, long end, unsigned char* restrict part) {", attr, r.name, strings.Join(ps, ", "))
	} else {
		r.line("%svoid %s(%s, long start, long end) {", attr, r.name, strings.Join(ps, ", "))
	}
	r.depth++
	r.block(0, len(r.u), true)
	if r.used["stream"] {
		r.line("tiny_sfence();") // once: a fence after each streamed row was slower (render_c_prelude.go)
	}
	r.depth--
	r.line("}")
	args := strings.Join(r.args(), ", ")
	if r.split {
		r.line("void tiny_%s(void* const* bufs, long start, long end, unsigned char* part, const long* vars) {", r.name)
		r.line("  %s(%s, start, end, part);", r.name, args)
		r.line("}")
		r.line("%svoid %s_finish(%s, unsigned char* restrict parts, long nparts) {", attr, r.name, strings.Join(ps, ", "))
		r.depth++
		r.block(0, len(r.u), false)
		r.depth--
		r.line("}")
		r.line("void tiny_%s_finish(void* const* bufs, unsigned char* parts, long nparts, const long* vars) {", r.name)
		r.line("  %s_finish(%s, parts, nparts);", r.name, args)
		r.line("}")
	} else {
		r.line("void tiny_%s(void* const* bufs, long start, long end, unsigned char* part, const long* vars) {", r.name)
		r.line("  %s(%s, start, end);", r.name, args)
		r.line("}")
	}
	body.WriteString(cPrelude(r.used))
	body.WriteString(r.b.String())
	return body.String()
}

// optimizeAttr returns the gcc options the kernel's functions are compiled
// with beyond the command line's, as TINY_OPTIMIZE(...) before them, or "".
// One attribute holds them all: of two optimize attributes on a function,
// gcc 12 kept the options of the last.
func (r *cRenderer) optimizeAttr() string {
	var opts []string
	if r.inlinesLogOrSin() {
		opts = append(opts, `"no-tree-pre"`)
	}
	if r.streamsAny() {
		opts = append(opts, `"no-tree-loop-distribute-patterns"`)
	}
	if len(opts) == 0 {
		return ""
	}
	r.used["optattr"] = true
	return "TINY_OPTIMIZE(" + strings.Join(opts, ", ") + ") "
}

// inlinesLogOrSin reports whether the program computes a LOG2 or a SIN,
// whose C helpers (tiny_log2f, tiny_sinf, and a folded pow's tiny_exp2l2f)
// gcc inlines: its kernel functions
// are then compiled without partial redundancy elimination (optimizeAttr).
// Where a select feeds such a helper (where(x > 0.5, x, 1).log(), pow's
// log2 of a base with its zeros replaced), PRE folds the helper on the
// select's constant arm and duplicates the rest into the other, and the
// loop, now branching, no longer vectorizes: 4096x1024 took 28 ms for
// where(...).log() against 4.2 for log() alone, and x ** 2.5 133 ms against
// NumPy's 6. gcc's optimize attribute applies -fno-tree-pre to the
// function alone (the same code as the flag on the command line): 108 of
// the 219 kernels of the benchmarks and beautiful_mnist compile
// differently under the flag, these three (exp_sin, log_softmax's last
// kernel, the loss's log) of them.
func (r *cRenderer) inlinesLogOrSin() bool {
	for _, u := range r.u {
		if u.Op == OpLog2 || u.Op == OpSin || u.Op == OpExp2 && u.ReduceOp == OpLog2 {
			return true
		}
	}
	return false
}

// block emits uops [from, to) of one scope. At the top level of a
// SplitReduce program, main selects the worker function (which runs the
// global loop) or the finish function (which combines and runs the rest).
func (r *cRenderer) block(from, to int, main bool) {
	for i := from; i < to; i++ {
		u := r.u[i]
		switch {
		case r.split && r.scope[i] == -1 && r.global >= 0 && i > r.global && main:
			// The uops after the global loop, loops among them, run in
			// finish: a worker that ran them would read values finish
			// alone defines (a load hoisted out of the loop after it).
			if u.Op == OpRange {
				i = r.end[i]
			}
		case u.Op == OpRange:
			e := r.end[i]
			if r.split && i == r.global && !main {
				r.combine()
			} else {
				r.emitPacks(i)
				r.loop(i)
				r.vecFlush(i)
			}
			i = e
		case u.Op == OpDefineAcc && r.split && r.isPart(i):
			t := cValueType(u.DType)
			r.line("%s* restrict acc%d = (%s*)(%s + %d);", t, i, t, map[bool]string{true: "part", false: "parts"}[main], r.partOff[i])
			if main {
				r.line("for (long i = 0; i < %d; i++) acc%d[i] = %s;", max(u.Size, 1), i, cConst(u.Val, u.DType))
			}
		default:
			r.uop(i)
		}
	}
}

// isPart reports whether DEFINE_ACC i holds partials.
func (r *cRenderer) isPart(i int) bool {
	_, ok := r.partOff[i]
	return ok
}

// combine folds the chunks' partial accumulators into the first chunk's,
// pairwise in a tree: ((p0+p1)+(p2+p3))+..., so that a float sum's error
// grows like the log of the number of chunks.
func (r *cRenderer) combine() {
	r.line("for (long step = 1; step < nparts; step *= 2) {")
	r.line("  for (long w = 0; w + step < nparts; w += 2*step) {")
	for _, i := range r.sortedParts() {
		u, off := r.u[i], r.partOff[i]
		t := cValueType(u.DType)
		r.line("    { %s* restrict d = (%s*)(parts + w*%d + %d);", t, t, r.partBytes, off)
		r.line("      const %s* restrict s = (const %s*)(parts + (w+step)*%d + %d);", t, t, r.partBytes, off)
		r.line("      for (long i = 0; i < %d; i++) d[i] = %s; }", max(u.Size, 1), r.fold(u.ReduceOp, u.DType, "d[i]", "s[i]"))
	}
	r.line("  }")
	r.line("}")
}

// sortedParts returns the top-level accumulators in program order, so that
// the source (and its cache key) is the same on every run.
func (r *cRenderer) sortedParts() []int {
	var accs []int
	for i := range r.partOff {
		accs = append(accs, i)
	}
	slices.Sort(accs)
	return accs
}

// accum renders the value ACCUM u stores into dst: dst folded with its
// value, or a*b + dst for a multiply-add.
func (r *cRenderer) accum(u UOp, dst string) string {
	if u.ReduceOp == OpMulAcc {
		return r.alu(OpMulAcc, u.DType, u.DType, []string{r.ref(u.Src[2]), r.ref(u.Src[3]), dst})
	}
	return r.fold(u.ReduceOp, u.DType, dst, r.ref(u.Src[2]))
}

// fold renders op(a, b) for a reduce op.
func (r *cRenderer) fold(op Op, d DType, a, b string) string {
	return r.alu(op, d, d, []string{a, b})
}

// loop emits RANGE i and its body, choosing the transposed tile, tiled,
// lane or sin form.
func (r *cRenderer) loop(i int) {
	lo, hi := r.ref(r.u[i].Src[0]), r.ref(r.u[i].Src[1])
	if i == r.global {
		lo, hi = "start", "end"
	}
	if t, ok := r.tr8At(i); ok {
		r.emitTr8(t)
		return
	}
	if r.vec.loops[i] {
		r.inner++
		r.vecLoop(i)
		r.inner--
		return
	}
	if r.innermost[i] {
		r.inner++
		r.innerLoop(i, lo, hi)
		r.inner--
		return
	}
	if r.streamed(i) >= 0 {
		r.streamLoop(i, lo, hi) // around a short innermost loop (streamNest)
		return
	}
	r.line("for (long %s = %s; %s < %s; %s++) {", r.u[i].Name, lo, r.u[i].Name, hi, r.u[i].Name)
	r.depth++
	r.block(i+1, r.end[i], true)
	r.depth--
	r.line("}")
}

// plainLoop emits an innermost loop with the current body settings. An
// inner loop (lanes, a register tile's columns) is kept a loop: gcc would
// unroll its constant trip count completely before the vectorizer sees it,
// and the unrolled copies of a NaN-propagating max do not vectorize.
func (r *cRenderer) plainLoop(i int, lo, hi string) {
	n := r.ref(i)
	if r.u[i].Kind == RangeInner {
		r.line("_Pragma(\"GCC unroll 1\")")
	}
	r.line("for (long %s = %s; %s < %s; %s++) {", n, lo, n, hi, n)
	r.depth++
	r.block(i+1, r.end[i], true)
	r.depth--
	r.line("}")
}

// innerLoop emits an innermost loop.
func (r *cRenderer) innerLoop(i int, lo, hi string) {
	hasAccum, hasSin := false, false
	for j := i + 1; j < r.end[i]; j++ {
		u := r.u[j]
		switch u.Op {
		case OpAccum:
			hasAccum = true
		case OpSin:
			if u.DType != Float64 {
				hasSin = true
			}
		}
	}
	switch {
	case hasSin && !hasAccum && r.rerunnable(i):
		// Three tries, each run only when an argument was too large for
		// the one before: float reduction, double reduction, libm.
		small, big := fmt.Sprintf("mid%d", i), fmt.Sprintf("big%d", i)
		r.line("int %s = 0;", small)
		r.sin, r.big = "small", small
		r.streamLoop(i, lo, hi)
		r.line("if (%s) {", small)
		r.depth++
		r.line("int %s = 0;", big)
		r.sin, r.big = "fast", big
		r.plainLoop(i, lo, hi)
		r.sin = ""
		r.line("if (%s) {", big)
		r.depth++
		r.plainLoop(i, lo, hi)
		r.depth--
		r.line("}")
		r.depth--
		r.line("}")
	default:
		r.streamLoop(i, lo, hi)
	}
}

// uop emits one uop that is not a loop.
func (r *cRenderer) uop(i int) {
	u := r.u[i]
	if r.folded[i] {
		return
	}
	if acc, ok := r.folds[i]; ok {
		r.used["fold16"] = true
		r.line("const %s %s = tiny_fold16_%s_%s(%s);", cValueType(u.DType), r.ref(i), map[Op]string{OpAdd: "add", OpMax: "max"}[u.Op],
			map[DType]string{Float32: "f32", Int32: "i32"}[u.DType], r.ref(acc))
		return
	}
	switch u.Op {
	case OpConst, OpDefineGlobal, OpDefineVar, OpEnd:
		return
	case OpDefineAcc:
		r.line("%s %s[%d];", cValueType(u.DType), r.ref(i), max(u.Size, 1))
		r.line("for (long i = 0; i < %d; i++) %s[i] = %s;", max(u.Size, 1), r.ref(i), cConst(u.Val, u.DType))
		r.vecAcc(i)
	case OpLoad:
		r.line("const %s %s = %s;", cValueType(u.DType), r.ref(i), r.load(u))
	case OpStore:
		dst := fmt.Sprintf("%s[%s]", r.ref(u.Src[0]), r.ref(u.Src[1]))
		v := r.ref(u.Src[2])
		if g := r.u[u.Src[0]]; g.Op == OpDefineGlobal && g.DType == Float16 {
			r.used["half"] = true
			v = "tiny_f2h(" + v + ")"
		}
		if i == r.tmp {
			n := r.u[r.tmpLoop].Name
			dst = fmt.Sprintf("tiny_tmp[%s - %s_s]", n, n)
			if r.tmpInner >= 0 {
				dst = fmt.Sprintf("tiny_tmp[(%s - %s_s)*%d + %s]", n, n, r.tmpPer, r.ref(r.tmpInner))
			}
		}
		if len(u.Src) > 3 {
			r.line("if (%s) %s = %s;", r.ref(u.Src[3]), dst, v)
		} else {
			r.line("%s = %s;", dst, v)
		}
	case OpAccum:
		dst := fmt.Sprintf("%s[%s]", r.ref(u.Src[0]), r.ref(u.Src[1]))
		r.line("%s = %s;", dst, r.accum(u, dst))
	default:
		src := make([]string, len(u.Src))
		for k, s := range u.Src {
			src[k] = r.ref(s)
		}
		from := operandType(r.u, u)
		if u.Op == OpExp2 && u.ReduceOp == OpLog2 {
			r.used["exp2"], r.used["log2"], r.used["pow"] = true, true, true
			r.line("const %s %s = %s;", cValueType(u.DType), r.ref(i), exp2Scaled(r.u, u, src, "tiny_exp2l2f", func(v float64) string { return cConst(v, Float32) }))
			return
		}
		if u.Op == OpExp2 && len(src) > 1 && u.DType != Float64 {
			r.used["exp2"] = true
			r.line("const %s %s = %s;", cValueType(u.DType), r.ref(i), exp2Scaled(r.u, u, src, "tiny_exp2fs", func(v float64) string { return cConst(v, Float32) }))
			return
		}
		if IsExp(r.u, u) {
			r.line("const %s %s = exp(%s);", cValueType(u.DType), r.ref(i), exp2Base(u, src))
			return
		}
		if u.Op == OpExp2 {
			src = exp2Args(u, src)
		}
		if u.Op == OpSin && r.sin != "" && u.DType != Float64 {
			r.line("%s |= tiny_sin_%s(%s);", r.big, map[string]string{"small": "mid", "fast": "big"}[r.sin], src[0])
		}
		r.line("const %s %s = %s;", cValueType(u.DType), r.ref(i), r.alu(u.Op, u.DType, from, src))
	}
}

// load renders a LOAD's value.
func (r *cRenderer) load(u UOp) string {
	g := r.u[u.Src[0]]
	v := fmt.Sprintf("%s[%s]", r.ref(u.Src[0]), r.ref(u.Src[1]))
	if g.Op == OpDefineGlobal && g.DType == Float16 {
		r.used["half"] = true
		v = "tiny_h2f(" + v + ")"
	}
	if len(u.Src) > 2 {
		return fmt.Sprintf("(%s ? %s : %s)", r.ref(u.Src[2]), v, cConst(u.Val, u.DType))
	}
	return v
}

// scalarMax renders a float MAX(s[0], s[1]) outside the innermost loops,
// the same function as maxExpr with the NaN test on its own: gcc compiles
// it to a never-taken branch and a maxss. maxExpr's single condition
// becomes a branch on the comparison of the values, which random data
// mispredicts: an argmin's folds of 16 lanes, at the end of each row of
// 1024, took the kernel from 1.0 to 1.36 ms on one thread. Inside an
// innermost loop, where gcc vectorizes, this form kept a blocked scan's
// loops scalar; there the MAX is tiny_maxf (cMax).
func scalarMax(s []string) string {
	return fmt.Sprintf("((%s != %s) ? %s : (%s > %s ? %s : %s))", s[1], s[1], s[1], s[1], s[0], s[1], s[0])
}

// alu renders an ALU op producing d from operands of dtype from.
func (r *cRenderer) alu(op Op, d, from DType, s []string) string {
	isFloat := d == Float16 || d == Float32 || d == Float64
	f := "f"
	if d == Float64 {
		f = ""
	}
	if w := wrapped(op, d, s); w != "" {
		return w
	}
	switch op {
	case OpNeg:
		return negate(s[0])
	case OpNot:
		return "(!" + s[0] + ")"
	case OpRecip:
		return "(" + cConst(1, d) + "/" + s[0] + ")"
	case OpSqrt:
		return "__builtin_sqrt" + f + "(" + s[0] + ")"
	case OpExp2, OpLog2, OpSin:
		name := map[Op]string{OpExp2: "exp2", OpLog2: "log2", OpSin: "sin"}[op]
		if d == Float64 {
			return name + "(" + s[0] + ")"
		}
		r.used[name] = true
		if op == OpSin && r.sin != "" {
			return "tiny_sinf_" + r.sin + "(" + s[0] + ")"
		}
		return "tiny_" + name + "f(" + s[0] + ")"
	case OpCast:
		return r.cast(d, from, s[0])
	case OpAdd, OpSub, OpMul, OpDiv, OpCmpLt, OpCmpNe, OpCmpEq, OpAnd, OpOr, OpXor:
		sym := map[Op]string{OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpCmpLt: "<", OpCmpNe: "!=",
			OpCmpEq: "==", OpAnd: "&", OpOr: "|", OpXor: "^"}[op]
		return "(" + s[0] + sym + s[1] + ")"
	case OpMod:
		if isFloat {
			// fmod: exact, with the sign of s[0]; NaN for x % 0 and inf % y.
			return "__builtin_fmod" + f + "(" + s[0] + ", " + s[1] + ")"
		}
		fallthrough
	case OpIDiv:
		// NOTE: x / -1 overflows for the most negative x in C; it wraps in Go.
		t := cValueType(d)
		return divModExpr(op, d, t, fmt.Sprintf("(%s)(0 - (uint64_t)%s)", t, s[0]), s)
	case OpMax:
		switch {
		case !isFloat:
			return maxExpr(false, s)
		case r.inner == 0:
			return scalarMax(s)
		}
		r.used["max"] = true
		return "tiny_max" + f + "(" + s[0] + ", " + s[1] + ")"
	case OpWhere:
		return "(" + s[0] + " ? " + s[1] + " : " + s[2] + ")"
	case OpMulAcc:
		// A float rounded once (the source is compiled with
		// -ffp-contract=off, so nothing else is fused).
		switch d {
		case Float64:
			return "__builtin_fma(" + s[0] + ", " + s[1] + ", " + s[2] + ")"
		case Float16, Float32:
			return "__builtin_fmaf(" + s[0] + ", " + s[1] + ", " + s[2] + ")"
		}
		return "((" + s[0] + "*" + s[1] + ")+" + s[2] + ")"
	}
	panic(fmt.Sprintf("internal error: render_c: unsupported op %s", op))
}

// wrapped renders a signed 32- or 64-bit integer ADD, SUB, MUL, NEG or
// MULACC on tensor values through the unsigned type of the same width, so
// that it wraps as Go's arithmetic does without -fwrapv (which gcc 12 also
// let miscompile vectorized loops with masked loads; TestShiftedPadSplit).
// Index arithmetic stays signed: it never overflows, and gcc reasons
// better about loops over it. "" for everything else.
func wrapped(op Op, d DType, s []string) string {
	var t, u string
	switch d {
	case Int32:
		t, u = "int32_t", "uint32_t"
	case Int64:
		t, u = "int64_t", "uint64_t"
	default:
		return ""
	}
	cv := func(x string) string { return "(" + u + ")" + x }
	switch op {
	case OpAdd, OpSub, OpMul:
		sym := map[Op]string{OpAdd: "+", OpSub: "-", OpMul: "*"}[op]
		return "(" + t + ")(" + cv(s[0]) + sym + cv(s[1]) + ")"
	case OpNeg:
		return "(" + t + ")(0 - " + cv(s[0]) + ")"
	case OpMulAcc:
		return "(" + t + ")(" + cv(s[0]) + "*" + cv(s[1]) + "+" + cv(s[2]) + ")"
	}
	return ""
}

// cast renders a conversion with the CPU device's semantics: floats go to
// integers as codegen.FloatToInt says (the tiny_f2i helpers), anything goes
// to bool as != 0, and to float16 by rounding through a half.
func (r *cRenderer) cast(d, from DType, x string) string {
	fromFloat := from == Float16 || from == Float32 || from == Float64
	switch {
	case d == from:
		return x
	case d == Bool:
		return "(uint8_t)(" + x + " != 0)"
	case d == Float16:
		r.used["half"] = true
		if from == Float64 {
			return "tiny_h2f(tiny_d2h(" + x + "))"
		}
		return "tiny_h2f(tiny_f2h((float)" + x + "))"
	case fromFloat && (d.IsInt() || d == Index):
		r.used["f2i"] = true
		switch {
		case d == Uint64:
			return "tiny_f2u64(" + x + ")"
		case d == Uint32 || d == Int64 || d == Index:
			return "(" + cValueType(d) + ")tiny_f2i64(" + x + ")"
		case from == Float64:
			return "(" + cValueType(d) + ")tiny_f2i32(" + x + ")"
		}
		return "(" + cValueType(d) + ")tiny_f2i32f(" + x + ")"
	}
	return "(" + cValueType(d) + ")" + x
}
