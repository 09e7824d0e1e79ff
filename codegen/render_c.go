package codegen

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// This file defines RenderC, the C renderer the CLANG device compiles. The
// C follows the uops line for line, with four loop-level rewrites that let
// the compiler vectorize without -ffast-math:
//
//   - lanes: an innermost loop folding into one accumulator keeps a small
//     array of partial accumulators, one per lane, combined after the loop
//     (the order of a float sum changes, as on the CPU device);
//   - tiles: two nested elementwise loops whose memory access strides along
//     the inner one walk the iteration space in square tiles (transpose);
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
	case Int32:
		return "int32_t"
	case Int64:
		return "int64_t"
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
		suffix, bits := "f", 32
		if d == Float64 {
			suffix, bits = "", 64
		}
		switch {
		case math.IsNaN(v):
			return "__builtin_nan" + suffix + "(\"\")"
		case math.IsInf(v, 1):
			return "__builtin_inf" + suffix + "()"
		case math.IsInf(v, -1):
			return "(-__builtin_inf" + suffix + "())"
		}
		s := strconv.FormatFloat(v, 'g', -1, bits)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		if v < 0 {
			return "(" + s + suffix + ")"
		}
		return s + suffix
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
	p         *Program
	u         []UOp
	name      string
	scope     []int        // the RANGE each uop is inside, -1 at the top level
	end       map[int]int  // RANGE -> its ENDRANGE
	innermost map[int]bool // RANGEs with no loop inside
	global    int          // the global RANGE, -1 if none
	split     bool         // workers fold the global loop into partial accumulators
	stored    map[int]bool // buffers some STORE writes
	loaded    map[int]bool // buffers some LOAD reads
	vars      []string
	varIdx    map[string]int
	partOff   map[int]int // top-level DEFINE_ACC -> byte offset in the partials (SplitReduce)
	partBytes int
	used      map[string]bool // helper functions the source needs
	b         strings.Builder
	depth     int
	// While one copy of a loop body is emitted:
	lanes map[int]string // ACCUM -> the lane array it folds into instead
	jam   jamState       // set while a register-tiled reduce is emitted
	tmp   int            // the STORE writing to the streaming block instead, -1 if none
	sin   string         // "fast": SIN uses the fast path and sets big; "" the exact one
	big   string         // the flag variable of the fast sin
}

func newCRenderer(p *Program) *cRenderer {
	r := &cRenderer{p: p, u: p.UOps, name: cIdent(p.Name), global: -1, tmp: -1, end: map[int]int{}, innermost: map[int]bool{},
		stored: map[int]bool{}, loaded: map[int]bool{}, varIdx: map[string]int{}, partOff: map[int]int{}, used: map[string]bool{}}
	r.scope = make([]int, len(r.u))
	stack := []int{-1}
	for i, u := range r.u {
		r.scope[i] = stack[len(stack)-1]
		switch u.Op {
		case OpRange:
			if len(stack) == 1 && r.global < 0 {
				r.global = i
			}
			r.innermost[i] = true
			if top := stack[len(stack)-1]; top >= 0 {
				r.innermost[top] = false
			}
			stack = append(stack, i)
		case OpEnd:
			r.end[u.Src[0]] = i
			stack = stack[:len(stack)-1]
		case OpStore, OpLoad:
			if g := r.u[u.Src[0]]; g.Op == OpDefineGlobal {
				if u.Op == OpStore {
					r.stored[g.Buf] = true
				} else {
					r.loaded[g.Buf] = true
				}
			}
		case OpDefineVar:
			if _, ok := r.varIdx[u.Name]; !ok {
				r.varIdx[u.Name] = len(r.vars)
				r.vars = append(r.vars, u.Name)
			}
		case OpDefineAcc:
			if len(stack) == 1 {
				r.partOff[i] = r.partBytes
				r.partBytes += (max(u.Size, 1)*8 + 63) &^ 63
			}
		}
	}
	// NOTE: a reduce loop can be the global loop without SplitReduce (Lower
	// with NoSplit); workers still fold it into partials, as on the CPU device.
	r.split = r.global >= 0 && len(r.partOff) > 0
	if !r.split {
		r.partOff, r.partBytes = map[int]int{}, 0
	}
	return r
}

