package codegen

import (
	"fmt"
	"strings"
)

// RangeKind says what a loop of a Program walks.
type RangeKind uint8

// The loop kinds.
const (
	RangeGlobal RangeKind = iota // output axes outside the reduce loops
	RangeReduce                  // axes folded into accumulators
	RangeInner                   // a loop indexing accumulator arrays: an output axis inside the reduce loops, or a reduce's lanes
)

var rangeNames = [...]string{"global", "reduce", "inner"}

// String returns the kind's lowercase name.
func (k RangeKind) String() string { return rangeNames[k] }

// UOp is one instruction of a lowered kernel. A Program is a linear list of
// them in which every UOp refers to its operands by their position in the
// list, always earlier than itself. Loops are RANGE ... ENDRANGE pairs; a
// value defined inside a loop is recomputed on every iteration, and codegen
// hoists every value to the outermost loop it depends on.
//
// Values have the DType of their UOp. Index arithmetic (loop variables,
// buffer indices) has DType Index; validity tests are Bool.
type UOp struct {
	Op    Op
	DType DType
	Src   []int

	Val      float64   // CONST: the value; DEFINE_ACC: the initial value; LOAD: the value read where the gate is false; RANGE: 0, or for a loop whose bounds are computed (OptClip), the extent [0, Val) they lie within
	Buf      int       // DEFINE_GLOBAL: the kernel buffer index
	Size     int       // DEFINE_ACC: the number of accumulators
	Name     string    // RANGE: the loop variable; DEFINE_VAR: the variable
	Kind     RangeKind // RANGE: what the loop walks
	ReduceOp Op        // DEFINE_ACC: OpAdd, OpMax or OpMul; ACCUM: the same or OpMulAcc; EXP2 of three operands: OpAdd or OpSub
}

// The operands of the memory uops:
//
//	LOAD   [buffer, idx] or [buffer, idx, gate]: buffer is a DEFINE_GLOBAL or a DEFINE_ACC
//	STORE  [buffer, idx, value] or [buffer, idx, value, gate]
//	ACCUM  [acc, idx, value], or [acc, idx, a, b] with ReduceOp OpMulAcc: acc[idx] = a*b + acc[idx]
//	MULACC [a, b, c]: a*b + c, a float rounded once (fused: C's fma, fmaf, FMA32)
//	EXP2   [x], or [x, s]: exp2(x*s), or [x, k, s]: exp2((x ReduceOp k) * s), each step rounded
//	RANGE  [start, end]
//	ENDRANGE [range]

// Program is a kernel lowered to uops, ready for a device to compile.
//
// The first RANGE at the top level is the global loop: devices split its
// iterations [0, Global) across workers. When SplitReduce is set, the global
// loop is a reduce loop: each worker folds its share into private copies of
// the top-level accumulators, the copies are combined with their reduce op,
// and the uops after the global loop's ENDRANGE run once.
type Program struct {
	Name        string
	UOps        []UOp
	Bufs        []BufSpec
	Global      int   // iterations of the global loop; 0 when the program has no loop
	SplitReduce bool  // the global loop is a reduce loop with private partial accumulators
	Serial      bool  // the program runs in one piece on one worker, its loops in order (a scatter: Node)
	Work        int64 // loop iterations per run (the product of all loop sizes), to decide how many workers pay off
	Flops       int64 // estimated ALU operations per run
	Bytes       int64 // estimated bytes moved per run (each buffer once)

	// Opts are the optimizations Lower applied (opt.go), in order:
	// Options.Replay with them lowers the kernel to this Program again.
	Opts Opts
	// Vector is the Target's Vector: the width of the C renderer's vectors.
	Vector int
	// Span says that each iteration g of the global loop writes output
	// elements only in [g*Span, (g+1)*Span); 0 when the lowering could
	// not tell. Two kernels whose spans nest can run chunk by chunk, one
	// after the other on the same rows (devices.Pairer).
	Span int
}

// String prints the applied optimizations, the target's vector width
// (when the target sets one) and whether the program is serial, then the
// uop list, one uop per line, the way
// DEBUG=3 shows it: index, op, dtype, operands and argument.
func (p *Program) String() string {
	var b strings.Builder
	if len(p.Opts) > 0 {
		fmt.Fprintf(&b, "opts %s\n", p.Opts)
	}
	if p.Vector != 0 {
		fmt.Fprintf(&b, "vector %d floats\n", p.Vector)
	}
	if p.Serial {
		b.WriteString("serial: one worker, the loops in order\n")
	}
	depth := 0
	for i, u := range p.UOps {
		if u.Op == OpEnd {
			depth--
		}
		src := make([]string, len(u.Src))
		for j, s := range u.Src {
			src[j] = fmt.Sprint(s)
		}
		line := fmt.Sprintf("%4d %s%-13s: %-7s [%s] %s", i, strings.Repeat("  ", depth), u.Op, u.DType,
			strings.Join(src, ", "), u.arg())
		b.WriteString(strings.TrimRight(line, " ") + "\n")
		if u.Op == OpRange {
			depth++
		}
	}
	return b.String()
}

// arg returns the uop's argument as text.
func (u UOp) arg() string {
	switch u.Op {
	case OpConst:
		return FormatConst(u.Val, u.DType)
	case OpDefineGlobal:
		return fmt.Sprintf("data%d", u.Buf)
	case OpDefineVar:
		return u.Name
	case OpDefineAcc:
		return fmt.Sprintf("%s x%d", FormatConst(u.Val, u.DType), u.Size)
	case OpRange:
		return fmt.Sprintf("%s %s", u.Name, u.Kind)
	case OpAccum:
		return u.ReduceOp.String()
	case OpExp2:
		if len(u.Src) == 3 {
			return u.ReduceOp.String()
		}
	case OpLoad:
		if len(u.Src) > 2 {
			return "alt " + FormatConst(u.Val, u.DType)
		}
	}
	return ""
}
