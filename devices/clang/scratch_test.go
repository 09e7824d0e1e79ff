package clang

import (
	"fmt"
	"testing"

	"tiny/codegen"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

var f32 = codegen.Float32

func spec(d codegen.DType, n int) codegen.BufSpec { return codegen.BufSpec{DType: d, Size: n} }

func TestScratch(t *testing.T) {
	const n16M = 1 << 24
	s := shape.FromInts(4096, 4096)
	ks := []*codegen.Kernel{}
	ks = append(ks, kt.Kernel(s, kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, s), kt.Load(2, f32, s)), spec(f32, n16M), spec(f32, n16M)))
	s1 := shape.FromInts(n16M)
	two := kt.Const(2, f32, kt.Must(shape.FromInts(1).ExpandInts([]int{n16M})))
	v := kt.Op(codegen.OpMul, f32, kt.Op(codegen.OpAdd, f32, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, s1), two), kt.Load(2, f32, s1)), kt.Load(3, f32, s1))
	ks = append(ks, kt.Kernel(shape.FromInts(1), kt.Reduce(codegen.OpAdd, f32, []int{0}, v), spec(f32, n16M), spec(f32, n16M), spec(f32, n16M)))
	ks = append(ks, kt.Kernel(shape.FromInts(4096, 1), kt.Reduce(codegen.OpAdd, f32, []int{1}, kt.Load(1, f32, s)), spec(f32, n16M)))
	ks = append(ks, kt.Kernel(shape.FromInts(1, 4096), kt.Reduce(codegen.OpAdd, f32, []int{0}, kt.Load(1, f32, s)), spec(f32, n16M)))
	x := kt.Must(shape.FromInts(4096, 4096).Permute([]int{1, 0}))
	ks = append(ks, kt.Kernel(shape.FromInts(4096, 4096), kt.Load(1, f32, x), spec(f32, n16M)))
	const n = 512
	a := kt.Must(shape.FromInts(n, 1, n).ExpandInts([]int{n, n, n}))
	bt := kt.Must(kt.Must(kt.Must(shape.FromInts(n, n).Permute([]int{1, 0})).ReshapeInts([]int{1, n, n})).ExpandInts([]int{n, n, n}))
	ks = append(ks, kt.Kernel(shape.FromInts(n, n, 1), kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, bt))), spec(f32, n*n), spec(f32, n*n)))
	pad := kt.Must(shape.FromInts(30, 30).PadInts([][2]int{{1, 2}, {3, 0}}))
	ks = append(ks, kt.Kernel(shape.FromInts(33, 33), kt.Op(codegen.OpAdd, f32, kt.Load(1, f32, pad), kt.Const(1, f32, kt.Must(pad.ReshapeInts([]int{33, 33})))), spec(f32, 900)))
	mv := kt.Must(kt.Must(shape.FromInts(6, 10).Permute([]int{1, 0})).ReshapeInts([]int{4, 15}))
	ks = append(ks, kt.Kernel(shape.FromInts(4, 15), kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, mv)), spec(f32, 60)))
	for _, k := range ks {
		p, err := codegen.Lower(k, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%s global=%d split=%v work=%d\n%s\n", p.Name, p.Global, p.SplitReduce, p.Work, p)
	}
}
