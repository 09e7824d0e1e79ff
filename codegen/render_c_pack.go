package codegen

import (
	"fmt"
	"slices"
	"strings"
)

// This file holds the packed form RenderC gives the shared operand of a
// register tile: a vector load in a reduce nest that several iterations of
// an enclosing loop read again unchanged (the B panel of a matmul, read once
// for every row tile) is first copied, before that loop, into a contiguous
// buffer in the order the nest walks it, and the nest reads the copy. A
// matmul's B panel otherwise strides by a whole row per step of the reduce:
// with 1024 columns every step opens a new 4 KiB page and maps to the same
// cache sets, so the panel never stays in L1 or L2 and comes from L3 again
// for every row tile. Packing changes no value and no order of operations.

// maxPackFloats bounds a packed panel (256 KiB, half a core's L2): each
// worker thread keeps one buffer per packed load.
const maxPackFloats = 1 << 16

// minPackReuse is the number of iterations of the loop a panel is packed
// before from which packing pays: each iteration reads the whole panel.
const minPackReuse = 4

// pack is one packed load.
type pack struct {
	load   int   // the LOAD
	before int   // the RANGE the panel is packed before
	dims   []int // the RANGEs the panel is indexed by, outermost first
	ext    []int // their trip counts
	size   int   // floats in the panel
}

// packPlan says which loads RenderC packs.
type packPlan struct {
	byLoad map[int]*pack
	before map[int][]*pack // RANGE -> the panels packed before it
}

// planPack finds the vector loads to pack: float32 loads of a vector loop
// inside a reduce nest whose index does not depend on some output loop
// around the nest (the loop whose iterations share the panel) and depends
// otherwise only on loops with constant bounds, where each step of the
// innermost reduce loop jumps in memory. With byOpts, only those the
// Program's Opts name (OptPack, which Lower records from packLoads).
func (r *cRenderer) planPack(byOpts bool) packPlan {
	pp := packPlan{byLoad: map[int]*pack{}, before: map[int][]*pack{}}
	if r.split {
		return pp
	}
	if byOpts && !r.p.Opts.Has(OptPack) {
		return pp
	}
	for l := range r.vec.loops {
		for j := l + 1; j < r.end[l]; j++ {
			if u := r.u[j]; u.Op == OpLoad && r.vec.class[j] == vecValue && pp.byLoad[j] == nil {
				if pk := r.packFor(l, j); pk != nil && (!byOpts || r.packed(pk)) {
					pp.byLoad[j] = pk
					pp.before[pk.before] = append(pp.before[pk.before], pk)
				}
			}
		}
	}
	for _, ps := range pp.before {
		for a := 1; a < len(ps); a++ {
			for b := a; b > 0 && ps[b].load < ps[b-1].load; b-- {
				ps[b], ps[b-1] = ps[b-1], ps[b]
			}
		}
	}
	return pp
}

// packed reports whether the Program's Opts say to pack pk.
func (r *cRenderer) packed(pk *pack) bool {
	want := Opt{Op: OptPack, Axis: r.u[r.u[pk.load].Src[0]].Buf, Arg: pk.size}
	for _, o := range r.p.Opts {
		if o == want {
			return true
		}
	}
	return false
}

// packLoads returns the PACK optimizations RenderC can apply to p, one per
// packable load in program order: Lower records them (the renderer packs
// only what the Opts say), so that DEBUG=3 shows them and Options.Skip
// turns them off.
func packLoads(p *Program) []Opt {
	r := newCRenderer(p)
	pp := r.planPack(false)
	var loads []int
	for j := range pp.byLoad {
		loads = append(loads, j)
	}
	slices.Sort(loads)
	opts := make([]Opt, len(loads))
	for k, j := range loads {
		opts[k] = Opt{Op: OptPack, Axis: r.u[r.u[j].Src[0]].Buf, Arg: pp.byLoad[j].size}
	}
	return opts
}

