package codegen

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// This file defines RenderCL, the OpenCL C renderer the GPU device builds.
// The body of a kernel follows the uops line for line, as RenderC's does;
// what is particular to OpenCL is how the loop nest meets the device's
// work-items:
//
//   - map: the global loop and the output loops perfectly nested in it
//     become dimensions of the NDRange (the innermost loop is dimension 0,
//     so neighbouring work-items touch neighbouring addresses), and each
//     work-item runs one iteration of them. A reduce inside runs whole in
//     its work-item, unless there are too few outputs to fill the device:
//     then each output gets a work-group, its reduce loops are strided
//     across the group's work-items, and the partial accumulators are
//     combined by a tree in local memory with barriers.
//   - split: the global loop is itself a reduce (a sum of a whole tensor).
//     A first kernel gives each work-group a contiguous chunk of it, strided
//     across the group and combined in local memory as above, and writes
//     each group's partial accumulators; a second kernel, one work-item,
//     folds the groups' partials in group order and runs the rest.
//   - single: anything else runs in one work-item, correct if slow.
//
// The combining order depends only on the sizes chosen from the device's
// properties, so a program gives the same bits on every run on one device.

// CLTarget is what the OpenCL device reports about itself, from which the
// renderer sizes work-groups.
type CLTarget struct {
	ComputeUnits int  // CL_DEVICE_MAX_COMPUTE_UNITS
	MaxWorkGroup int  // CL_DEVICE_MAX_WORK_GROUP_SIZE
	LocalMem     int  // CL_DEVICE_LOCAL_MEM_SIZE, bytes
	FP16         bool // cl_khr_fp16
	FP64         bool // cl_khr_fp64
}

// CLProgram is a Program rendered as OpenCL C: the source and the kernels to
// enqueue, in order.
//
// Every kernel takes the program's buffers (data0, data1, ... as global
// pointers), then its symbolic variables as longs in the order of Vars. A
// kernel with Parts set takes next a global byte buffer of Groups*PartBytes
// bytes for the groups' partial accumulators, and a kernel with LocalBytes
// set takes last a local buffer of LocalBytes bytes per work-item.
type CLProgram struct {
	Source    string
	Kernels   []CLKernel
	Vars      []string
	PartBytes int // bytes of one group's partial accumulators (mode split)
	Mode      string

	p *Program
}

// CLKernel is one kernel of a CLProgram and how to launch it.
type CLKernel struct {
	Name string
	// Dims are the NDRange's dimensions, dimension 0 first: each the
	// uops giving a loop's start and end. No dims means one work-item.
	Dims []CLDim
	// Local is the number of work-items of a work-group along dimension 0
	// when the kernel strides a reduce across its group (a power of two;
	// the device may halve it to what the built kernel allows); 0 leaves
	// the work-group shape to the driver.
	Local      int
	LocalBytes int  // bytes of local memory per work-item
	Parts      bool // the kernel takes the partials buffer
	Groups     int  // mode split: the number of work-groups of the first kernel
	Finish     bool // mode split's second kernel: it also takes the number of groups as a long
}

// CLDim is one dimension of an NDRange: a loop's bounds as uop indices.
type CLDim struct{ Lo, Hi int }

// Size returns how many iterations dimension d walks, given the values of
// the program's variables.
func (c *CLProgram) Size(d CLDim, vars map[string]int64) (int64, error) {
	lo, err := evalIndex(c.p.UOps, d.Lo, vars)
	if err != nil {
		return 0, err
	}
	hi, err := evalIndex(c.p.UOps, d.Hi, vars)
	if err != nil {
		return 0, err
	}
	return max(hi-lo, 0), nil
}

// evalIndex computes the value of an index uop from constants and
// variables.
func evalIndex(u []UOp, i int, vars map[string]int64) (int64, error) {
	x := u[i]
	switch x.Op {
	case OpConst:
		return int64(x.Val), nil
	case OpDefineVar:
		v, ok := vars[x.Name]
		if !ok {
			return 0, fmt.Errorf("no value for variable %s", x.Name)
		}
		return v, nil
	}
	if !x.Op.IsBinary() {
		return 0, fmt.Errorf("loop bound %s is not an index expression", x.Op)
	}
	a, err := evalIndex(u, x.Src[0], vars)
	if err != nil {
		return 0, err
	}
	b, err := evalIndex(u, x.Src[1], vars)
	if err != nil {
		return 0, err
	}
	switch x.Op {
	case OpAdd:
		return a + b, nil
	case OpSub:
		return a - b, nil
	case OpMul:
		return a * b, nil
	case OpIDiv:
		if b != 0 {
			return a / b, nil
		}
	case OpMod:
		if b != 0 {
			return a % b, nil
		}
	case OpMax:
		return max(a, b), nil
	}
	return 0, fmt.Errorf("loop bound %s cannot be computed", x.Op)
}

