package kerneltest

import (
	"tiny/codegen"
	"tiny/shape"
)

// This file defines small constructors for hand-built kernels.

// Load reads buffer buf of dtype d through st.
func Load(buf int, d codegen.DType, st shape.Tracker) *codegen.Node {
	return &codegen.Node{Op: codegen.OpLoad, DType: d, Buf: buf, ST: st}
}

// Const is the constant v of dtype d broadcast through st.
func Const(v float64, d codegen.DType, st shape.Tracker) *codegen.Node {
	return &codegen.Node{Op: codegen.OpConst, DType: d, Val: v, ST: st}
}

// ALU applies op; the result has dtype d.
func Op(op codegen.Op, d codegen.DType, src ...*codegen.Node) *codegen.Node {
	return &codegen.Node{Op: op, DType: d, Src: src}
}

// Reduce folds src over axes with op.
func Reduce(op codegen.Op, d codegen.DType, axes []int, src *codegen.Node) *codegen.Node {
	return &codegen.Node{Op: codegen.OpReduce, DType: d, ReduceOp: op, Axes: axes, Src: []*codegen.Node{src}}
}

// Kernel stores v into buffer 0 through st; bufs lists every buffer's spec
// after the output's, whose spec is derived from st's size.
func Kernel(st shape.Tracker, v *codegen.Node, inputs ...codegen.BufSpec) *codegen.Kernel {
	n := 1
	for _, d := range st.IntShape() {
		n *= d
	}
	root := &codegen.Node{Op: codegen.OpStore, DType: v.DType, Buf: 0, ST: st, Src: []*codegen.Node{v}}
	k := &codegen.Kernel{AST: root, Bufs: append([]codegen.BufSpec{{DType: v.DType, Size: n}}, inputs...)}
	k.Name = codegen.KernelName(k)
	return k
}

// Must panics on a movement error: hand-built test views are valid.
func Must(st shape.Tracker, err error) shape.Tracker {
	if err != nil {
		panic(err)
	}
	return st
}