// packFor returns the pack of load j in vector loop l, or nil.
func (r *cRenderer) packFor(l, j int) *pack {
	var chain []int // the loops around j, outermost first
	for x := l; x >= 0; x = r.scope[x] {
		chain = append([]int{x}, chain...)
	}
	nest := -1
	for k, x := range chain {
		if r.u[x].Kind == RangeReduce {
			nest = k
			break
		}
	}
	if nest <= 0 {
		return nil
	}
	idx := r.u[j].Src[1]
	deps := r.loopDeps(idx, map[int]map[int]bool{})
	// The panel is packed before the outermost loop around the nest it does
	// not depend on (a convolution's weight, before the loops over batch
	// blocks and positions), or, when the panel would grow too large, the
	// next one in.
	var pk *pack
	for f := 0; f < nest && pk == nil; f++ {
		if !deps[chain[f]] {
			pk = r.panel(chain, f, deps, idx, j)
		}
	}
	if pk == nil {
		return nil
	}
	// Only a panel whose reduce steps jump is worth copying: when the
	// innermost reduce loop's next step reads the next vectors in memory
	// (a convolution's weight, or its input windows, with channels
	// innermost) the prefetchers already stream it, and the copy would
	// only add traffic.
	if len(pk.dims) < 2 || pk.dims[len(pk.dims)-1] != l {
		return nil
	}
	d := pk.dims[len(pk.dims)-2]
	step := r.coef(idx, d, map[int]int64{d: 1})
	if r.u[d].Kind != RangeReduce || step == int64(pk.ext[len(pk.ext)-1]) {
		return nil
	}
	// A panel copied again in every iteration of the global loop, whose
	// steps are at most two cache lines apart (the weight gradient's input
	// windows, channels innermost), is read well enough where it is: the
	// copy cost more than it saved (about 5% of that kernel).
	if pk.before != r.global && step > 0 && step*4 <= 2*64 {
		return nil
	}
	return pk
}

// panel returns the pack of load j packed before loop chain[f], or nil.
func (r *cRenderer) panel(chain []int, f int, deps map[int]bool, idx, j int) *pack {
	before := chain[f]
	if n, ok := r.constTrip(before); !ok || n < minPackReuse {
		return nil
	}
	pk := &pack{load: j, before: before, size: 1}
	for _, x := range chain[f+1:] {
		if !deps[x] {
			continue
		}
		n, ok := r.constTrip(x)
		if !ok || x == r.global {
			return nil
		}
		pk.dims = append(pk.dims, x)
		pk.ext = append(pk.ext, n)
		pk.size *= n
	}
	if pk.size > maxPackFloats || pk.size < 2*r.vw {
		return nil
	}
	// Every value the index reads that does not vary with the panel's
	// loops must be computed before the panel is packed.
	if !r.packable(idx, deps, before, pk.dims) {
		return nil
	}
	return pk
}

// constTrip returns the trip count of a RANGE over [0, n) with constant n,
// or for a clipped loop (OptClip) the extent its bounds lie within: a panel
// holds the whole extent, and the loop reads the part it walks.
func (r *cRenderer) constTrip(x int) (int, bool) {
	if e := r.u[x].Val; e > 0 {
		return int(e), true
	}
	lo, hi := r.u[r.u[x].Src[0]], r.u[r.u[x].Src[1]]
	if lo.Op != OpConst || lo.Val != 0 || hi.Op != OpConst || hi.Val < 1 {
		return 0, false
	}
	return int(hi.Val), true
}

// loopDeps returns the RANGEs uop j's value depends on.
func (r *cRenderer) loopDeps(j int, memo map[int]map[int]bool) map[int]bool {
	if d, ok := memo[j]; ok {
		return d
	}
	d := map[int]bool{}
	if r.u[j].Op == OpRange {
		d[j] = true
	}
	for _, s := range r.u[j].Src {
		if r.u[j].Op == OpRange {
			break
		}
		for x := range r.loopDeps(s, memo) {
			d[x] = true
		}
	}
	memo[j] = d
	return d
}

// packable reports whether index uop j can be rendered before loop before:
// what depends on the panel's loops is index arithmetic, and everything
// else is computed earlier in the program.
func (r *cRenderer) packable(j int, deps map[int]bool, before int, dims []int) bool {
	u := r.u[j]
	varies := false
	for x := range r.loopDeps(j, map[int]map[int]bool{}) {
		for _, d := range dims {
			varies = varies || x == d
		}
	}
	switch {
	case u.Op == OpRange || u.Op == OpConst || u.Op == OpDefineVar:
		return true
	case !varies:
		return j < before
	case u.DType != Index || u.Op == OpLoad:
		return false
	}
	switch u.Op {
	case OpAdd, OpSub, OpMul, OpIDiv, OpMod:
	default:
		return false
	}
	for _, s := range u.Src {
		if !r.packable(s, deps, before, dims) {
			return false
		}
	}
	return true
}

// packExpr renders index uop j as one C expression of the panel's loop
// variables and of values computed before the panel.
func (r *cRenderer) packExpr(j int, dims []int) string {
	u := r.u[j]
	varies := false
	for x := range r.loopDeps(j, map[int]map[int]bool{}) {
		for _, d := range dims {
			varies = varies || x == d
		}
	}
	if !varies || u.Op == OpRange {
		return r.ref(j)
	}
	src := make([]string, len(u.Src))
	for k, s := range u.Src {
		src[k] = r.packExpr(s, dims)
	}
	return r.alu(u.Op, u.DType, r.u[u.Src[0]].DType, src)
}