// clFloatMax renders MAX(a, b) of float type t (float or double) with
// integer operations on the bits: b where it is NaN or, a not being NaN,
// larger, else a. pocl's compiler turns the float compare-and-select of
// maxExpr against a constant into a max that gives maximum(0.0, -0.0) as
// -0.0; on the bits nothing is left for it to fold. The key of a float is
// its bits as a signed integer with the magnitude negated below zero, so
// that -0.0 and 0.0 share key 0 (a tie, which keeps a).
func clFloatMax(t, a, b string) string {
	u, i, sign, abs, inf := "uint", "int", "0x80000000u", "0x7fffffffu", "0x7f800000u"
	if t == "double" {
		u, i, sign, abs, inf = "ulong", "long", "0x8000000000000000ul", "0x7ffffffffffffffful", "0x7ff0000000000000ul"
	}
	key := func(x string) string {
		return fmt.Sprintf("((%s)((%s)as_%s(%s) < 0 ? %s - as_%s(%s) : as_%s(%s)))", i, i, u, x, sign, u, x, u, x)
	}
	nan := func(x string) string { return fmt.Sprintf("((as_%s(%s) & %s) > %s)", u, x, abs, inf) }
	return fmt.Sprintf("((%s || (!%s && %s < %s)) ? %s : %s)", nan(b), nan(a), key(a), key(b), b, a)
}

// RenderCL renders p for an OpenCL device with the properties t. It fails
// when p needs what the device lacks (float64 without cl_khr_fp64).
func RenderCL(p *Program, t CLTarget) (c *CLProgram, err error) {
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("codegen: rendering %s as OpenCL: %v", p.Name, r)
		}
	}()
	for _, u := range p.UOps {
		if u.DType == Float64 && !t.FP64 {
			return nil, fmt.Errorf("%s needs float64, and the device has no cl_khr_fp64", p.Name)
		}
	}
	r := newCLRenderer(p, t)
	return r.render(), nil
}

// clValueType is the OpenCL C type a value of d lives in.
func clValueType(d DType) string {
	switch d {
	case Bool, Uint8:
		return "uchar"
	case Int8:
		return "char"
	case Int16:
		return "short"
	case Uint16:
		return "ushort"
	case Int32:
		return "int"
	case Uint32:
		return "uint"
	case Int64, Index:
		return "long"
	case Uint64:
		return "ulong"
	case Float16, Float32:
		return "float"
	case Float64:
		return "double"
	}
	panic(fmt.Sprintf("no OpenCL type for %s", d))
}

// clConst renders v as an OpenCL C literal of d's value type.
func clConst(v float64, d DType) string {
	switch {
	case d == Bool:
		if v != 0 {
			return "1"
		}
		return "0"
	case d.IsFloat():
		cast := "(float)"
		if d == Float64 {
			cast = "(double)"
		}
		switch {
		case math.IsNaN(v):
			return "(" + cast + "NAN)"
		case math.IsInf(v, 1):
			return "(" + cast + "INFINITY)"
		case math.IsInf(v, -1):
			return "(-" + cast + "INFINITY)"
		}
		return floatLit(v, d)
	}
	if d.IsUnsigned() {
		return unsignedLit(v, d, "UL")
	}
	i := int64(v)
	switch {
	case d == Int32 && i == math.MinInt32:
		return "(-2147483647-1)"
	case i == math.MinInt64:
		return "(-9223372036854775807L-1)"
	case (d == Int64 || d == Index) && (i > math.MaxInt32 || i < math.MinInt32):
		return "(" + strconv.FormatInt(i, 10) + "L)"
	case i < 0:
		return "(" + strconv.FormatInt(i, 10) + ")"
	}
	return strconv.FormatInt(i, 10)
}

// clRenderer holds the analysis of one program while it is rendered.
type clRenderer struct {
	cListing
	t CLTarget

	mapped   map[int]int  // mapped RANGE -> its NDRange dimension
	split    map[int]bool // reduce RANGEs strided across the work-group
	accOff   map[int]int  // DEFINE_ACC combined in local memory -> byte offset per work-item
	accBytes int          // local bytes per work-item
	gated    bool         // stores run in work-item 0 of the group only
	grouped  bool         // the kernel strides reduces across work-groups
	partOff  map[int]int  // mode split: top-level DEFINE_ACC -> byte offset in a group's partials
	parts    int          // mode split: bytes of a group's partials
	finish   bool         // rendering mode split's second kernel
}

