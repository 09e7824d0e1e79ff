package codegen

import "fmt"

// This file holds the vector form RenderC gives the inner loops of register
// tiles and lanes: each 8 columns of the loop become one GCC vector value,
// and the accumulators the loop folds into live in vector variables for the
// whole reduce nest instead of in arrays. gcc keeps arrays in memory, so a
// register tile's every multiply-add loaded and stored its accumulator; in
// variables they stay in registers (a 6 x 16 tile: 12 registers), which
// triples the tile's speed. The sums are the same: each accumulator still
// folds its values one at a time, in order.

// vecShape returns the float32 values in one vector of a Program shaped
// for Target.Vector v (8 unless 16) and how many vector accumulators one
// reduce nest may keep in registers: all but three of the 16 registers of
// AVX2 or the 32 of AVX-512 (a step's panel vectors and a broadcast factor
// take the rest).
func vecShape(v int) (width, accs int) {
	if v == 16 {
		return 16, 29
	}
	return 8, 13
}

// vecPlan says which loops and accumulators RenderC renders as vectors.
type vecPlan struct {
	loops map[int]bool  // inner RANGEs emitted as vector copies
	accs  map[int]int   // DEFINE_ACC -> its number of vectors
	flush map[int][]int // RANGE -> the accumulators written back to their arrays after it
	class map[int]uint8 // uop inside a vector loop -> vecIndex or vecValue
}

const (
	vecIndex uint8 = iota + 1 // an index that depends on the loop: computed in each copy
	vecValue                  // a float32 vector value
)

