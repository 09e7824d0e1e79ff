package codegen

import "math"

// This file holds the rewrites Lower runs on the linear uops the builder
// returns. Each replaces a few uops by one that says more, so that every
// renderer and device gets the decision from the Program instead of
// finding it again by matching patterns:
//
//   - MULACC (fuseMulAcc): an ADD of a MUL computed in the same loop and
//     used nowhere else becomes MULACC [a, b, c], and an add-ACCUM of such
//     a MUL an ACCUM with ReduceOp OpMulAcc [acc, idx, a, b]: matmul's and
//     convolution's inner loops, x*w+b. A float MULACC is fused, rounded
//     once (op.go), on every device: one instruction where the MUL and the
//     ADD took two, and one rounding error instead of two. This is the
//     decision to fuse: Options.Skip with OptMulAcc keeps the MUL and the
//     ADD, each rounded, as they were.
//   - EXP2 argument folding (foldExp2): exp2(x*s) and exp2((x+k)*s) or
//     exp2((x-k)*s), with s and k from outside the loop and the MUL and
//     ADD or SUB used only there, become one EXP2 of two or three operands
//     (exp(x) is exp2(x*log2(e)); softmax's exp2((x-max)*log2(e))). The
//     ADD or SUB is rounded as before, the product is not (Exp2Scale); a
//     device evaluates the argument as it goes, with no pass of its own
//     for the ADD and the MUL.
//   - pow (foldPow): a float32 EXP2 folded as exp2(x*s) whose x is a LOG2
//     computed in the same loop and used nowhere else becomes EXP2 [a, s]
//     with ReduceOp LOG2: 2**(s*log2 a) with the logarithm unrounded, as
//     Tensor.Pow's 2**(e*log2|x|) asks. Rounding the logarithm to float32
//     first errs by half its ulp times s in the exponent (56 ulp of x **
//     1.3 near the float range's ends); unrounded, a power is within about
//     an ulp, as torch's pow.
//
// The rewrites are recorded among the Program's Opts (opt.go) and can be
// turned off with Options.Skip.

// rewriter holds the linear uops while they are rewritten in place; dead
// uops are dropped and the rest renumbered by compact.
type rewriter struct {
	u     []UOp
	scope []int // the RANGE each uop is inside, -1 at the top level
	uses  []int
	dead  []bool
}

func newRewriter(u []UOp) *rewriter {
	r := &rewriter{u: u, scope: make([]int, len(u)), uses: make([]int, len(u)), dead: make([]bool, len(u))}
	stack := []int{-1}
	for i, x := range u {
		r.scope[i] = stack[len(stack)-1]
		for _, s := range x.Src {
			r.uses[s]++
		}
		switch x.Op {
		case OpRange:
			stack = append(stack, i)
		case OpEnd:
			stack = stack[:len(stack)-1]
		}
	}
	return r
}

// home returns the loop a value varies with: its own for a RANGE.
func (r *rewriter) home(i int) int {
	if r.u[i].Op == OpRange {
		return i
	}
	return r.scope[i]
}

// only reports whether uop m is one of ops of dtype d, computed in loop h
// and used once, so that its consumer can absorb it.
func (r *rewriter) only(m int, d DType, h int, ops ...Op) bool {
	u := r.u[m]
	if r.dead[m] || r.uses[m] != 1 || u.DType != d || r.scope[m] != h || len(u.Src) != 2 {
		return false
	}
	for _, o := range ops {
		if u.Op == o {
			return true
		}
	}
	return false
}

// fuseMulAcc makes MULACCs and multiply-add ACCUMs; it returns how many.
func (r *rewriter) fuseMulAcc() int {
	n := 0
	for i := range r.u {
		u := &r.u[i]
		if r.dead[i] || u.DType == Index || u.DType == Bool {
			continue
		}
		h := r.scope[i]
		switch {
		case u.Op == OpAdd:
			for _, k := range [2]int{1, 0} {
				if m := u.Src[k]; r.only(m, u.DType, h, OpMul) {
					mu := r.u[m]
					*u = UOp{Op: OpMulAcc, DType: u.DType, Src: []int{mu.Src[0], mu.Src[1], u.Src[1-k]}}
					r.dead[m] = true
					n++
					break
				}
			}
		case u.Op == OpAccum && u.ReduceOp == OpAdd && len(u.Src) == 3:
			if m := u.Src[2]; r.only(m, u.DType, h, OpMul) {
				mu := r.u[m]
				u.Src = []int{u.Src[0], u.Src[1], mu.Src[0], mu.Src[1]}
				u.ReduceOp = OpMulAcc
				r.dead[m] = true
				n++
			}
		}
	}
	return n
}

// foldExp2 folds the scaling of EXP2s' arguments into them; it returns how
// many.
func (r *rewriter) foldExp2() int {
	n := 0
	for i := range r.u {
		u := &r.u[i]
		h := r.scope[i]
		if r.dead[i] || u.Op != OpExp2 || !u.DType.IsFloat() || h < 0 || !r.only(u.Src[0], u.DType, h, OpMul) {
			continue
		}
		m := u.Src[0]
		x, s, ok := r.byInvariant(m, h, false)
		if !ok {
			continue
		}
		r.dead[m] = true
		n++
		if r.only(x, u.DType, h, OpAdd, OpSub) {
			if y, k, ok := r.byInvariant(x, h, r.u[x].Op == OpSub); ok {
				*u = UOp{Op: OpExp2, DType: u.DType, Src: []int{y, k, s}, ReduceOp: r.u[x].Op}
				r.dead[x] = true
				continue
			}
		}
		*u = UOp{Op: OpExp2, DType: u.DType, Src: []int{x, s}}
	}
	return n
}