func newCLRenderer(p *Program, t CLTarget) *clRenderer {
	return &clRenderer{cListing: newCListing(p, clConst), t: t, mapped: map[int]int{}, split: map[int]bool{},
		accOff: map[int]int{}, partOff: map[int]int{}}
}

// isStatic reports whether uop i is a constant, and its value.
func (r *clRenderer) isStatic(i int) (int64, bool) {
	v, err := evalIndex(r.u, i, nil)
	return v, err == nil
}

// trips returns the static trip count of RANGE i, or -1.
func (r *clRenderer) trips(i int) int64 {
	lo, ok1 := r.isStatic(r.u[i].Src[0])
	hi, ok2 := r.isStatic(r.u[i].Src[1])
	if !ok1 || !ok2 {
		return -1
	}
	return max(hi-lo, 0)
}

// effectful reports whether uops [from, to) of one scope hold anything but
// pure values: stores, accumulators or loops.
func (r *clRenderer) effectful(from, to, skip int) bool {
	for j := from; j < to; j++ {
		if j == skip {
			j = r.end[skip]
			continue
		}
		switch r.u[j].Op {
		case OpStore, OpAccum, OpDefineAcc, OpRange:
			return true
		}
	}
	return false
}

// foldsTopLevel reports whether the global loop accumulates into
// accumulators defined outside it.
func (r *clRenderer) foldsTopLevel() bool {
	for j := r.global + 1; j < r.end[r.global]; j++ {
		if u := r.u[j]; u.Op == OpAccum && r.scope[u.Src[0]] == -1 {
			return true
		}
	}
	return false
}

// pow2 returns the largest power of two at most n (1 for n < 1).
func pow2(n int64) int {
	if n < 1 {
		return 1
	}
	return 1 << (bits.Len64(uint64(n)) - 1)
}

// minPerItem is the fewest reduce iterations a work-item of a strided
// reduce should fold, so that the combining tree stays a small part of the
// work.
const minPerItem = 16

