package codegen

import (
	"fmt"
	"strconv"
	"strings"
)

// This file holds what the C renderer (RenderC) and the OpenCL C renderer
// (RenderCL) write alike: float literals, the integer division and modulo
// that give 0 for a zero divisor, a max that propagates NaN, and the dtype
// an op's operands have.

// floatLit renders a finite float v as a C literal of float dtype d: the
// shortest digits that read back as d's value, with f for float32 (and
// float16, computed in float) and parentheses around a negative one.
func floatLit(v float64, d DType) string {
	bits, suffix := 32, "f"
	if d == Float64 {
		bits, suffix = 64, ""
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

// divModExpr renders s[0]/s[1] (OpIDiv) or s[0]%s[1] (OpMod) of integer
// dtype d, whose C type is t, as the CPU device computes them: a zero
// divisor gives 0, x / -1 is neg (x negated in an unsigned type: C's
// division overflows for the most negative x) and x % -1 is 0. An index
// divided by a positive constant needs no guard.
func divModExpr(op Op, d DType, t, neg string, s []string) string {
	sym := map[Op]string{OpIDiv: "/", OpMod: "%"}[op]
	if d == Index && isPositiveConst(s[1]) {
		return "(" + s[0] + sym + s[1] + ")"
	}
	if d.IsUnsigned() {
		// No -1 to guard (and the type's max would compare equal to it).
		return fmt.Sprintf("(%s == 0 ? (%s)0 : (%s)(%s %s %s))", s[1], t, t, s[0], sym, s[1])
	}
	if op == OpIDiv {
		return fmt.Sprintf("(%s == 0 ? (%s)0 : %s == -1 ? %s : (%s)(%s / %s))", s[1], t, s[1], neg, t, s[0], s[1])
	}
	return fmt.Sprintf("(%s == 0 || %s == -1 ? (%s)0 : (%s)(%s %% %s))", s[1], s[1], t, t, s[0], s[1])
}

// isPositiveConst reports whether s is a positive integer literal (an
// L or LL suffix allowed).
func isPositiveConst(s string) bool {
	s = strings.TrimSuffix(strings.TrimSuffix(s, "L"), "L")
	v, err := strconv.ParseInt(s, 10, 64)
	return err == nil && v > 0
}

// maxExpr renders MAX(s[0], s[1]): s[1] when it is larger or NaN, else
// s[0]. So a NaN on either side gives NaN, and on a tie the first operand
// wins (max(-0.0, 0.0) is -0.0 and max(0.0, -0.0) is 0.0, as torch's
// maximum).
func maxExpr(float bool, s []string) string {
	if float {
		return fmt.Sprintf("((%s < %s || %s != %s) ? %s : %s)", s[0], s[1], s[1], s[1], s[1], s[0])
	}
	return fmt.Sprintf("(%s < %s ? %s : %s)", s[0], s[1], s[1], s[0])
}

// operandType returns the dtype of u's operands that decides how its op is
// rendered: the first operand's for a binary op, else the last's (a cast's
// source, a where's values).
func operandType(uops []UOp, u UOp) DType {
	if len(u.Src) == 0 {
		return 0
	}
	if u.Op.IsBinary() {
		return uops[u.Src[0]].DType
	}
	return uops[u.Src[len(u.Src)-1]].DType
}

// cListing is what both renderers learn from a program's uops in one pass,
// and the indented source they write.
type cListing struct {
	p         *Program
	u         []UOp
	name      string
	scope     []int        // the RANGE each uop is inside, -1 at the top level
	end       map[int]int  // RANGE -> its ENDRANGE
	innermost map[int]bool // RANGEs with no loop inside
	global    int          // the first top-level RANGE, -1 if none
	stored    map[int]bool // buffers some STORE writes
	loaded    map[int]bool // buffers some LOAD reads
	vars      []string     // the symbolic variables, in parameter order
	varIdx    map[string]int
	lit       func(v float64, d DType) string // a constant as the language writes it
	b         strings.Builder
	depth     int
	// While copies of a loop body are emitted side by side: the values of
	// uops copyLo..copyHi-1 (the loop's RANGE and its body) are named with
	// copySuffix, one name per copy.
	copyLo, copyHi int
	copySuffix     string
}

func newCListing(p *Program, lit func(float64, DType) string) cListing {
	l := cListing{p: p, u: p.UOps, name: cIdent(p.Name), global: -1, end: map[int]int{}, innermost: map[int]bool{},
		stored: map[int]bool{}, loaded: map[int]bool{}, varIdx: map[string]int{}, lit: lit}
	l.scope = make([]int, len(l.u))
	stack := []int{-1}
	for i, u := range l.u {
		l.scope[i] = stack[len(stack)-1]
		switch u.Op {
		case OpRange:
			if len(stack) == 1 && l.global < 0 {
				l.global = i
			}
			l.innermost[i] = true
			if top := stack[len(stack)-1]; top >= 0 {
				l.innermost[top] = false
			}
			stack = append(stack, i)
		case OpEnd:
			l.end[u.Src[0]] = i
			stack = stack[:len(stack)-1]
		case OpStore, OpLoad:
			if g := l.u[u.Src[0]]; g.Op == OpDefineGlobal {
				if u.Op == OpStore {
					l.stored[g.Buf] = true
				} else {
					l.loaded[g.Buf] = true
				}
			}
		case OpDefineVar:
			if _, ok := l.varIdx[u.Name]; !ok {
				l.varIdx[u.Name] = len(l.vars)
				l.vars = append(l.vars, u.Name)
			}
		}
	}
	return l
}

// line writes one line of source at the current depth.
func (l *cListing) line(format string, args ...any) {
	l.b.WriteString(strings.Repeat("  ", l.depth))
	fmt.Fprintf(&l.b, format, args...)
	l.b.WriteByte('\n')
}

// ref returns the expression naming the value of uop i.
func (l *cListing) ref(i int) string {
	u := l.u[i]
	switch u.Op {
	case OpConst:
		return l.lit(u.Val, u.DType)
	case OpDefineGlobal:
		return fmt.Sprintf("data%d", u.Buf)
	case OpDefineVar:
		return fmt.Sprintf("var%d", l.varIdx[u.Name])
	case OpRange:
		return u.Name + l.copyOf(i)
	case OpDefineAcc:
		return fmt.Sprintf("acc%d", i)
	}
	return fmt.Sprintf("v%d", i) + l.copyOf(i)
}

// copyOf returns the suffix of uop i's name in the copy being emitted.
func (l *cListing) copyOf(i int) string {
	if i >= l.copyLo && i < l.copyHi {
		return l.copySuffix
	}
	return ""
}

// negate renders -x; an operand that is itself a negative literal gets
// parentheses, since "--0.0f" is C's decrement, not a double negation.
func negate(x string) string {
	if strings.HasPrefix(x, "-") {
		return "(-(" + x + "))"
	}
	return "(-" + x + ")"
}

// unsignedLit renders v wrapped to unsigned d, with U on a uint32 and
// suffix64 on a uint64 (C's unsigned long long is ULL, OpenCL's ulong UL).
func unsignedLit(v float64, d DType, suffix64 string) string {
	u := strconv.FormatUint(wrapUnsigned(v, d), 10)
	switch d {
	case Uint32:
		return u + "U"
	case Uint64:
		return u + suffix64
	}
	return u
}

// globalFolds returns the top-level accumulators that the global loop
// folds into: those whose partials the workers of a split reduce combine.
// An accumulator folded after the global loop (a reduce that reads the
// one before it) is folded once, after the partials are combined.
func (l *cListing) globalFolds() map[int]bool {
	m := map[int]bool{}
	if l.global < 0 {
		return m
	}
	for j := l.global + 1; j < l.end[l.global]; j++ {
		if u := l.u[j]; u.Op == OpAccum && l.scope[u.Src[0]] == -1 {
			m[u.Src[0]] = true
		}
	}
	return m
}
