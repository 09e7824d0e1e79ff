package kerneltest

import (
	"tiny/codegen"
	"tiny/shape"
	"tiny/symbolic"
)

// This file defines small constructors for hand-built kernels.

// Load reads buffer buf of dtype d through st.
func Load(buf int, d codegen.DType, st shape.Tracker) *codegen.Node {
	return &codegen.Node{Op: codegen.OpLoad, DType: d, Buf: buf, ST: st}
}

// Gather reads buffer buf of dtype d through st plus the value of idx times
// stride, and 0 where idx is outside [0, bound).
func Gather(buf int, d codegen.DType, st shape.Tracker, idx *codegen.Node, stride, bound int) *codegen.Node {
	return &codegen.Node{Op: codegen.OpGather, DType: d, Buf: buf, ST: st, Src: []*codegen.Node{idx}, Stride: stride, Bound: bound}
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
		n := prod(sh)
		eachAxisSubset(sh, func(axes int, ax, out []int) {
			for _, op := range []codegen.Op{codegen.OpAdd, codegen.OpMax} {
				v := Reduce(op, f32, ax, Op(codegen.OpMul, f32, Load(1, f32, full), Load(1, f32, full)))
				one := Const(1, f32, shape.FromInts(out...))
				ks = append(ks, Kernel(shape.FromInts(out...), Op(codegen.OpAdd, f32, v, one), codegen.BufSpec{DType: f32, Size: n}))
			}
		})
	}
	return ks
}

// eachAxisSubset calls f for each non-empty subset of sh's axes, with the
// subset as a bit set, as the list of its axes, and as the shape left once
// they are reduced to 1.
func eachAxisSubset(sh []int, f func(axes int, ax, out []int)) {
	for axes := 1; axes < 1<<len(sh); axes++ {
		var ax []int
		out := append([]int{}, sh...)
		for a := range sh {
			if axes&(1<<a) != 0 {
				ax = append(ax, a)
				out[a] = 1
			}
		}
		f(axes, ax, out)
	}
}

// NestedKernels returns, for each shape and each non-empty subset of its
// axes, kernels with a reduce inside another over the same axes, as the
// scheduler fuses argmax: the largest p (an int32 buffer along the reduced
// axes, broadcast along the others) where x equals its max, plus that max, and 1 + sum((x -
// max(x))**2) (a float sum, compensated, around a max), and max(x*x - max(x)
// - 8).
func NestedKernels(shapes ...[]int) []*codegen.Kernel {
	f32, i32 := codegen.Float32, codegen.Int32
	var ks []*codegen.Kernel
	for _, sh := range shapes {
		full := shape.FromInts(sh...)
		n := prod(sh)
		eachAxisSubset(sh, func(axes int, ax, out []int) {
			// p varies along the reduced axes only, as argmax's positions.
			pshape, pn := make([]int, len(sh)), 1
			for a := range sh {
				pshape[a] = 1
				if axes&(1<<a) != 0 {
					pshape[a] = sh[a]
					pn *= sh[a]
				}
			}
			p := Load(2, i32, Must(shape.FromInts(pshape...).ExpandInts(sh)))
			x := Load(1, f32, full)
			m := Reduce(codegen.OpMax, f32, ax, x)
			eq := Op(codegen.OpCast, i32, Op(codegen.OpCmpEq, codegen.Bool, x, m))
			pos := Reduce(codegen.OpMax, i32, ax, Op(codegen.OpMul, i32, eq, p))
			ks = append(ks, Kernel(shape.FromInts(out...), Op(codegen.OpAdd, f32, Op(codegen.OpCast, f32, pos), m), Spec(f32, n), Spec(i32, pn)))
			d := Op(codegen.OpSub, f32, x, m)
			sq := Reduce(codegen.OpAdd, f32, ax, Op(codegen.OpMul, f32, d, d))
			ks = append(ks, Kernel(shape.FromInts(out...), Op(codegen.OpAdd, f32, sq, Const(1, f32, shape.FromInts(out...))), Spec(f32, n)))
			// Every term below -8: an outer accumulator that did not start
			// from its identity shows.
			eight := Const(8, f32, full)
			low := Reduce(codegen.OpMax, f32, ax, Op(codegen.OpSub, f32, Op(codegen.OpSub, f32, Op(codegen.OpMul, f32, x, x), m), eight))
			ks = append(ks, Kernel(shape.FromInts(out...), low, Spec(f32, n)))
		})
	}
	return ks
}