// packName is the buffer of a packed load.
func packName(pk *pack) string { return fmt.Sprintf("pk%d", pk.load) }

// emitPacks copies the panels packed before loop x into their buffers.
func (r *cRenderer) emitPacks(x int) {
	for _, pk := range r.pack.before[x] {
		u := r.u[pk.load]
		// The buffer is thread-local, one per worker thread. In a shared
		// object the address of a __thread variable comes from a call to
		// __tls_get_addr, which the compiler repeats rather than keep the
		// address in a register (once per row tile, 1% of matmul512): the
		// panel is used through a pointer taken once, which the empty asm
		// makes opaque, so that it is kept (or spilled) instead.
		r.line("static __thread float %s_tls[%d] __attribute__((aligned(64)));", packName(pk), pk.size)
		r.line("float* restrict %s = %s_tls; __asm__(\"\" : \"+r\"(%s));", packName(pk), packName(pk), packName(pk))
		r.line("{")
		r.depth++
		src := fmt.Sprintf("%s[%s]", r.ref(u.Src[0]), r.packExpr(u.Src[1], pk.dims))
		stmt := fmt.Sprintf("%s[%s] = %s;", packName(pk), r.packIndex(pk), src)
		last := len(pk.dims) - 1
		for k, d := range pk.dims[:last] {
			n := r.u[d].Name
			r.line("for (long %s = 0; %s < %d; %s++)", n, n, pk.ext[k], n)
		}
		n := r.u[pk.dims[last]].Name
		if pf := r.prefetchNext(pk, src); pf != "" {
			// The prefetches in a loop of their own, a line a step, beside
			// the copy: in the copy's loop, under a test of the column,
			// they kept gcc from vectorizing it (linear_wide's pack copied
			// one float at a time, half its kernel on an AVX-512 Xeon).
			r.line("{")
			r.line("  for (long %s = 0; %s < %d; %s += %d) %s", n, n, pk.ext[last], n, lineFloats, pf)
			r.line("  for (long %s = 0; %s < %d; %s++) %s", n, n, pk.ext[last], n, stmt)
			r.line("}")
		} else {
			r.line("for (long %s = 0; %s < %d; %s++)", n, n, pk.ext[last], n)
			r.line("  %s", stmt)
		}
		r.depth--
		r.line("}")
	}
}

// packIndex is the position in the panel of the current values of its
// loops' variables.
func (r *cRenderer) packIndex(pk *pack) string {
	var b strings.Builder
	for k, d := range pk.dims {
		if k > 0 {
			b.WriteString(fmt.Sprintf(")*%dLL+", pk.ext[k]))
		}
		b.WriteString(r.ref(d))
	}
	return strings.Repeat("(", len(pk.dims)-1) + b.String()
}

// prefetchNext returns the C that asks for the cache line of the next
// iteration's panel beside each line the pack reads (src, the element it
// copies), or "" when there is none to ask for: the next iteration of the
// loop the pack runs in (a matmul's column panels, the global loop; a
// batched matmul's panels within one batch). A matmul's panel is one line
// from each row of B, rows a power of two apart: they all fall in the same
// few sets of L1 and L2, so the hardware prefetchers do not follow them and
// each copy waits on memory (linear_wide's packs of a 32 MiB weight took
// 27% of its kernel, bmm_attn's 13%). Lines asked for a whole panel ahead
// are evicted from L2 by the same conflicts, but into L3, from where the
// next pack reads them. Only where the panel's index moves by a constant
// with that loop, and the innermost loop of the copy walks memory
// contiguously (one request a 64-byte line); a prefetch never faults, so
// the last iteration's points past the panel harmlessly.
func (r *cRenderer) prefetchNext(pk *pack, src string) string {
	idx := r.u[pk.load].Src[1]
	around := r.scope[pk.before]
	if around < 0 {
		return ""
	}
	c := r.coef(idx, around, map[int]int64{around: 1})
	inner := pk.dims[len(pk.dims)-1]
	if c == noCoef || c == 0 || r.coef(idx, inner, map[int]int64{inner: 1}) != 1 {
		return ""
	}
	return fmt.Sprintf("__builtin_prefetch((const void*)((uintptr_t)&%s + %dLL), 0, 2);",
		src, c*int64(r.u[pk.load].DType.Size()))
}
