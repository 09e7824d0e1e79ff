// Package kerneltest holds what the device tests share: Reference, which
// runs a lowered program on the reference device (devices/ref) that every
// device is compared with; Eval, a brute-force evaluator of kernel ASTs
// that computes every output element on its own, with each buffer index
// taken from the ShapeTracker's IndexExpr and symbolic Eval, against which
// the reference device's results are checked (so that a lowering bug is
// not taken for the truth); and helpers that build buffers and random
// kernels.
package kerneltest

import (
	"fmt"
	"math"

	"tiny/codegen"
	"tiny/devices"
	"tiny/symbolic"
)

// Eval computes kernel k over bufs (bufs[0] is written) element by element.
func Eval(k *codegen.Kernel, bufs []*devices.Buffer) {
	root := k.AST
	full := root.ST.IntShape()
	var red []int
	walk(root, func(n *codegen.Node) {
		if n.Op != codegen.OpReduce {
			return
		}
		red = n.Axes
		done := false
		walk(n, func(l *codegen.Node) {
			if !done && (l.Op == codegen.OpLoad || l.Op == codegen.OpConst || l.Op == codegen.OpGather) {
				s := l.ST.IntShape()
				for _, a := range red {
					full[a] = s[a]
				}
				done = true
			}
		})
	})
	e := &evaluator{bufs: bufs, exprs: map[*codegen.Node][2]*symbolic.Node{}, full: full, red: red, reduced: map[string]float64{}}
	out := root.ST.IntShape()
	each(out, func(idx []int) {
		e.store(root, idx)
	})
}

type evaluator struct {
	bufs  []*devices.Buffer
	exprs map[*codegen.Node][2]*symbolic.Node
	full  []int
	red   []int
	// reduced holds each reduce's value by output position: a reduce
	// inside another is read at every position of the outer one's.
	reduced map[string]float64
}

func walk(n *codegen.Node, f func(*codegen.Node)) {
	f(n)
	for _, s := range n.Src {
		walk(s, f)
	}
}

