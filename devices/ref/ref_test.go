package ref_test

import (
	"fmt"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

var f32 = codegen.Float32

// optionSets are the lowerings each kernel is run under: the default
// (register tiles, lanes, split reduces, compensated blocks), plain loop
// nests, and small targets that give small kernels every loop shape.
var optionSets = []codegen.Options{{}, {NoMerge: true, NoReorder: true, NoUnroll: true, NoSplit: true},
	{Target: &codegen.Target{Lanes: 2, Rows: 2, Cols: 4, Tile: 2}}, {Target: &codegen.Target{Lanes: 3, Rows: 3, Cols: 6, Dot: 2, Tile: 3}}}

// check runs k's programs on the reference device and compares every output
// element with the brute-force evaluator of the kernel's AST: the programs
// mean what the kernel does.
func check(t *testing.T, k *codegen.Kernel) {
	t.Helper()
	bufs, oracle := kt.Oracle(k)
	for _, opts := range optionSets {
		if p, _, err := kt.LowerRef(k, opts, bufs, oracle); err != nil {
			t.Fatalf("%s opts %+v: %v\n%s\n%s", k.Name, opts, err, k, p)
		}
	}
}

func TestRegistered(t *testing.T) {
	d, err := devices.Open("REF", devices.Options{})
	if err != nil || d.Name() != "REF" {
		t.Fatalf("Open(REF) = %v, %v", d, err)
	}
}

func TestRandomKernels(t *testing.T) {
	kt.RandomKernels(t, 200, 40, check)
}

// TestNested runs kernels with a reduce inside another over the same axes
// (argmax's max inside the search for its position).
func TestNested(t *testing.T) {
	for _, k := range kt.NestedKernels([]int{64, 200}, []int{3, 5}, []int{5000}, []int{5, 4, 3}, []int{7, 1, 300}) {
		check(t, k)
	}
}

func TestReduce(t *testing.T) {
	for _, k := range kt.ReduceKernels([]int{64, 200}, []int{3, 5}, []int{5000}, []int{5, 4, 3}, []int{7, 1, 300}) {
		check(t, k)
	}
}

func TestGather(t *testing.T) {
	for _, k := range kt.GatherKernels() {
		check(t, k)
	}
}

func TestDTypes(t *testing.T) {
	for _, k := range kt.DTypeKernels(5, 30) {
		check(t, k)
	}
	for _, d := range codegen.DTypes {
		check(t, kt.Kernel(shape.FromInts(1), kt.Reduce(codegen.OpMax, d, []int{0}, kt.Load(1, d, shape.FromInts(300))), kt.Spec(d, 300)))
	}
}

// TestFusedUops covers the uops that stand for several (codegen's
// rewrites): a matmul's multiply-add ACCUM and a bias's MULACC, and EXP2s
// whose argument is scaled, (x - m) * c and (m + x) * c, in float32 and
// float16.
func TestFusedUops(t *testing.T) {
	seen := map[string]bool{}
	note := func(k *codegen.Kernel) {
		p, err := codegen.Lower(k, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range p.UOps {
			switch {
			case u.Op == codegen.OpMulAcc:
				seen["MULACC"] = true
			case u.Op == codegen.OpAccum && u.ReduceOp == codegen.OpMulAcc:
				seen["ACCUM MULACC"] = true
			case u.Op == codegen.OpExp2 && len(u.Src) > 1:
				seen[fmt.Sprintf("EXP2 of %d", len(u.Src))] = true
			}
		}
		check(t, k)
	}
	a := kt.Must(shape.FromInts(16, 1, 24).ExpandInts([]int{16, 70, 24}))
	b := kt.Must(kt.Must(kt.Must(shape.FromInts(24, 70).Permute([]int{1, 0})).ReshapeInts([]int{1, 70, 24})).ExpandInts([]int{16, 70, 24}))
	mm := kt.Reduce(codegen.OpAdd, f32, []int{2}, kt.Op(codegen.OpMul, f32, kt.Load(1, f32, a), kt.Load(2, f32, b)))
	note(kt.Kernel(shape.FromInts(16, 70, 1), mm, kt.Spec(f32, 16*24), kt.Spec(f32, 24*70)))
	s := shape.FromInts(37, 300)
	x2 := kt.Op(codegen.OpMul, f32, kt.Load(1, f32, s), kt.Load(2, f32, s))
	note(kt.Kernel(s, kt.Op(codegen.OpAdd, f32, x2, kt.Load(3, f32, s)), kt.Spec(f32, 37*300), kt.Spec(f32, 37*300), kt.Spec(f32, 37*300)))
	for _, d := range []codegen.DType{f32, codegen.Float16} {
		col := kt.Must(shape.FromInts(37, 1).ExpandInts([]int{37, 300}))
		c := kt.Const(1.4426950408889634, d, kt.Must(shape.FromInts(1, 1).ExpandInts([]int{37, 300})))
		x, m := kt.Load(1, d, s), kt.Load(2, d, col)
		exp2 := func(v *codegen.Node) *codegen.Node { return kt.Op(codegen.OpExp2, d, v) }
		mul := func(a, b *codegen.Node) *codegen.Node { return kt.Op(codegen.OpMul, d, a, b) }
		for _, v := range []*codegen.Node{
			exp2(mul(kt.Op(codegen.OpSub, d, x, m), c)),
			exp2(mul(c, kt.Op(codegen.OpAdd, d, m, x))),
			exp2(mul(x, c)),
		} {
			note(kt.Kernel(s, v, kt.Spec(d, 37*300), kt.Spec(d, 37)))
		}
	}
	for _, want := range []string{"MULACC", "ACCUM MULACC", "EXP2 of 2", "EXP2 of 3"} {
		if !seen[want] {
			t.Errorf("no %s in the lowered kernels: the test no longer covers it", want)
		}
	}
}

// TestClip checks the reference device's clipped loops (codegen.OptClip)
// against the oracle and the unclipped program's bits.
func TestClip(t *testing.T) {
	d, _ := devices.Open("REF", devices.Options{})
	kt.CheckClip(t, optionSets, d.Compile)
}
