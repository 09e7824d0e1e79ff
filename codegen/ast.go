package codegen

import (
	"fmt"
	"strconv"
	"strings"

	"tiny/shape"
)

// Node is one node of a kernel AST, the form in which the scheduler hands a
// kernel to codegen (tinygrad's LazyOp tree of early 2024). A kernel's root is
// an OpStore; its leaves are OpLoad and OpConst (and OpGather, a load whose
// index also depends on the value of its operand).
//
// Every Load, Const and Store carries a ShapeTracker. Loads and consts see the
// kernel's full shape, reduce axes included; the store sees the same shape
// with the reduce axes set to 1 (tinygrad's keepdim form). For example,
// x.sum(axis=1) over a (4, 8) buffer is
//
//	STORE st=(4, 1)
//	  REDUCE_AXIS ADD axes=(1,)
//	    LOAD buf=1 st=(4, 8)
//
// A scatter's store has a second operand, an integer value computed in the
// kernel: it writes Src[0] at the index its ShapeTracker gives plus Src[1]
// times Stride, where Src[1] is in [0, Bound), and nowhere else; the rest of
// the buffer keeps what it held. Its kernel runs serially (Program.Serial),
// so that of two writes to one element the later one, in the order of the
// kernel's loops, stays: Tensor.Scatter's last write wins. With ReduceOp
// (OpAdd, OpMul) the store folds into the element instead: it reads the
// element and writes the element op Src[0] (scatter's add and multiply, a
// gather's gradient).
type Node struct {
	Op    Op
	DType DType   // the dtype of the value the node produces (Store: of the stored value)
	Src   []*Node // operands

	Buf int           // Load, Store: index into the kernel's buffers (0 is the output)
	ST  shape.Tracker // Load, Const, Store: how the buffer (or constant) is indexed
	Val float64       // Const: the value (ints and bools are exact below 2**53)

	ReduceOp Op    // Reduce: OpAdd, OpMax or OpMul; scattering Store: 0, or the fold OpAdd or OpMul
	Axes     []int // Reduce: the axes folded, in increasing order

	Stride int // Gather, scattering Store: the buffer distance between neighbouring values of Src[0] (Store: Src[1])
	Bound  int // Gather: Src[0] reads the buffer when in [0, Bound), else 0; scattering Store: Src[1] writes when in [0, Bound)
}

// BufSpec describes one buffer a kernel touches.
type BufSpec struct {
	DType DType
	Size  int // number of elements
}

// Kernel is one unit of work: an AST rooted at a Store into buffer 0, reading
// buffers 1..n-1. The scheduler builds kernels; codegen lowers them to uops.
type Kernel struct {
	Name string    // a tinygrad-style name such as E_3 or r_4_8; see KernelName
	AST  *Node     // the OpStore root
	Bufs []BufSpec // Bufs[i] is buffer i as the AST refers to it
	// Cached says the next kernel writes into the output at computed
	// places (a scatter's copy): its store is not streamed around the
	// caches (no OptStream), so that those writes find its lines there.
	Cached bool
}

// String prints the AST as the tree tinygrad shows at DEBUG=2, one node per line.
func (k *Kernel) String() string {
	var b strings.Builder
	n := 0
	var walk func(x *Node, prefix string, last, root bool)
	walk = func(x *Node, prefix string, last, root bool) {
		branch, child := "┣━", "┃ "
		if last {
			branch, child = "┗━", "  "
		}
		if root {
			branch, child = "━", ""
		}
		mark := "━"
		if len(x.Src) > 0 {
			mark = "┳"
		}
		fmt.Fprintf(&b, "%3d %s%s%s %s\n", n, prefix, branch, mark, x.describe())
		n++
		for i, s := range x.Src {
			walk(s, prefix+child, i == len(x.Src)-1, false)
		}
	}
	walk(k.AST, " ", true, true)
	return b.String()
}

// Scatters reports whether x is a scatter's store (Node).
func (x *Node) Scatters() bool { return x.Op == OpStore && len(x.Src) == 2 }

// describe returns the node's op and argument as one line.
func (x *Node) describe() string {
	switch x.Op {
	case OpLoad, OpStore:
		if x.Scatters() {
			fold := ""
			if x.ReduceOp != 0 {
				fold = " " + x.ReduceOp.String()
			}
			return fmt.Sprintf("%s MemBuffer(idx=%d, dtype=%s, st=%s) (scatter%s: stride=%d, bound=%d)", x.Op, x.Buf, x.DType, x.ST, fold, x.Stride, x.Bound)
		}
		return fmt.Sprintf("%s MemBuffer(idx=%d, dtype=%s, st=%s)", x.Op, x.Buf, x.DType, x.ST)
	case OpGather:
		return fmt.Sprintf("%s MemBuffer(idx=%d, dtype=%s, st=%s) (stride=%d, bound=%d)", x.Op, x.Buf, x.DType, x.ST, x.Stride, x.Bound)
	case OpConst:
		return fmt.Sprintf("%s ConstBuffer(val=%s, dtype=%s, st=%s)", x.Op, FormatConst(x.Val, x.DType), x.DType, x.ST)
	case OpReduce:
		axes := make([]string, len(x.Axes))
		for i, a := range x.Axes {
			axes[i] = strconv.Itoa(a)
		}
		tail := ""
		if len(axes) == 1 {
			tail = ","
		}
		return fmt.Sprintf("%s (%s, (%s%s))", x.Op, x.ReduceOp, strings.Join(axes, ", "), tail)
	case OpCast:
		return fmt.Sprintf("%s %s", x.Op, x.DType)
	}
	return x.Op.String()
}

// FormatConst prints a constant the way the AST and the renderers show it:
// bools as True/False, ints as digits, floats in shortest round-trip form.
func FormatConst(v float64, d DType) string {
	switch {
	case d == Bool:
		if v != 0 {
			return "True"
		}
		return "False"
	case d == Uint64 && v >= 1<<64:
		return "18446744073709551615"
	case d == Uint64 && v >= 1<<63:
		return strconv.FormatUint(uint64(v), 10)
	case d.IsInt() || d == Index:
		return strconv.FormatInt(int64(v), 10)
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eIN") {
		s += ".0"
	}
	return s
}
