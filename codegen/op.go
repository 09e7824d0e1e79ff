package codegen

// Op is an operation in a kernel AST and, after lowering, in the uop list.
// Elementwise ops follow tinygrad's minimal set: everything else the
// language offers (sigmoid, softmax, matmul, ...) is built from these by the
// tensor package.
type Op uint8

// The ops. Unary, binary and ternary ops are elementwise ALU ops; the
// buffer ops move data; Reduce folds a kernel's reduce axes.
const (
	OpNone Op = iota

	// Unary.
	OpNeg   // -x
	OpExp2  // 2**x
	OpLog2  // log2(x)
	OpSin   // sin(x)
	OpSqrt  // sqrt(x)
	OpRecip // 1/x
	OpCast  // convert to the node's DType (float -> int truncates toward zero)
	OpNot   // logical not of a bool

	// Binary. Comparisons produce Bool.
	OpAdd
	OpSub
	OpMul
	OpDiv   // true division of floats
	OpIDiv  // integer division, truncating toward zero (C semantics)
	OpMod   // remainder with the dividend's sign (C semantics: % on integers, exact fmod on floats)
	OpMax   // max(a, b): b if a < b or b is NaN, else a (a tie gives a)
	OpCmpLt // a < b
	OpCmpNe // a != b
	OpCmpEq // a == b
	OpAnd   // bitwise/logical and (ints, bools)
	OpOr    // bitwise/logical or
	OpXor   // bitwise/logical xor

	// Ternary.
	OpWhere // cond ? a : b

	// Buffers and constants.
	OpLoad   // read buffer Buf through the node's ShapeTracker
	OpConst  // a constant broadcast through the node's ShapeTracker
	OpStore  // write Src[0] to buffer Buf through the node's ShapeTracker
	OpReduce // fold Src[0] over Axes with ReduceOp (OpAdd, OpMax or OpMul)

	// Uop-only ops: they appear in a lowered Program, never in a kernel AST.
	OpDefineGlobal // a kernel buffer, UOp.Buf
	OpDefineVar    // a symbolic variable's value, UOp.Name
	OpDefineAcc    // UOp.Size accumulators set to UOp.Val
	OpRange        // a loop: Src [start, end], the loop variable UOp.Name
	OpEnd          // the end of the loop Src[0]
	OpAccum        // acc[idx] = ReduceOp(acc[idx], value) for Src [acc, idx, value]

	// OpGather reads buffer Buf at the index its ShapeTracker gives plus
	// Src[0] (an integer value computed in the kernel) times Stride, and
	// reads 0 where Src[0] is outside [0, Bound): X[idx] along one axis
	// as one gated load, with no reduce over the axis. Lowering turns it
	// into ordinary index uops and a gated LOAD; it never reaches a device.
	OpGather

	// OpMulAcc is Src[0]*Src[1] + Src[2], for floats computed exactly and
	// rounded once to the dtype (a fused multiply-add: C's fma and fmaf,
	// FMA32), the same bits on every device. The fuse rewrite (rewrite.go)
	// makes it from an ADD of a MUL; an ACCUM whose ReduceOp is OpMulAcc
	// adds the product of its Src[2] and Src[3] into the accumulator the
	// same way. Float16 values are float32s inside a kernel: a float16
	// MULACC is FMA32, rounded to a half where a cast or store says so.
	OpMulAcc
)

var opNames = [...]string{
	OpNone: "NONE", OpNeg: "NEG", OpExp2: "EXP2", OpLog2: "LOG2", OpSin: "SIN",
	OpSqrt: "SQRT", OpRecip: "RECIP", OpCast: "CAST", OpNot: "NOT",
	OpAdd: "ADD", OpSub: "SUB", OpMul: "MUL", OpDiv: "DIV", OpIDiv: "IDIV",
	OpMod: "MOD", OpMax: "MAX", OpCmpLt: "CMPLT", OpCmpNe: "CMPNE", OpCmpEq: "CMPEQ",
	OpAnd: "AND", OpOr: "OR", OpXor: "XOR", OpWhere: "WHERE",
	OpLoad: "LOAD", OpConst: "CONST", OpStore: "STORE", OpReduce: "REDUCE_AXIS",
	OpDefineGlobal: "DEFINE_GLOBAL", OpDefineVar: "DEFINE_VAR", OpDefineAcc: "DEFINE_ACC",
	OpRange: "RANGE", OpEnd: "ENDRANGE", OpAccum: "ACCUM", OpGather: "GATHER", OpMulAcc: "MULACC",
}

// String returns the op's upper-case name as tinygrad prints it.
func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return "OP?"
}

// IsUnary reports whether o is an elementwise op with one operand.
func (o Op) IsUnary() bool { return o >= OpNeg && o <= OpNot }

// IsBinary reports whether o is an elementwise op with two operands.
func (o Op) IsBinary() bool { return o >= OpAdd && o <= OpXor }

// IsCompare reports whether o yields a Bool from two operands.
func (o Op) IsCompare() bool { return o == OpCmpLt || o == OpCmpNe || o == OpCmpEq }

// IsElementwise reports whether o is a unary, binary or ternary ALU op
// (MULACC among them, though only uops have it).
func (o Op) IsElementwise() bool { return o.IsUnary() || o.IsBinary() || o == OpWhere || o == OpMulAcc }