func (r *clRenderer) render() *CLProgram {
	c := &CLProgram{Vars: r.vars, p: r.p}
	var kernels strings.Builder
	switch {
	case r.global < 0 || r.p.Serial:
		c.Mode = "single"
		c.Kernels = []CLKernel{{Name: r.name}}
		r.single()
	case r.foldsTopLevel():
		c.Mode = "split"
		c.Kernels = r.splitKernels()
		c.PartBytes = r.parts
	case r.u[r.global].Kind != RangeReduce && !r.effectful(r.end[r.global]+1, len(r.u), -1):
		c.Mode = "map"
		c.Kernels = []CLKernel{r.mapKernel()}
	default:
		c.Mode = "single"
		c.Kernels = []CLKernel{{Name: r.name}}
		r.single()
	}
	kernels.WriteString(r.b.String())
	var src strings.Builder
	// No contraction: only a MULACC is fused (as fma), as on every device.
	src.WriteString("#pragma OPENCL FP_CONTRACT OFF\n")
	usesF64, usesF16, usesExp2s, usesPow := false, false, false, false
	for _, u := range r.u {
		usesF64 = usesF64 || u.DType == Float64
		usesF16 = usesF16 || u.DType == Float16
		usesExp2s = usesExp2s || u.Op == OpExp2 && len(u.Src) > 1 && u.DType != Float64
		usesPow = usesPow || u.Op == OpExp2 && u.ReduceOp == OpLog2
	}
	if usesF64 || usesPow && r.t.FP64 {
		src.WriteString("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
	}
	if usesF16 && r.t.FP16 {
		src.WriteString("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n")
	}
	if usesF16 {
		// Rounding to float16 through a half in private memory; vload_half
		// and vstore_half are core OpenCL, with or without cl_khr_fp16.
		src.WriteString("#ifndef TINY_RH\n#define TINY_RH\nstatic inline float tiny_rh(float x) { ushort h; vstore_half_rte(x, 0, (__private half*)&h); return vload_half(0, (__private const half*)&h); }\n#endif\n")
	}
	if usesF16 && usesF64 {
		// A double goes to half in one rounding (codegen.Float64ToHalf):
		// to float rounding to odd, which the rounding to half keeps exact.
		src.WriteString("#ifndef TINY_ODD\n#define TINY_ODD\nstatic inline float tiny_odd(double x) { float t = convert_float_rtz(x); if ((double)t != x && !isnan(x)) t = as_float(as_uint(t) | 1u); return t; }\n#endif\n")
	}
	if usesExp2s || usesPow && !r.t.FP64 {
		// A folded EXP2, 2**(x*s) with the product unrounded (hi + lo is
		// s; Exp2Scale): the fma recovers what rounding x*hi dropped.
		// Selects, not an early return for NaN and out-of-range
		// arguments: built with 110 other programs at once (Prebuild),
		// pocl gave the return form's exp2 of NaN as 1.
		src.WriteString(`#ifndef TINY_EXP2S
#define TINY_EXP2S
static inline float tiny_exp2fs(float x, float hi, float lo) {
  float y = x * hi;
  int ok = fabs(y) <= 160.0f;
  float n = ok ? rint(y) : 0.0f;
  float f = ok ? (y - n) + (fma(x, hi, -y) + x * lo) : y;
  return ldexp(exp2(f), (int)n);
}
#endif
`)
	}
	if usesPow {
		// A folded pow (codegen.OptPow): 2**(s*log2 x) with the logarithm
		// unrounded, in double where the device has it; else the
		// logarithm rounded to float, as LOG2 then EXP2.
		body := "return tiny_exp2fs(log2(x), hi, lo);"
		if r.t.FP64 {
			body = "return (float)exp2(((double)hi + (double)lo) * log2((double)x));"
		}
		src.WriteString("#ifndef TINY_POW\n#define TINY_POW\nstatic inline float tiny_exp2l2f(float x, float hi, float lo) { " + body + " }\n#endif\n")
	}
	src.WriteString(kernels.String())
	c.Source = src.String()
	return c
}

// params returns the buffer and variable parameters every kernel takes.
func (r *clRenderer) params() []string {
	var ps []string
	for i, b := range r.p.Bufs {
		c := ""
		if !r.stored[i] {
			c = "const "
		}
		t := "half"
		if b.DType != Float16 {
			t = clValueType(b.DType)
		}
		ps = append(ps, fmt.Sprintf("__global %s%s* restrict data%d", c, t, i))
	}
	for i := range r.vars {
		ps = append(ps, fmt.Sprintf("const long var%d", i))
	}
	return ps
}

// single renders the whole program as one work-item.
func (r *clRenderer) single() {
	r.line("__kernel void %s(%s) {", r.name, strings.Join(r.params(), ", "))
	r.depth++
	r.block(0, len(r.u))
	r.depth--
	r.line("}")
}

// mapKernel renders mode map: the global loop and the output loops nested
// in it become NDRange dimensions.
func (r *clRenderer) mapKernel() CLKernel {
	chain := []int{r.global}
	for len(chain) < 3 {
		last := chain[len(chain)-1]
		inner := -1
		for j := last + 1; j < r.end[last]; j++ {
			if r.u[j].Op == OpRange {
				inner = j
				break
			}
		}
		if inner < 0 || r.u[inner].Kind != RangeGlobal || r.scope[inner] != last || r.effectful(last+1, r.end[last], inner) {
			break
		}
		if _, ok := r.isStatic(r.u[inner].Src[0]); !ok {
			break
		}
		chain = append(chain, inner)
	}
	k := CLKernel{Name: r.name}
	outputs := int64(1)
	for d := range chain {
		g := chain[len(chain)-1-d]
		r.mapped[g] = d
		k.Dims = append(k.Dims, CLDim{Lo: r.u[g].Src[0], Hi: r.u[g].Src[1]})
		if n := r.trips(g); n >= 0 && outputs >= 0 {
			outputs *= n
		} else {
			outputs = -1
		}
	}
	// Too few outputs to fill the device: stride the reduces of the
	// innermost mapped body across a work-group per output.
	body := chain[len(chain)-1]
	if outputs > 0 {
		var reds []int
		red := int64(-1)
		for j := body + 1; j < r.end[body]; j++ {
			if u := r.u[j]; u.Op == OpRange && r.scope[j] == body {
				if u.Kind != RangeReduce {
					reds = nil
					break
				}
				reds = append(reds, j)
				if n := r.trips(j); n >= 0 && (red < 0 || n < red) {
					red = n
				}
			}
		}
		per := r.combined(reds)
		items := int64(max(r.t.ComputeUnits, 1) * max(r.t.MaxWorkGroup, 1))
		if len(reds) > 0 && red > 0 && per > 0 {
			l := pow2(min(int64(r.t.MaxWorkGroup), int64(r.t.LocalMem/per), red/minPerItem, items/outputs))
			if l >= 8 {
				for _, j := range reds {
					r.split[j] = true
				}
				r.accBytes, r.gated, r.grouped = per, true, true
				k.Local, k.LocalBytes = l, per
			} else {
				r.accOff = map[int]int{}
			}
		}
	}
	ps := r.params()
	if r.grouped {
		ps = append(ps, "__local uchar* lmem")
	}
	r.line("__kernel void %s(%s) {", r.name, strings.Join(ps, ", "))
	r.depth++
	if r.grouped {
		r.line("const long lid = get_local_id(0), lsz = get_local_size(0);")
	}
	r.block(0, len(r.u))
	r.depth--
	r.line("}")
	return k
}

// combined assigns each accumulator that the reduce loops reds fold into a
// slot of local memory, and returns the bytes per work-item (0 if some
// accumulator is defined outside the loops' scope). Accumulators defined
// inside a loop (a compensated sum's block) are its work-item's own.
func (r *clRenderer) combined(reds []int) int {
	off := 0
	for _, rg := range reds {
		for j := rg + 1; j < r.end[rg]; j++ {
			u := r.u[j]
			if u.Op != OpAccum {
				continue
			}
			a := u.Src[0]
			if a > rg && a < r.end[rg] {
				continue
			}
			if r.scope[a] != r.scope[rg] {
				return 0
			}
			if _, ok := r.accOff[a]; !ok {
				r.accOff[a] = off
				off += (max(r.u[a].Size, 1)*8 + 7) &^ 7
			}
		}
	}
	return off
}

// splitKernels renders mode split's two kernels.
func (r *clRenderer) splitKernels() []CLKernel {
	folded := r.globalFolds()
	for i, u := range r.u {
		if u.Op == OpDefineAcc && r.scope[i] == -1 && folded[i] {
			r.partOff[i] = r.parts
			r.parts += max(u.Size, 1) * 8
		}
	}
	n := r.trips(r.global)
	per := 0
	for i := range r.partOff {
		per += max(r.u[i].Size, 1) * 8
	}
	cu, wg := int64(max(r.t.ComputeUnits, 1)), int64(max(r.t.MaxWorkGroup, 1))
	l := pow2(min(wg, int64(max(r.t.LocalMem/max(per, 1), 1))))
	groups := 4 * cu
	if n >= 0 {
		l = pow2(min(int64(l), max(n/minPerItem, 1)))
		groups = max(1, min(groups, n/(int64(l)*minPerItem)))
	}
	r.accOff = map[int]int{}
	for i, off := range r.partOff {
		r.accOff[i] = off
	}
	r.accBytes, r.grouped = per, true
	r.split[r.global] = true

	ps := r.params()
	r.line("__kernel void %s_p(%s, __global uchar* parts, __local uchar* lmem) {", r.name, strings.Join(ps, ", "))
	r.depth++
	r.line("const long lid = get_local_id(0), lsz = get_local_size(0), grp = get_group_id(0), ngrp = get_num_groups(0);")
	r.block(0, r.end[r.global]+1)
	r.line("if (lid == 0) {")
	r.depth++
	for _, i := range sortedKeys(r.partOff) {
		t := clValueType(r.u[i].DType)
		r.line("for (int i = 0; i < %d; i++) ((__global %s*)(parts + grp*%d + %d))[i] = acc%d[i];", max(r.u[i].Size, 1), t, r.parts, r.partOff[i], i)
	}
	r.depth--
	r.line("}")
	r.depth--
	r.line("}")

	r.finish, r.grouped = true, false
	r.line("__kernel void %s_f(%s, __global const uchar* parts, const long ngrp) {", r.name, strings.Join(ps, ", "))
	r.depth++
	r.block(0, len(r.u))
	r.depth--
	r.line("}")
	return []CLKernel{
		{Name: r.name + "_p", Dims: []CLDim{{r.u[r.global].Src[0], r.u[r.global].Src[1]}}, Local: l, LocalBytes: per, Parts: true, Groups: int(groups)},
		{Name: r.name + "_f", Parts: true, Finish: true},
	}
}

func sortedKeys(m map[int]int) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}