// foldPow folds LOG2s into the float32 EXP2s foldExp2 made of their
// scaled values; it returns how many.
func (r *rewriter) foldPow() int {
	n := 0
	for i := range r.u {
		u := &r.u[i]
		if r.dead[i] || u.Op != OpExp2 || u.DType != Float32 || len(u.Src) != 2 || u.ReduceOp != 0 {
			continue
		}
		l := u.Src[0]
		if x := r.u[l]; r.dead[l] || x.Op != OpLog2 || x.DType != Float32 || len(x.Src) != 1 || r.uses[l] != 1 || r.scope[l] != r.scope[i] {
			continue
		}
		*u = UOp{Op: OpExp2, DType: u.DType, Src: []int{r.u[l].Src[0], u.Src[1]}, ReduceOp: OpLog2}
		r.dead[l] = true
		n++
	}
	return n
}

// byInvariant splits the operands of binary uop m of loop h into one
// computed in the loop and one from outside it (the second, when ordered).
func (r *rewriter) byInvariant(m, h int, ordered bool) (x, k int, ok bool) {
	a, b := r.u[m].Src[0], r.u[m].Src[1]
	switch {
	case r.home(a) == h && r.home(b) != h:
		return a, b, true
	case r.home(b) == h && r.home(a) != h && !ordered:
		return b, a, true
	}
	return 0, 0, false
}

// compact returns the live uops, their operands renumbered.
func (r *rewriter) compact() []UOp {
	pos := make([]int, len(r.u))
	out := make([]UOp, 0, len(r.u))
	for i, u := range r.u {
		if r.dead[i] {
			pos[i] = -1
			continue
		}
		pos[i] = len(out)
		src := make([]int, len(u.Src))
		for k, s := range u.Src {
			if pos[s] < 0 {
				panic("internal error: a rewrite dropped a uop still in use")
			}
			src[k] = pos[s]
		}
		u.Src = src
		out = append(out, u)
	}
	return out
}

// exp2Args returns the C or OpenCL C argument of EXP2 u from its operands'
// expressions: x, (x*s), or ((x+k)*s) and ((x-k)*s).
func exp2Args(u UOp, s []string) []string {
	switch len(s) {
	case 2:
		return []string{"(" + s[0] + "*" + s[1] + ")"}
	case 3:
		return []string{"(" + exp2Base(u, s) + "*" + s[2] + ")"}
	}
	return s
}

// exp2Base returns the expression EXP2 u scales: x, or (x+k) or (x-k) (for
// a folded pow, x is the logarithm's operand: the helper takes its log2).
func exp2Base(u UOp, s []string) string {
	if len(s) < 3 {
		return s[0]
	}
	op := "+"
	if u.ReduceOp == OpSub {
		op = "-"
	}
	return "(" + s[0] + op + s[1] + ")"
}

// Exp2Scale returns the scale of folded float32 or float16 EXP2 u of us in
// two float32 parts, hi + lo, and whether it is a constant (else, and in a
// float64 kernel, whose operand is exact enough, hi and lo are 0 and the
// scale is the operand's value). A folded EXP2 is 2**(x*s) with the
// product unrounded: every device computes it so. A constant is a float32
// (the tensor layer rounds constants to their dtype), except that
// float32(log2 e) is taken as log2 e itself, lo holding what float32 drops
// (and a float16 kernel's float16(log2 e), which errs by 3e-4, likewise):
// that scale is how Exp, sigmoid and softmax ask for e**x, and with the
// float32 constant e**x errs by up to 12 ulp near x = 88 even with the
// product unrounded.
func Exp2Scale(us []UOp, u UOp) (hi, lo float32, ok bool) {
	c := us[u.Src[len(u.Src)-1]]
	if c.Op != OpConst || u.DType == Float64 {
		return 0, 0, false
	}
	hi = float32(c.Val)
	if hi == float32(math.Log2E) || c.DType == Float16 && hi == HalfToFloat(Float64ToHalf(math.Log2E)) {
		hi = float32(math.Log2E)
		lo = float32(math.Log2E - float64(hi))
	}
	return hi, lo, true
}

// IsExp reports whether EXP2 u of us is a float64 e**x folded: its scale
// the constant log2(e) (exp, and sigmoid's and softplus's exponentials).
// Every device computes it as exp of the base (x, or x ± k), rounded once:
// 2**(x*log2 e) rounds the product first, an error of |x|·2**-53 in the
// result (700 ulps at x = 700; tinygrad's float64 exp has it).
func IsExp(us []UOp, u UOp) bool {
	if u.Op != OpExp2 || u.DType != Float64 || len(u.Src) < 2 || u.ReduceOp == OpLog2 {
		return false
	}
	c := us[u.Src[len(u.Src)-1]]
	return c.Op == OpConst && c.Val == math.Log2E
}

// exp2Scaled returns the C or OpenCL C call of fn (tiny_exp2fs, or a folded
// pow's tiny_exp2l2f) for folded float EXP2 u whose operands render as s:
// base, hi, lo.
func exp2Scaled(us []UOp, u UOp, s []string, fn string, konst func(float64) string) string {
	hi, lo := s[len(s)-1], konst(0)
	if h, l, ok := Exp2Scale(us, u); ok {
		hi, lo = konst(float64(h)), konst(float64(l))
	}
	return fn + "(" + exp2Base(u, s) + ", " + hi + ", " + lo + ")"
}