// planVec finds the inner loops that can be vector loops: the loops of the
// register tile's columns or of the lanes the Program's Opts record (INNER
// or LANES: constant bounds 0..C with C their Arg, a multiple of the vector width),
// whose bodies are float32 loads contiguous in the loop variable (or not
// depending on it), additions, subtractions, negations, multiplications
// and multiply-adds of them, and sums into accumulators of C elements
// indexed by the loop variable; each accumulator folded only by such
// loops, within one reduce nest that does not read it.
func (r *cRenderer) planVec() vecPlan {
	vp := vecPlan{loops: map[int]bool{}, accs: map[int]int{}, flush: map[int][]int{}, class: map[int]uint8{}}
	r.vecCols = map[int]bool{}
	for _, o := range r.p.Opts {
		if o.Op == OptInner || o.Op == OptLanes {
			r.vecCols[o.Arg] = true
		}
	}
	if len(r.vecCols) == 0 {
		return vp
	}
	accLoops := map[int][]int{} // acc -> loops folding into it
	loopAccs := map[int][]int{}
	bad := map[int]bool{} // accs that cannot be vectors
	for i, u := range r.u {
		switch {
		case u.Op == OpAccum:
			if !r.vecCandidate(r.scope[i]) {
				bad[u.Src[0]] = true
			}
		case u.Op == OpRange && r.vecCandidate(i):
			if cls, accs, ok := r.vecBody(i); ok {
				vp.loops[i] = true
				for j, c := range cls {
					vp.class[j] = c
				}
				loopAccs[i] = accs
				for _, a := range accs {
					accLoops[a] = append(accLoops[a], i)
				}
			}
		}
	}
	// The reduce nest of each accumulator: the outermost loop inside its
	// scope that holds its folds.
	nest := map[int]int{}
	for a, ls := range accLoops {
		if r.split && r.scope[a] == -1 {
			bad[a] = true
			continue
		}
		l0 := -1
		for _, l := range ls {
			x := l
			for x >= 0 && r.scope[x] != r.scope[a] {
				x = r.scope[x]
			}
			if x < 0 || (l0 >= 0 && x != l0) || x < a {
				bad[a] = true
			}
			l0 = x
		}
		if bad[a] {
			continue
		}
		nest[a] = l0
		for j := l0 + 1; j < r.end[l0]; j++ {
			if u := r.u[j]; u.Op == OpLoad && u.Src[0] == a {
				bad[a] = true
			}
		}
	}
	// A loop whose accumulators cannot all be vectors stays a loop, and so
	// do the others folding into those accumulators; a nest with more
	// vector accumulators than registers stays as it was.
	perNest := map[int]int{}
	for a, l := range nest {
		if !bad[a] {
			perNest[l] += r.u[a].Size / r.vw
		}
	}
	for a, l := range nest {
		if perNest[l] > r.vecAccs {
			bad[a] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for l := range vp.loops {
			drop := false
			for _, a := range loopAccs[l] {
				drop = drop || bad[a]
			}
			if drop {
				delete(vp.loops, l)
				for _, a := range loopAccs[l] {
					if !bad[a] {
						bad[a], changed = true, true
					}
				}
			}
		}
	}
	for a, l := range nest {
		if !bad[a] {
			vp.accs[a] = r.u[a].Size / r.vw
			vp.flush[l] = append(vp.flush[l], a)
		}
	}
	for l := range vp.flush {
		sortInts(vp.flush[l])
	}
	// The loops after the nests that store the vector accumulators (a
	// register tile's rows, each stored from its vectors directly): as
	// loops over the arrays, gcc wrote the vectors to the stack, read them
	// back and stored each row with masked stores, 3% of a batched 256 x
	// 256 matmul.
	for i, u := range r.u {
		if u.Op == OpRange && !vp.loops[i] && r.vecCandidate(i) {
			if cls, ok := r.vecStoreBody(i, vp.accs); ok {
				vp.loops[i] = true
				for j, c := range cls {
					vp.class[j] = c
				}
			}
		}
	}
	return vp
}

// vecStoreBody classifies the uops of loop i's body when it can be a
// vector loop that stores: float32 loads of vector accumulators at the
// loop variable, or contiguous in it, from buffers the loop does not
// store, and the arithmetic vecBody allows of them, stored contiguously
// into float32 buffers under gates that do not depend on the loop.
func (r *cRenderer) vecStoreBody(i int, accs map[int]int) (map[int]uint8, bool) {
	n := int(r.u[r.u[i].Src[1]].Val)
	cls := map[int]uint8{}
	coef := map[int]int64{i: 1}
	stores, loads := map[int]bool{}, map[int]bool{}
	dep := func(j int) bool { return j == i || cls[j] != 0 }
	for j := i + 1; j < r.end[i]; j++ {
		u := r.u[j]
		anyDep := false
		for _, s := range u.Src {
			anyDep = anyDep || dep(s)
		}
		switch u.Op {
		case OpEnd:
		case OpLoad:
			g := r.u[u.Src[0]]
			switch {
			case g.Op == OpDefineAcc:
				if u.Src[1] != i || accs[u.Src[0]]*r.vw != n || len(u.Src) > 2 || u.DType != Float32 {
					return nil, false
				}
			case g.Op == OpDefineGlobal:
				loads[g.Buf] = true
				if !anyDep {
					continue
				}
				if len(u.Src) > 2 || u.DType != Float32 || g.DType != Float32 || cls[u.Src[1]] == vecValue || r.coef(u.Src[1], i, coef) != 1 {
					return nil, false
				}
			default:
				return nil, false
			}
			cls[j] = vecValue
		case OpStore:
			g := r.u[u.Src[0]]
			if g.Op != OpDefineGlobal || g.DType != Float32 || cls[u.Src[2]] != vecValue || cls[u.Src[1]] == vecValue || r.coef(u.Src[1], i, coef) != 1 {
				return nil, false
			}
			if len(u.Src) > 3 && dep(u.Src[3]) {
				return nil, false
			}
			stores[g.Buf] = true
		case OpAccum, OpRange:
			return nil, false
		default:
			if !anyDep {
				continue
			}
			if u.DType == Index {
				if r.coef(j, i, coef) == noCoef {
					return nil, false
				}
				cls[j] = vecIndex
				continue
			}
			switch u.Op {
			case OpAdd, OpSub, OpMul, OpNeg, OpMulAcc:
			default:
				return nil, false
			}
			if u.DType != Float32 {
				return nil, false
			}
			for _, s := range u.Src {
				if cls[s] == vecIndex || s == i {
					return nil, false
				}
			}
			cls[j] = vecValue
		}
	}
	for b := range stores {
		if loads[b] {
			return nil, false
		}
	}
	return cls, len(stores) > 0
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// vecCandidate reports whether uop i is an innermost inner RANGE over
// [0, C) with C the columns or lanes of an INNER or LANES the Opts record,
// a multiple of the vector width, at most eight vectors.
func (r *cRenderer) vecCandidate(i int) bool {
	if i < 0 || r.u[i].Op != OpRange || !r.innermost[i] || r.u[i].Kind != RangeInner || i == r.global {
		return false
	}
	lo, hi := r.u[r.u[i].Src[0]], r.u[r.u[i].Src[1]]
	return lo.Op == OpConst && lo.Val == 0 && hi.Op == OpConst && r.vecCols[int(hi.Val)] &&
		int(hi.Val)%r.vw == 0 && int(hi.Val) >= r.vw && int(hi.Val) <= 8*r.vw
}

// vecBody classifies the uops of loop i's body and returns the
// accumulators it folds into, or false when the body cannot be vectors.
func (r *cRenderer) vecBody(i int) (map[int]uint8, []int, bool) {
	n := int(r.u[r.u[i].Src[1]].Val)
	cls := map[int]uint8{}
	coef := map[int]int64{i: 1}
	var accs []int
	dep := func(j int) bool { return j == i || cls[j] != 0 }
	for j := i + 1; j < r.end[i]; j++ {
		u := r.u[j]
		anyDep := false
		for _, s := range u.Src {
			anyDep = anyDep || dep(s)
		}
		switch u.Op {
		case OpEnd:
		case OpLoad:
			g := r.u[u.Src[0]]
			if g.Op != OpDefineGlobal {
				return nil, nil, false
			}
			if !anyDep {
				continue
			}
			if len(u.Src) > 2 || u.DType != Float32 || g.DType != Float32 || cls[u.Src[1]] == vecValue || r.coef(u.Src[1], i, coef) != 1 {
				return nil, nil, false
			}
			cls[j] = vecValue
		case OpAccum:
			a := r.u[u.Src[0]]
			if u.Src[1] != i || a.Op != OpDefineAcc || a.Size != n || (u.ReduceOp != OpAdd && u.ReduceOp != OpMulAcc) || u.DType != Float32 || a.Val != 0 {
				return nil, nil, false
			}
			for _, s := range u.Src[2:] {
				if cls[s] == vecIndex {
					return nil, nil, false
				}
			}
			accs = append(accs, u.Src[0])
		case OpStore:
			return nil, nil, false
		default:
			if !anyDep {
				continue
			}
			if u.DType == Index {
				if r.coef(j, i, coef) == noCoef {
					return nil, nil, false
				}
				cls[j] = vecIndex
				continue
			}
			switch u.Op {
			case OpAdd, OpSub, OpMul, OpNeg, OpMulAcc:
			default:
				return nil, nil, false
			}
			if u.DType != Float32 {
				return nil, nil, false
			}
			for _, s := range u.Src {
				if cls[s] == vecIndex || s == i {
					return nil, nil, false
				}
			}
			cls[j] = vecValue
		}
	}
	return cls, accs, len(accs) > 0
}

const noCoef = int64(-1 << 62)

// coef returns the multiple of loop variable i's value in index uop j, or
// noCoef when j is not linear in it.
func (l *cListing) coef(j, i int, memo map[int]int64) int64 {
	if c, ok := memo[j]; ok {
		return c
	}
	u := l.u[j]
	if j < i || j > l.end[i] {
		return 0
	}
	c := noCoef
	switch u.Op {
	case OpAdd, OpSub:
		a, b := l.coef(u.Src[0], i, memo), l.coef(u.Src[1], i, memo)
		if a != noCoef && b != noCoef {
			if u.Op == OpAdd {
				c = a + b
			} else {
				c = a - b
			}
		}
	case OpMul:
		a, b := l.coef(u.Src[0], i, memo), l.coef(u.Src[1], i, memo)
		switch {
		case a == 0 && b == 0:
			c = 0
		case b != noCoef && l.u[u.Src[0]].Op == OpConst:
			c = b * int64(l.u[u.Src[0]].Val)
		case a != noCoef && l.u[u.Src[1]].Op == OpConst:
			c = a * int64(l.u[u.Src[1]].Val)
		}
	default:
		dep := false
		for _, s := range u.Src {
			dep = dep || s == i || (s > i && s < l.end[i] && l.coef(s, i, memo) != 0)
		}
		if !dep {
			c = 0
		}
	}
	memo[j] = c
	return c
}

// vecLoop emits loop i as one copy of its body per vector of r.vw
// columns, side by side in one block, each copy's values named with its
// own suffix and its loop variable fixed at the copy's first column: first
// every copy's loads and arithmetic, then the multiply-adds accumulator by
// accumulator (a register tile's row by row), each over the copies. Row by
// row, a row's broadcast factor is needed only while its row is folded:
// with the copies one after the other, the compiler kept every row's
// broadcast live at once and spilled the tile's accumulators.
func (r *cRenderer) vecLoop(i int) {
	r.used[fmt.Sprintf("vec%d", r.vw)] = true
	n := int(r.u[r.u[i].Src[1]].Val)
	r.line("{")
	r.depth++
	r.copyLo, r.copyHi = i, r.end[i]
	for v := 0; v < n/r.vw; v++ {
		r.copySuffix = fmt.Sprintf("_%d", v)
		r.line("const long %s = %dLL;", r.ref(i), v*r.vw)
		for j := i + 1; j < r.end[i]; j++ {
			if r.u[j].Op != OpAccum {
				r.vecUop(j, v)
			}
		}
	}
	for j := i + 1; j < r.end[i]; j++ {
		if r.u[j].Op == OpAccum {
			for v := 0; v < n/r.vw; v++ {
				r.copySuffix = fmt.Sprintf("_%d", v)
				r.vecUop(j, v)
			}
		}
	}
	r.copyLo, r.copyHi, r.copySuffix = 0, 0, ""
	r.depth--
	r.line("}")
}

// vecUop emits uop j of a vector loop's copy v.
func (r *cRenderer) vecUop(j, v int) {
	u := r.u[j]
	switch {
	case u.Op == OpAccum && u.ReduceOp == OpMulAcc:
		acc := fmt.Sprintf("%s_%d", r.ref(u.Src[0]), v)
		r.line("%s = tiny_fma%d(%s, %s, %s);", acc, r.vw, r.vecOperand(u.Src[2]), r.vecOperand(u.Src[3]), acc)
	case u.Op == OpAccum:
		acc := fmt.Sprintf("%s_%d", r.ref(u.Src[0]), v)
		r.line("%s = %s;", acc, r.accum(u, acc))
	case r.vec.class[j] == vecValue && u.Op == OpLoad && r.u[u.Src[0]].Op == OpDefineAcc:
		r.line("const %s %s = %s_%d;", r.vt, r.ref(j), r.ref(u.Src[0]), v)
	case u.Op == OpStore:
		val := r.ref(u.Src[2])
		st := fmt.Sprintf("__builtin_memcpy(&%s[%s], &%s, sizeof %s);", r.ref(u.Src[0]), r.ref(u.Src[1]), val, val)
		if len(u.Src) > 3 {
			r.line("if (%s) %s", r.ref(u.Src[3]), st)
		} else {
			r.line("%s", st)
		}
	case r.vec.class[j] == vecValue && u.Op == OpLoad && r.pack.byLoad[j] != nil:
		pk := r.pack.byLoad[j]
		r.line("%s %s; __builtin_memcpy(&%s, &%s[%s], sizeof %s);", r.vt, r.ref(j), r.ref(j), packName(pk), r.packIndex(pk), r.ref(j))
	case r.vec.class[j] == vecValue && u.Op == OpLoad:
		r.line("%s %s; __builtin_memcpy(&%s, &%s[%s], sizeof %s);", r.vt, r.ref(j), r.ref(j), r.ref(u.Src[0]), r.ref(u.Src[1]), r.ref(j))
	case r.vec.class[j] == vecValue && u.Op == OpMulAcc:
		r.line("const %s %s = tiny_fma%d(%s, %s, %s);", r.vt, r.ref(j), r.vw, r.vecOperand(u.Src[0]), r.vecOperand(u.Src[1]), r.vecOperand(u.Src[2]))
	case r.vec.class[j] == vecValue:
		src := make([]string, len(u.Src))
		for k, s := range u.Src {
			src[k] = r.ref(s)
		}
		r.line("const %s %s = %s;", r.vt, r.ref(j), r.alu(u.Op, u.DType, u.DType, src))
	default:
		r.uop(j)
	}
}

// vecOperand renders operand j of a vector uop as a vector: a value of
// the vector loop as it is, one from outside it broadcast to every lane.
func (r *cRenderer) vecOperand(j int) string {
	if r.vec.class[j] == vecValue {
		return r.ref(j)
	}
	return fmt.Sprintf("tiny_bc%d(%s)", r.vw, r.ref(j))
}

// vecAcc declares the vector variables of accumulator i, zero.
func (r *cRenderer) vecAcc(i int) {
	for v := 0; v < r.vec.accs[i]; v++ {
		r.line("%s %s_%d = {0};", r.vt, r.ref(i), v)
	}
}

// vecFlush writes the vector accumulators folded inside loop l back to
// their arrays, which the code after the reduce nest reads.
func (r *cRenderer) vecFlush(l int) {
	for _, a := range r.vec.flush[l] {
		for v := 0; v < r.vec.accs[a]; v++ {
			r.line("__builtin_memcpy(&%s[%d], &%s_%d, sizeof %s_%d);", r.ref(a), v*r.vw, r.ref(a), v, r.ref(a), v)
		}
	}
}