// block emits uops [from, to) of one scope.
func (r *clRenderer) block(from, to int) {
	for i := from; i < to; i++ {
		u := r.u[i]
		if u.Op != OpRange {
			r.uop(i)
			continue
		}
		e := r.end[i]
		name := u.Name
		lo, hi := r.ref(u.Src[0]), r.ref(u.Src[1])
		switch d, ok := r.mapped[i]; {
		case ok:
			id := fmt.Sprintf("get_global_id(%d)", d)
			if r.grouped && d == 0 {
				id = "get_group_id(0)"
			}
			r.line("const long %s = %s + (long)%s;", name, lo, id)
			r.line("if (%s >= %s) return;", name, hi)
			r.block(i+1, e)
		case r.finish && i == r.global:
			// the groups' partials were folded where the accumulators were defined
		case i == r.global && r.split[i] && r.accOff != nil && len(r.partOff) > 0:
			// mode split: this group's chunk of the global loop, strided
			r.line("{")
			r.depth++
			r.line("const long n = %s - %s, chunk = (n + ngrp - 1) / ngrp, s0 = %s + grp*chunk, e0 = min(s0 + chunk, (long)%s);", hi, lo, lo, hi)
			r.line("for (long %s = s0 + lid; %s < e0; %s += lsz) {", name, name, name)
			r.depth++
			r.block(i+1, e)
			r.depth--
			r.line("}")
			r.depth--
			r.line("}")
			r.combine(i)
		case r.split[i]:
			r.line("for (long %s = %s + lid; %s < %s; %s += lsz) {", name, lo, name, hi, name)
			r.depth++
			r.block(i+1, e)
			r.depth--
			r.line("}")
			r.combine(i)
		default:
			r.line("for (long %s = %s; %s < %s; %s++) {", name, lo, name, hi, name)
			r.depth++
			r.block(i+1, e)
			r.depth--
			r.line("}")
		}
		i = e
	}
}