// each calls f with every index of shape, in row-major order.
func each(shape []int, f func([]int)) {
	idx := make([]int, len(shape))
	for _, d := range shape {
		if d == 0 {
			return
		}
	}
	for {
		f(idx)
		a := len(shape) - 1
		for ; a >= 0; a-- {
			idx[a]++
			if idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
		if a < 0 {
			return
		}
	}
}

// locate returns the buffer index of leaf n at idx and whether it is valid.
func (e *evaluator) locate(n *codegen.Node, idx []int) (int, bool) {
	ex, ok := e.exprs[n]
	if !ok {
		names := make([]string, len(idx))
		for a := range names {
			names[a] = fmt.Sprintf("i%d", a)
		}
		i, v := n.ST.IndexExpr(n.ST.Ridxs(names))
		ex = [2]*symbolic.Node{i, v}
		e.exprs[n] = ex
	}
	env := map[string]int64{}
	for a, d := range n.ST.IntShape() {
		x := idx[a]
		if d == 1 {
			x = 0
		}
		env[fmt.Sprintf("i%d", a)] = int64(x)
	}
	if ex[1].Eval(env) == 0 {
		return 0, false
	}
	return int(ex[0].Eval(env)), true
}

func (e *evaluator) store(n *codegen.Node, idx []int) {
	v := e.value(n.Src[0], idx)
	i, ok := e.locate(n, idx)
	if ok {
		Set(e.bufs[n.Buf], i, v)
	}
}

func (e *evaluator) value(n *codegen.Node, idx []int) float64 {
	switch n.Op {
	case codegen.OpLoad:
		i, ok := e.locate(n, idx)
		if !ok {
			return 0
		}
		return Round(Get(e.bufs[n.Buf], i), n.DType)
	case codegen.OpGather:
		i, ok := e.locate(n, idx)
		v := int(e.value(n.Src[0], idx))
		if !ok || v < 0 || v >= n.Bound {
			return 0
		}
		return Round(Get(e.bufs[n.Buf], i+v*n.Stride), n.DType)
	case codegen.OpConst:
		if _, ok := e.locate(n, idx); !ok {
			return 0
		}
		return Round(n.Val, n.DType)
	case codegen.OpReduce:
		return e.reduce(n, idx)
	}
	x := make([]float64, len(n.Src))
	for i, s := range n.Src {
		x[i] = e.value(s, idx)
	}
	if n.Op == codegen.OpCast {
		return Cast(x[0], n.Src[0].DType, n.DType)
	}
	return Round(ALU(n.Op, n.Src[0].DType, x...), computed(n.DType))
}

// computed returns the dtype in which values of dtype d are computed: float16
// is stored as half but computed in float32, rounded to half only by a cast
// or a store, as the devices do.
func computed(d codegen.DType) codegen.DType {
	if d == codegen.Float16 {
		return codegen.Float32
	}
	return d
}

func (e *evaluator) reduce(n *codegen.Node, idx []int) float64 {
	sub := make([]int, len(e.red))
	for i, a := range e.red {
		sub[i] = e.full[a]
	}
	at := append([]int{}, idx...)
	for _, a := range e.red {
		at[a] = 0
	}
	key := fmt.Sprintf("%p%v", n, at)
	if v, ok := e.reduced[key]; ok {
		return v
	}
	acc := Identity(n.ReduceOp, n.DType)
	defer func() { e.reduced[key] = acc }()
	each(sub, func(r []int) {
		for i, a := range e.red {
			at[a] = r[i]
		}
		acc = Round(ALU(n.ReduceOp, n.DType, acc, e.value(n.Src[0], at)), computed(n.DType))
	})
	return acc
}

// Identity returns the starting value of a reduce.
func Identity(op codegen.Op, d codegen.DType) float64 {
	switch op {
	case codegen.OpAdd:
		return 0
	case codegen.OpMul:
		return 1
	}
	lo, _ := d.MinMax()
	return lo
}

// ALU applies op to values of dtype d (the operands' dtype).
func ALU(op codegen.Op, d codegen.DType, x ...float64) float64 {
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	switch op {
	case codegen.OpNeg:
		if d == codegen.Bool {
			return x[0]
		}
		return -x[0]
	case codegen.OpNot:
		return b(x[0] == 0)
	case codegen.OpExp2:
		return math.Exp2(x[0])
	case codegen.OpLog2:
		return math.Log2(x[0])
	case codegen.OpSin:
		return codegen.Sin(x[0])
	case codegen.OpSqrt:
		return math.Sqrt(x[0])
	case codegen.OpRecip:
		return 1 / x[0]
	case codegen.OpAdd:
		return x[0] + x[1]
	case codegen.OpSub:
		return x[0] - x[1]
	case codegen.OpMul:
		return x[0] * x[1]
	case codegen.OpDiv:
		return x[0] / x[1]
	case codegen.OpIDiv:
		if x[1] == 0 {
			return 0
		}
		return math.Trunc(x[0] / x[1])
	case codegen.OpMod:
		if x[1] == 0 {
			return 0
		}
		return float64(int64(x[0]) % int64(x[1]))
	case codegen.OpMax:
		if math.IsNaN(x[0]) || math.IsNaN(x[1]) {
			return math.NaN()
		}
		return math.Max(x[0], x[1])
	case codegen.OpCmpLt:
		return b(x[0] < x[1])
	case codegen.OpCmpNe:
		return b(x[0] != x[1])
	case codegen.OpCmpEq:
		return b(x[0] == x[1])
	case codegen.OpAnd:
		return float64(int64(x[0]) & int64(x[1]))
	case codegen.OpOr:
		return float64(int64(x[0]) | int64(x[1]))
	case codegen.OpXor:
		return float64(int64(x[0]) ^ int64(x[1]))
	case codegen.OpWhere:
		if x[0] != 0 {
			return x[1]
		}
		return x[2]
	}
	panic(fmt.Sprintf("kerneltest: no ALU for %s", op))
}

// Round returns v as dtype d holds it: rounded to float32 or float16,
// wrapped to the integer width, 0 or 1 for bool.
func Round(v float64, d codegen.DType) float64 {
	switch d {
	case codegen.Bool:
		if v != 0 {
			return 1
		}
		return 0
	case codegen.Uint8:
		return float64(uint8(int64(v)))
	case codegen.Int8:
		return float64(int8(int64(v)))
	case codegen.Int16:
		return float64(int16(int64(v)))
	case codegen.Uint16:
		return float64(uint16(int64(v)))
	case codegen.Uint32:
		return float64(uint32(int64(v)))
	case codegen.Uint64:
		return float64(u64(v))
	case codegen.Int32:
		return float64(int32(int64(v)))
	case codegen.Int64:
		return float64(int64(v))
	case codegen.Float16:
		return float64(half(float32(v)))
	case codegen.Float32:
		return float64(float32(v))
	}
	return v
}

// Cast converts v of dtype from to dtype to: floats truncate toward zero
// into ints; anything nonzero is true.
func Cast(v float64, from, to codegen.DType) float64 {
	if to == codegen.Bool {
		return Round(v, to)
	}
	if from.IsFloat() && !to.IsFloat() {
		v = math.Trunc(v)
	}
	return Round(v, to)
}

// u64 converts to uint64 as the devices do: through int64 below 2**63.
func u64(v float64) uint64 {
	if v >= 1<<64 {
		return math.MaxUint64 // the float64 nearest it is 2**64
	}
	if v >= 1<<63 {
		return uint64(v)
	}
	return uint64(int64(v))
}