func (r *cRenderer) line(format string, args ...any) {
	r.b.WriteString(strings.Repeat("  ", r.depth))
	fmt.Fprintf(&r.b, format, args...)
	r.b.WriteByte('\n')
}

// ref returns the C expression naming the value of uop i.
func (r *cRenderer) ref(i int) string {
	u := r.u[i]
	switch u.Op {
	case OpConst:
		return cConst(u.Val, u.DType)
	case OpDefineGlobal:
		return fmt.Sprintf("data%d", u.Buf)
	case OpDefineVar:
		return fmt.Sprintf("var%d", r.varIdx[u.Name])
	case OpRange:
		return u.Name + r.suffix(i)
	case OpDefineAcc:
		return fmt.Sprintf("acc%d", i) + r.suffix(i)
	}
	return fmt.Sprintf("v%d", i) + r.suffix(i)
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
	if r.split {
		r.line("void %s(%s, long start, long end, unsigned char* restrict part) {", r.name, strings.Join(ps, ", "))
	} else {
		r.line("void %s(%s, long start, long end) {", r.name, strings.Join(ps, ", "))
	}
	r.depth++
	r.block(0, len(r.u), true)
	r.depth--
	r.line("}")
	args := strings.Join(r.args(), ", ")
	if r.split {
		r.line("void tiny_%s(void* const* bufs, long start, long end, unsigned char* part, const long* vars) {", r.name)
		r.line("  %s(%s, start, end, part);", r.name, args)
		r.line("}")
		r.line("void %s_finish(%s, unsigned char* restrict parts, long nparts) {", r.name, strings.Join(ps, ", "))
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

// block emits uops [from, to) of one scope. At the top level of a
// SplitReduce program, main selects the worker function (which runs the
// global loop) or the finish function (which combines and runs the rest).
func (r *cRenderer) block(from, to int, main bool) {
	for i := from; i < to; i++ {
		u := r.u[i]
		switch {
		case u.Op == OpRange:
			e := r.end[i]
			if r.split && i == r.global && !main {
				r.combine()
			} else {
				r.loop(i)
			}
			i = e
		case r.split && r.scope[i] == -1 && r.global >= 0 && i > r.global && main:
			// the uops after the global loop run in finish
		case u.Op == OpDefineAcc && r.split && r.scope[i] == -1:
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

// combine folds the workers' partial accumulators into the first worker's.
func (r *cRenderer) combine() {
	r.line("for (long w = 1; w < nparts; w++) {")
	for _, i := range r.sortedParts() {
		u, off := r.u[i], r.partOff[i]
		t := cValueType(u.DType)
		r.line("  { const %s* restrict s = (const %s*)(parts + w*%d + %d);", t, t, r.partBytes, off)
		r.line("    for (long i = 0; i < %d; i++) acc%d[i] = %s; }", max(u.Size, 1), i, r.fold(u.ReduceOp, u.DType, fmt.Sprintf("acc%d[i]", i), "s[i]"))
	}
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

// fold renders op(a, b) for a reduce op.
func (r *cRenderer) fold(op Op, d DType, a, b string) string {
	return r.alu(op, d, d, []string{a, b})
}

// loop emits RANGE i and its body, choosing the tiled, lane or sin form.
func (r *cRenderer) loop(i int) {
	lo, hi := r.ref(r.u[i].Src[0]), r.ref(r.u[i].Src[1])
	if i == r.global {
		lo, hi = "start", "end"
	}
	if r.innermost[i] {
		r.innerLoop(i, lo, hi)
		return
	}
	if f, ok := r.tiledReduceForm(i); ok {
		r.tiledReduce(i, f, lo, hi)
		return
	}
	if inner, ok := r.tileable(i); ok {
		r.tiled(i, inner, lo, hi)
		return
	}
	r.line("for (long %s = %s; %s < %s; %s++) {", r.u[i].Name, lo, r.u[i].Name, hi, r.u[i].Name)
	r.depth++
	r.block(i+1, r.end[i], true)
	r.depth--
	r.line("}")
}

// plainLoop emits an innermost loop with the current body settings.
func (r *cRenderer) plainLoop(i int, lo, hi string) {
	n := r.ref(i)
	r.line("for (long %s = %s; %s < %s; %s++) {", n, lo, n, hi, n)
	r.depth++
	r.block(i+1, r.end[i], true)
	r.depth--
	r.line("}")
}

// innerLoop emits an innermost loop.
func (r *cRenderer) innerLoop(i int, lo, hi string) {
	var laneAcc []int
	hasAccum, hasSin := false, false
	for j := i + 1; j < r.end[i]; j++ {
		u := r.u[j]
		switch u.Op {
		case OpAccum:
			hasAccum = true
			if u.Src[1] != i && r.scope[u.Src[1]] != i {
				laneAcc = append(laneAcc, j)
			}
		case OpSin:
			if u.DType != Float64 {
				hasSin = true
			}
		case OpLoad:
			if r.u[u.Src[0]].Op == OpDefineAcc && r.scope[u.Src[0]] != i {
				for _, a := range laneAcc {
					if r.u[a].Src[0] == u.Src[0] {
						laneAcc = nil // an accumulator read while it is folded: no lanes
					}
				}
			}
		}
	}
	switch {
	case len(laneAcc) > 0 && !r.readsAcc(i, laneAcc):
		r.laneLoop(i, lo, hi, laneAcc)
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

// uop emits one uop that is not a loop.
func (r *cRenderer) uop(i int) {
	u := r.u[i]
	switch u.Op {
	case OpConst, OpDefineGlobal, OpDefineVar, OpEnd:
		return
	case OpDefineAcc:
		r.line("%s %s[%d];", cValueType(u.DType), r.ref(i), max(u.Size, 1))
		r.line("for (long i = 0; i < %d; i++) %s[i] = %s;", max(u.Size, 1), r.ref(i), cConst(u.Val, u.DType))
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
			dst = fmt.Sprintf("tiny_tmp[%s - %s_s]", r.ref(u.Src[1]), r.u[u.Src[1]].Name)
		}
		if len(u.Src) > 3 {
			r.line("if (%s) %s = %s;", r.ref(u.Src[3]), dst, v)
		} else {
			r.line("%s = %s;", dst, v)
		}
	case OpAccum:
		if lane, ok := r.lanes[i]; ok {
			dst := lane + "[l]"
			r.line("%s = %s;", dst, r.fold(u.ReduceOp, u.DType, dst, r.ref(u.Src[2])))
			return
		}
		dst := fmt.Sprintf("%s[%s]", r.ref(u.Src[0]), r.ref(u.Src[1]))
		r.line("%s = %s;", dst, r.fold(u.ReduceOp, u.DType, dst, r.ref(u.Src[2])))
	default:
		src := make([]string, len(u.Src))
		for k, s := range u.Src {
			src[k] = r.ref(s)
		}
		var from DType
		if len(u.Src) > 0 {
			from = r.u[u.Src[len(u.Src)-1]].DType
			if u.Op.IsBinary() {
				from = r.u[u.Src[0]].DType
			}
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

// alu renders an ALU op producing d from operands of dtype from.
func (r *cRenderer) alu(op Op, d, from DType, s []string) string {
	isFloat := d == Float16 || d == Float32 || d == Float64
	f := "f"
	if d == Float64 {
		f = ""
	}
	switch op {
	case OpNeg:
		return "(-" + s[0] + ")"
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
	case OpIDiv, OpMod:
		sym := map[Op]string{OpIDiv: "/", OpMod: "%"}[op]
		if d == Index && isPositiveConst(s[1]) {
			return "(" + s[0] + sym + s[1] + ")"
		}
		t := cValueType(d)
		if op == OpIDiv {
			// NOTE: x / -1 overflows for the most negative x in C; it wraps in Go.
			return fmt.Sprintf("(%s == 0 ? (%s)0 : %s == -1 ? (%s)(0 - (uint64_t)%s) : (%s)(%s / %s))", s[1], t, s[1], t, s[0], t, s[0], s[1])
		}
		return fmt.Sprintf("(%s == 0 || %s == -1 ? (%s)0 : (%s)(%s %% %s))", s[1], s[1], t, t, s[0], s[1])
	case OpMax:
		if isFloat {
			// Go's max: NaN if either operand is NaN.
			return fmt.Sprintf("((%s > %s || %s != %s) ? %s : %s)", s[0], s[1], s[0], s[0], s[0], s[1])
		}
		return fmt.Sprintf("(%s > %s ? %s : %s)", s[0], s[1], s[0], s[1])
	case OpWhere:
		return "(" + s[0] + " ? " + s[1] + " : " + s[2] + ")"
	}
	panic(fmt.Sprintf("internal error: render_c: unsupported op %s", op))
}

func isPositiveConst(s string) bool {
	s = strings.TrimSuffix(s, "LL")
	v, err := strconv.ParseInt(s, 10, 64)
	return err == nil && v > 0
}

// cast renders a conversion with the CPU device's semantics: floats go to
// integers through int64 (truncating), anything goes to bool as != 0, and
// to float16 by rounding through a half.
func (r *cRenderer) cast(d, from DType, x string) string {
	fromFloat := from == Float16 || from == Float32 || from == Float64
	switch {
	case d == from:
		return x
	case d == Bool:
		return "(uint8_t)(" + x + " != 0)"
	case d == Float16:
		r.used["half"] = true
		return "tiny_h2f(tiny_f2h((float)" + x + "))"
	case fromFloat && (d == Int32 || d == Int64 || d == Uint8 || d == Index):
		return "(" + cValueType(d) + ")(int64_t)" + x
	}
	return "(" + cValueType(d) + ")" + x
}

// cPrelude returns the includes and the helper functions the kernel uses.
func cPrelude(used map[string]bool) string {
	var b strings.Builder
	b.WriteString("#include <stdint.h>\n#include <math.h>\n")
	if used["half"] {
		b.WriteString(cHalf)
	}
	if used["vec"] {
		b.WriteString("typedef float tiny_f32x16 __attribute__((vector_size(64)));\n")
		b.WriteString("typedef float tiny_f32x16u __attribute__((vector_size(64), aligned(4)));\n")
	}
	if used["stream"] {
		b.WriteString(cStream)
	}
	if used["tr16"] {
		b.WriteString(cTranspose)
	}
	if used["exp2"] {
		b.WriteString(cExp2)
	}
	if used["log2"] {
		b.WriteString(cLog2)
	}
	if used["sin"] {
		b.WriteString(cSin)
	}
	return b.String()
}

// The float32 helpers are branch-free so that the compiler vectorizes the
// loops calling them; each is accurate to about 2 ulp over the whole range.
const (
	cHalf = `#ifdef __FLT16_MAX__
static inline float tiny_h2f(uint16_t h) { _Float16 f; __builtin_memcpy(&f, &h, 2); return (float)f; }
static inline uint16_t tiny_f2h(float x) { _Float16 f = (_Float16)x; uint16_t h; __builtin_memcpy(&h, &f, 2); return h; }
#else
static inline float tiny_h2f(uint16_t h) {
  uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, b;
  float f;
  if (e == 0x1f) b = s | 0x7f800000u | m << 13;
  else if (e) b = s | (e + 112) << 23 | m << 13;
  else { f = (float)m * 0x1p-24f; return s ? -f : f; }
  __builtin_memcpy(&f, &b, 4);
  return f;
}
static inline uint16_t tiny_f2h(float x) {
  uint32_t b; __builtin_memcpy(&b, &x, 4);
  uint16_t s = (b >> 16) & 0x8000;
  int32_t e = (int32_t)((b >> 23) & 0xff) - 127 + 15;
  uint32_t m = b & 0x7fffff;
  if (((b >> 23) & 0xff) == 0xff) return s | (m ? 0x7e00 : 0x7c00);
  if (e >= 0x1f) return s | 0x7c00;
  if (e <= 0) {
    if (e < -10) return s;
    uint32_t mm = m | 0x800000, sh = 14 - e, h = mm >> sh, rem = mm & ((1u << sh) - 1), hf = 1u << (sh - 1);
    if (rem > hf || (rem == hf && (h & 1))) h++;
    return s | h;
  }
  uint32_t h = (uint32_t)e << 10 | m >> 13, rem = m & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
  return s | h;
}
#endif
`
	// tiny_stream copies n floats to dst with non-temporal stores where the
	// compiler has them for AVX-512; tiny_sfence orders them before return.
	cStream = `#if defined(__AVX512F__) && defined(__GNUC__) && !defined(__clang__)
typedef float tiny_v16sf __attribute__((vector_size(64)));
typedef float tiny_v16sfu __attribute__((vector_size(64), aligned(4)));
static inline void tiny_stream(float* restrict dst, const float* restrict src, long n) {
  long i = 0;
  for (; i < n && ((uintptr_t)(dst + i) & 63); i++) dst[i] = src[i];
  for (; i + 16 <= n; i += 16) __builtin_ia32_movntps512(dst + i, *(const tiny_v16sfu*)(src + i));
  for (; i < n; i++) dst[i] = src[i];
}
static inline void tiny_sfence(void) { __builtin_ia32_sfence(); }
#else
static inline void tiny_stream(float* restrict dst, const float* restrict src, long n) {
  for (long i = 0; i < n; i++) dst[i] = src[i];
}
static inline void tiny_sfence(void) {}
#endif
`
	// tiny_tr16 stores the transpose of the 16x16 block at src (rows ss
	// apart) at dst (rows ds apart), in registers: four rounds of two-input
	// shuffles, each swapping the off-diagonal halves of ever smaller blocks.
	cTranspose = `typedef int tiny_i32x16 __attribute__((vector_size(64)));
#if defined(__GNUC__) && !defined(__clang__)
#define TINY_STAGE(s, lo, hi) \
  _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++) if (!(i & s)) { \
    tiny_f32x16 a = v[i], b = v[i + s]; v[i] = __builtin_shuffle(a, b, lo); v[i + s] = __builtin_shuffle(a, b, hi); }
static inline void tiny_tr16(float* restrict dst, long ds, const float* restrict src, long ss) {
  tiny_f32x16 v[16];
  _Pragma("GCC unroll 16") for (int r = 0; r < 16; r++) v[r] = *(const tiny_f32x16u*)&src[r * ss];
  TINY_STAGE(8, ((tiny_i32x16){0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23}), ((tiny_i32x16){8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31}))
  TINY_STAGE(4, ((tiny_i32x16){0,1,2,3,16,17,18,19,8,9,10,11,24,25,26,27}), ((tiny_i32x16){4,5,6,7,20,21,22,23,12,13,14,15,28,29,30,31}))
  TINY_STAGE(2, ((tiny_i32x16){0,1,16,17,4,5,20,21,8,9,24,25,12,13,28,29}), ((tiny_i32x16){2,3,18,19,6,7,22,23,10,11,26,27,14,15,30,31}))
  TINY_STAGE(1, ((tiny_i32x16){0,16,2,18,4,20,6,22,8,24,10,26,12,28,14,30}), ((tiny_i32x16){1,17,3,19,5,21,7,23,9,25,11,27,13,29,15,31}))
  _Pragma("GCC unroll 16") for (int q = 0; q < 16; q++) *(tiny_f32x16u*)&dst[q * ds] = v[q];
}
#else
static inline void tiny_tr16(float* restrict dst, long ds, const float* restrict src, long ss) {
  for (int q = 0; q < 16; q++) for (int r = 0; r < 16; r++) dst[q * ds + r] = src[r * ss + q];
}
#endif
`
	// exp2: x = n + f with |f| <= 1/2; 2**f by its Taylor series to f**7
	// (error below 1e-8); 2**n applied in two halves so that results in the
	// subnormal range are rounded once and large n overflows to inf.
	cExp2 = `static inline float tiny_exp2f(float x) {
  float xc = x < -160.0f ? -160.0f : x > 160.0f ? 160.0f : x;
  float n = __builtin_rintf(xc), f = xc - n;
  float p = 1.0f + f*(0.693147180559945309f + f*(0.240226506959100712f + f*(0.0555041086648215800f +
    f*(0.00961812910762847716f + f*(0.00133335581464284434f + f*(0.000154035303933816099f + f*1.52527338040598403e-05f))))));
  int32_t ni = (int32_t)n, n1 = ni >> 1, n2 = ni - n1;
  uint32_t b1 = (uint32_t)(n1 + 127) << 23, b2 = (uint32_t)(n2 + 127) << 23;
  float s1, s2;
  __builtin_memcpy(&s1, &b1, 4);
  __builtin_memcpy(&s2, &b2, 4);
  return p * s1 * s2;
}
`
	// log2: x = 2**k * m with m in [sqrt(1/2), sqrt(2)); with s = (m-1)/(m+1),
	// log2(m) = 2/ln2 * atanh(s), whose odd series to s**9 errs below 1e-8.
	// The series runs in double so that the result is rounded once.
	cLog2 = `static inline float tiny_log2f(float x) {
  int sub = x < 0x1p-126f;
  float xs = sub ? x * 0x1p23f : x;
  uint32_t b;
  __builtin_memcpy(&b, &xs, 4);
  uint32_t ix = b - 0x3f3504f3u;
  int32_t k = (int32_t)ix >> 23;
  ix = (ix & 0x7fffffu) + 0x3f3504f3u;
  float m;
  __builtin_memcpy(&m, &ix, 4);
  double t = (double)m - 1.0, s = t / (2.0 + t), s2 = s * s;
  double r = s * (2.8853900817779268 + s2*(2.8853900817779268/3 + s2*(2.8853900817779268/5 +
    s2*(2.8853900817779268/7 + s2*(2.8853900817779268/9)))));
  float res = (float)((double)(k - (sub ? 23 : 0)) + r);
  res = x == 0.0f ? -__builtin_inff() : res;
  res = x < 0.0f ? __builtin_nanf("") : res;
  res = x == __builtin_inff() ? x : res;
  return x != x ? x : res;
}
`
	// sin: q = round(x * 2/pi) and r = x - q*pi/2 with pi/2 in three parts
	// (the first product exact through fma), then the Taylor series of sin or
	// cos to degree 9 or 10 by quadrant. The reduction in float holds to
	// |x| <= 2**10 (tiny_sin_mid flags larger arguments), in double to
	// |x| < 2**50 (tiny_sin_big); tiny_sinf calls libm beyond.
	cSin = `static inline float tiny_sin_poly(float x, float r, int64_t qi) {
  float r2 = r * r;
  float s = r + r*r2*(-1.0f/6 + r2*(1.0f/120 + r2*(-1.0f/5040 + r2*(1.0f/362880))));
  float c = 1.0f + r2*(-0.5f + r2*(1.0f/24 + r2*(-1.0f/720 + r2*(1.0f/40320 + r2*(-1.0f/3628800)))));
  float v = (qi & 1) ? c : s;
  v = (qi & 2) ? -v : v;
  return __builtin_fabsf(x) < 0x1p-12f ? x : v;
}
static inline float tiny_sinf_small(float x) {
  float q = __builtin_rintf(x * 0x1.45f306p-1f);
  float r = __builtin_fmaf(-q, 0x1.921fb6p+0f, x);
  r = __builtin_fmaf(-q, -0x1.777a5cp-25f, r);
  r = __builtin_fmaf(-q, -0x1.ee59dap-50f, r);
  return tiny_sin_poly(x, r, (int64_t)(int32_t)q);
}
static inline float tiny_sinf_fast(float x) {
  double xd = x, q = __builtin_rint(xd * 0x1.45f306dc9c883p-1);
  double rd = __builtin_fma(-q, 0x1.921fb54442d18p+0, xd);
  rd = __builtin_fma(-q, 0x1.1a62633145c07p-54, rd);
  rd = __builtin_fma(-q, -0x1.f1976b7ed8fbcp-110, rd);
  return tiny_sin_poly(x, (float)rd, (int64_t)q);
}
static inline int tiny_sin_mid(float x) { float a = __builtin_fabsf(x); return (a > 0x1p10f) & (a < __builtin_inff()); }
static inline int tiny_sin_big(float x) { float a = __builtin_fabsf(x); return (a > 0x1p50f) & (a < __builtin_inff()); }
static inline float tiny_sinf(float x) { return tiny_sin_big(x) ? (float)sin((double)x) : tiny_sinf_fast(x); }
`
)

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