// combine folds the work-group's copies of the accumulators reduce loop rg
// folds into, by a tree in local memory; afterwards every work-item holds
// the group's result.
func (r *clRenderer) combine(rg int) {
	seen := map[int]bool{}
	var accs []int
	for j := rg + 1; j < r.end[rg]; j++ {
		if u := r.u[j]; u.Op == OpAccum && !seen[u.Src[0]] {
			if _, ok := r.accOff[u.Src[0]]; ok {
				seen[u.Src[0]] = true
				accs = append(accs, u.Src[0])
			}
		}
	}
	if len(accs) == 0 {
		return
	}
	for _, a := range accs {
		u := r.u[a]
		t, n := clValueType(u.DType), max(u.Size, 1)
		l := fmt.Sprintf("((__local %s*)(lmem + lsz*%d))", t, r.accOff[a])
		r.line("for (int i = 0; i < %d; i++) %s[lid*%d + i] = acc%d[i];", n, l, n, a)
	}
	r.line("barrier(CLK_LOCAL_MEM_FENCE);")
	r.line("for (long s = lsz/2; s > 0; s >>= 1) {")
	r.depth++
	r.line("if (lid < s) {")
	r.depth++
	for _, a := range accs {
		u := r.u[a]
		t, n := clValueType(u.DType), max(u.Size, 1)
		l := fmt.Sprintf("((__local %s*)(lmem + lsz*%d))", t, r.accOff[a])
		x, y := fmt.Sprintf("%s[lid*%d + i]", l, n), fmt.Sprintf("%s[(lid + s)*%d + i]", l, n)
		r.line("for (int i = 0; i < %d; i++) %s = %s;", n, x, r.alu(u.ReduceOp, u.DType, u.DType, []string{x, y}))
	}
	r.depth--
	r.line("}")
	r.line("barrier(CLK_LOCAL_MEM_FENCE);")
	r.depth--
	r.line("}")
	for _, a := range accs {
		u := r.u[a]
		t, n := clValueType(u.DType), max(u.Size, 1)
		r.line("for (int i = 0; i < %d; i++) acc%d[i] = ((__local %s*)(lmem + lsz*%d))[i];", n, a, t, r.accOff[a])
	}
	r.line("barrier(CLK_LOCAL_MEM_FENCE);")
}