// GatherKernels returns kernels that read a float32 buffer at indices loaded
// from an int32 buffer (random values in [-9, 9], so some are out of range
// and read 0): rows of a (7, 6) buffer, columns of its transpose, rows
// folded by a sum, and rows indexed by idx+2 computed in the kernel.
func GatherKernels() []*codegen.Kernel {
	f32, i32 := codegen.Float32, codegen.Int32
	x := Must(Must(shape.FromInts(7, 6).ShrinkInts([][2]int{{0, 1}, {0, 6}})).ExpandInts([]int{4, 6}))
	idx := Must(Must(shape.FromInts(4).ReshapeInts([]int{4, 1})).ExpandInts([]int{4, 6}))
	xs, is := codegen.BufSpec{DType: f32, Size: 42}, codegen.BufSpec{DType: i32, Size: 4}
	rows := Kernel(shape.FromInts(4, 6), Gather(1, f32, x, Load(2, i32, idx), 6, 7), xs, is)
	// Columns of the transpose: out[j, i] = x[idx[i], j], a (6, 4) output.
	xt := Must(Must(Must(shape.FromInts(7, 6).Permute([]int{1, 0})).ShrinkInts([][2]int{{0, 6}, {0, 1}})).ExpandInts([]int{6, 4}))
	it := Must(Must(shape.FromInts(4).ReshapeInts([]int{1, 4})).ExpandInts([]int{6, 4}))
	cols := Kernel(shape.FromInts(6, 4), Gather(1, f32, xt, Load(2, i32, it), 6, 7), xs, is)
	sum := Kernel(shape.FromInts(4, 1), Reduce(codegen.OpAdd, f32, []int{1}, Gather(1, f32, x, Load(2, i32, idx), 6, 7)), xs, is)
	two := Const(2, i32, Must(shape.FromInts(1, 1).ExpandInts([]int{4, 6})))
	shifted := Kernel(shape.FromInts(4, 6), Gather(1, f32, x, Op(codegen.OpAdd, i32, Load(2, i32, idx), two), 6, 7), xs, is)
	return []*codegen.Kernel{rows, cols, sum, shifted}
}

// Spec is the spec of a buffer of n elements of dtype d.
func Spec(d codegen.DType, n int) codegen.BufSpec { return codegen.BufSpec{DType: d, Size: n} }

// DTypeKernels returns, for every dtype d, the kernels over a (rows, cols)
// shape that add two buffers of d (or them, for bool), cast float32 to d
// and cast d to float32.
func DTypeKernels(rows, cols int) []*codegen.Kernel {
	f32, s, n := codegen.Float32, shape.FromInts(rows, cols), rows*cols
	var ks []*codegen.Kernel
	for _, d := range codegen.DTypes {
		op := codegen.OpAdd
		if d == codegen.Bool {
			op = codegen.OpOr
		}
		ks = append(ks, Kernel(s, Op(op, d, Load(1, d, s), Load(2, d, s)), Spec(d, n), Spec(d, n)),
			Kernel(s, Op(codegen.OpCast, d, Load(1, f32, s)), Spec(f32, n)),
			Kernel(s, Op(codegen.OpCast, f32, Load(1, d, s)), Spec(d, n)))
	}
	return ks
}

// ClipKernels returns kernels whose reduce loops codegen clips to the
// mask of a padded view (codegen.OptClip): the input gradient of a
// convolution, the windows of a gradient padded by the kernel's extent
// (stored (*spatial, batch, channel)) times a weight (*kernel, cin, cout),
// summed over the channels and the kernel taps, in one and two spatial
// dimensions.
func ClipKernels() []*codegen.Kernel {
	conv := func(sp []int, b, c, co, k int) *codegen.Kernel {
		n := len(sp)
		padded, out := make([]int, n), make([]int, n)
		pads := make([][2]int, n+2)
		xs := make([]int, 0, n+2)
		for i, s := range sp {
			padded[i], out[i] = s+2*(k-1), s+k-1
			pads[i] = [2]int{k - 1, k - 1}
			xs = append(xs, s)
		}
		xs = append(xs, b, c)
		base := Must(shape.FromInts(xs...).PadInts(pads)) // (*padded, b, c), masked
		// The windows: (b, *out, co, c, *kernel) over base's flat index.
		row := make([]int, n) // the stride of each padded spatial axis
		st := b * c
		for i := n - 1; i >= 0; i-- {
			row[i] = st
			st *= padded[i]
		}
		shp := append(append([]int{b}, out...), co, c)
		strides := append([]int{c}, row...)
		strides = append(strides, 0, 1)
		wShape := []int{}
		for range n {
			shp = append(shp, k)
			wShape = append(wShape, k)
		}
		strides = append(strides, row...)
		wShape = append(wShape, c, co)
		wStrides := make([]int, len(shp))
		ws := co
		wStrides[n+1] = 1
		wStrides[n+2] = ws
		ws *= c
		for i := n - 1; i >= 0; i-- {
			wStrides[n+3+i] = ws
			ws *= k
		}
		v, err := shape.NewView(shape.Ints(shp...), shape.Ints(strides...), symbolic.C(0), nil)
		if err != nil {
			panic(err)
		}
		x := shape.Tracker{Views: append(append([]shape.View{}, base.Views...), v)}
		wv, err := shape.NewView(shape.Ints(shp...), shape.Ints(wStrides...), symbolic.C(0), nil)
		if err != nil {
			panic(err)
		}
		axes := []int{n + 2}
		oshp := append([]int{}, shp[:n+2]...)
		oshp = append(oshp, 1)
		for i := range n {
			axes = append(axes, n+3+i)
			oshp = append(oshp, 1)
		}
		prod := Op(codegen.OpMul, codegen.Float32, Load(1, codegen.Float32, x), Load(2, codegen.Float32, shape.Tracker{Views: []shape.View{wv}}))
		xn := b * c
		for _, s := range sp {
			xn *= s
		}
		return Kernel(shape.FromInts(oshp...), Reduce(codegen.OpAdd, codegen.Float32, axes, prod),
			Spec(codegen.Float32, xn), Spec(codegen.Float32, ws))
	}
	return []*codegen.Kernel{conv([]int{5, 6}, 12, 4, 16, 3), conv([]int{9}, 12, 3, 16, 4)}
}
