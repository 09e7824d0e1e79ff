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

// ReduceKernels returns, for each shape and each non-empty subset of its
// axes, the float32 kernels 1 + sum(x*x) and 1 + max(x*x) over those axes:
// every reduce layout a device must handle (inner, outer, several, all).
func ReduceKernels(shapes ...[]int) []*codegen.Kernel {
	f32 := codegen.Float32
	var ks []*codegen.Kernel
	for _, sh := range shapes {
		full := shape.FromInts(sh...)
		n := 1
		for _, d := range sh {
			n *= d
		}
		for axes := 1; axes < 1<<len(sh); axes++ {
			var ax []int
			out := append([]int{}, sh...)
			for a := range sh {
				if axes&(1<<a) != 0 {
					ax = append(ax, a)
					out[a] = 1
				}
			}
			for _, op := range []codegen.Op{codegen.OpAdd, codegen.OpMax} {
				v := Reduce(op, f32, ax, Op(codegen.OpMul, f32, Load(1, f32, full), Load(1, f32, full)))
				one := Const(1, f32, shape.FromInts(out...))
				ks = append(ks, Kernel(shape.FromInts(out...), Op(codegen.OpAdd, f32, v, one), codegen.BufSpec{DType: f32, Size: n}))
			}
		}
	}
	return ks
}