// uop emits one uop that is not a loop.
func (r *clRenderer) uop(i int) {
	u := r.u[i]
	switch u.Op {
	case OpConst, OpDefineGlobal, OpDefineVar, OpEnd:
		return
	case OpDefineAcc:
		t, n := clValueType(u.DType), max(u.Size, 1)
		r.line("%s %s[%d];", t, r.ref(i), n)
		if off, ok := r.partOff[i]; ok && r.finish {
			// From the identity, so that an empty loop (no groups ran) gives it.
			r.line("for (int i = 0; i < %d; i++) %s[i] = %s;", n, r.ref(i), clConst(u.Val, u.DType))
			r.line("for (long g = 0; g < ngrp; g++) {")
			r.line("  __global const %s* s = (__global const %s*)(parts + g*%d + %d);", t, t, r.parts, off)
			r.line("  for (int i = 0; i < %d; i++) %s[i] = %s;", n, r.ref(i), r.alu(u.ReduceOp, u.DType, u.DType, []string{r.ref(i) + "[i]", "s[i]"}))
			r.line("}")
			return
		}
		r.line("for (int i = 0; i < %d; i++) %s[i] = %s;", n, r.ref(i), clConst(u.Val, u.DType))
	case OpLoad:
		r.line("const %s %s = %s;", clValueType(u.DType), r.ref(i), r.load(u))
	case OpStore:
		g := r.u[u.Src[0]]
		idx, v := r.ref(u.Src[1]), r.ref(u.Src[2])
		var st string
		if g.Op == OpDefineGlobal && g.DType == Float16 {
			st = fmt.Sprintf("vstore_half_rte(%s, %s, %s);", v, idx, r.ref(u.Src[0]))
		} else {
			st = fmt.Sprintf("%s[%s] = %s;", r.ref(u.Src[0]), idx, v)
		}
		cond := ""
		if len(u.Src) > 3 {
			cond = r.ref(u.Src[3])
		}
		if r.gated && g.Op == OpDefineGlobal {
			if cond != "" {
				cond = "lid == 0 && " + cond
			} else {
				cond = "lid == 0"
			}
		}
		if cond != "" {
			r.line("if (%s) %s", cond, st)
		} else {
			r.line("%s", st)
		}
	case OpAccum:
		dst := fmt.Sprintf("%s[%s]", r.ref(u.Src[0]), r.ref(u.Src[1]))
		if u.ReduceOp == OpMulAcc {
			r.line("%s = %s;", dst, r.alu(OpMulAcc, u.DType, u.DType, []string{r.ref(u.Src[2]), r.ref(u.Src[3]), dst}))
		} else {
			r.line("%s = %s;", dst, r.alu(u.ReduceOp, u.DType, u.DType, []string{dst, r.ref(u.Src[2])}))
		}
	default:
		src := make([]string, len(u.Src))
		for k, s := range u.Src {
			src[k] = r.ref(s)
		}
		from := operandType(r.u, u)
		if u.Op == OpExp2 && u.ReduceOp == OpLog2 {
			r.line("const %s %s = %s;", clValueType(u.DType), r.ref(i), exp2Scaled(r.u, u, src, "tiny_exp2l2f", func(v float64) string { return clConst(v, Float32) }))
			return
		}
		if u.Op == OpExp2 && len(src) > 1 && u.DType != Float64 {
			r.line("const %s %s = %s;", clValueType(u.DType), r.ref(i), exp2Scaled(r.u, u, src, "tiny_exp2fs", func(v float64) string { return clConst(v, Float32) }))
			return
		}
		if IsExp(r.u, u) {
			r.line("const %s %s = exp(%s);", clValueType(u.DType), r.ref(i), exp2Base(u, src))
			return
		}
		if u.Op == OpExp2 {
			src = exp2Args(u, src)
		}
		r.line("const %s %s = %s;", clValueType(u.DType), r.ref(i), r.alu(u.Op, u.DType, from, src))
	}
}

// load renders a LOAD's value; a gated load reads only where its gate holds.
func (r *clRenderer) load(u UOp) string {
	g := r.u[u.Src[0]]
	v := fmt.Sprintf("%s[%s]", r.ref(u.Src[0]), r.ref(u.Src[1]))
	if g.Op == OpDefineGlobal && g.DType == Float16 {
		v = fmt.Sprintf("vload_half(%s, %s)", r.ref(u.Src[1]), r.ref(u.Src[0]))
	}
	if len(u.Src) > 2 {
		return fmt.Sprintf("(%s ? %s : %s)", r.ref(u.Src[2]), v, clConst(u.Val, u.DType))
	}
	return v
}

// alu renders an ALU op producing d from operands of dtype from, with the
// CPU device's semantics: integers wrap, division by zero gives 0, max
// propagates NaN.
func (r *clRenderer) alu(op Op, d, from DType, s []string) string {
	t := clValueType(d)
	// Signed overflow is undefined in OpenCL C (and short/char arithmetic
	// is int's): compute in an unsigned type of the width or more, wrap
	// by the conversion back.
	wrap := map[DType]string{Int8: "uint", Int16: "uint", Uint16: "uint", Int32: "uint", Uint32: "uint",
		Int64: "ulong", Uint64: "ulong"}[d]
	switch op {
	case OpNeg:
		if wrap != "" {
			return fmt.Sprintf("(%s)(0 - (%s)%s)", t, wrap, s[0])
		}
		return negate(s[0])
	case OpNot:
		return "(uchar)(!" + s[0] + ")"
	case OpRecip:
		return "(" + clConst(1, d) + "/" + s[0] + ")"
	case OpSqrt, OpExp2, OpLog2, OpSin:
		name := map[Op]string{OpSqrt: "sqrt", OpExp2: "exp2", OpLog2: "log2", OpSin: "sin"}[op]
		return name + "(" + s[0] + ")"
	case OpCast:
		return r.cast(d, from, s[0])
	case OpAdd, OpSub, OpMul:
		sym := map[Op]string{OpAdd: "+", OpSub: "-", OpMul: "*"}[op]
		if wrap != "" {
			return fmt.Sprintf("(%s)((%s)%s %s (%s)%s)", t, wrap, s[0], sym, wrap, s[1])
		}
		if d == Bool || d == Uint8 {
			return fmt.Sprintf("(uchar)(%s %s %s)", s[0], sym, s[1])
		}
		return "(" + s[0] + sym + s[1] + ")"
	case OpDiv, OpAnd, OpOr, OpXor:
		sym := map[Op]string{OpDiv: "/", OpAnd: "&", OpOr: "|", OpXor: "^"}[op]
		return "(" + s[0] + sym + s[1] + ")"
	case OpCmpLt, OpCmpNe, OpCmpEq:
		sym := map[Op]string{OpCmpLt: "<", OpCmpNe: "!=", OpCmpEq: "=="}[op]
		return "(uchar)(" + s[0] + sym + s[1] + ")"
	case OpIDiv, OpMod:
		if op == OpMod && d.IsFloat() {
			return "fmod(" + s[0] + ", " + s[1] + ")" // exact in OpenCL (0 ulp)
		}
		return divModExpr(op, d, t, fmt.Sprintf("(%s)(0 - (ulong)%s)", t, s[0]), s)
	case OpMax:
		if d.IsFloat() {
			return clFloatMax(t, s[0], s[1])
		}
		return maxExpr(false, s)
	case OpWhere:
		return "(" + s[0] + " ? " + s[1] + " : " + s[2] + ")"
	case OpMulAcc:
		// A float rounded once, as on the other devices (fma is correctly
		// rounded; the source says FP_CONTRACT OFF, so nothing else is
		// fused).
		if d.IsFloat() {
			return "fma(" + s[0] + ", " + s[1] + ", " + s[2] + ")"
		}
		return r.alu(OpAdd, d, d, []string{r.alu(OpMul, d, d, s[:2]), s[2]})
	}
	panic(fmt.Sprintf("unsupported op %s", op))
}

// cast renders a conversion as the CPU device does it: floats go to
// integers as codegen.FloatToInt says, anything goes to bool as != 0, and
// to float16 by rounding through a half.
func (r *clRenderer) cast(d, from DType, x string) string {
	switch {
	case d == from:
		return x
	case d == Bool:
		return "(uchar)(" + x + " != 0)"
	case d == Float16 && from == Float64:
		return "tiny_rh(tiny_odd(" + x + "))"
	case d == Float16:
		return "tiny_rh((float)" + x + ")"
	case from.IsFloat() && (d.IsInt() || d == Index):
		// Explicitly in range: OpenCL, like C, leaves the rest undefined.
		f := "f" // the constants' suffix: float (halves compute as floats) or double
		if from == Float64 {
			f = ""
		}
		toLong := "(" + x + " >= -9223372036854775808.0" + f + " && " + x + " < 9223372036854775808.0" + f + " ? (long)" + x + " : LONG_MIN)"
		switch {
		case d == Uint64:
			return "(" + x + " >= 9223372036854775808.0" + f + " && " + x + " < 18446744073709551616.0" + f + " ? (ulong)" + x + " : (ulong)" + toLong + ")"
		case d == Uint32 || d == Int64 || d == Index:
			return "(" + clValueType(d) + ")" + toLong
		}
		return "(" + clValueType(d) + ")(" + x + " >= -2147483648.0" + f + " && " + x + " < 2147483648.0" + f + " ? (int)" + x + " : INT_MIN)"
	}
	return "(" + clValueType(d) + ")" + x
}
