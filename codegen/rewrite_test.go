package codegen

import (
	"strings"
	"testing"

	"tiny/shape"
)

// TestMulAcc checks that a matmul's products are folded by multiply-add
// ACCUMs (no MUL left), that x*w+b is one MULACC, and that both renderers
// fuse it (one rounding).
func TestMulAcc(t *testing.T) {
	p := lower(t, matmulKernel(64, 96, 40), Options{})
	accums := 0
	for _, u := range p.UOps {
		if u.Op == OpAccum && u.ReduceOp == OpMulAcc && len(u.Src) == 4 {
			accums++
		}
	}
	if accums == 0 || floats(p, OpMul) != 0 {
		t.Errorf("want multiply-add ACCUMs and no MUL\n%s", p)
	}
	if !strings.Contains(p.String(), "ACCUM        : float32 [") || !strings.Contains(p.String(), "MULACC") {
		t.Errorf("the listing does not say MULACC\n%s", p)
	}
	if c := RenderC(p); !strings.Contains(c, "tiny_fma8(") {
		t.Errorf("C does not fuse the tile's multiply-adds\n%s", c)
	}
	s := shape.FromInts(256)
	k := &Kernel{AST: store(Float32, s, alu(OpAdd, Float32, alu(OpMul, Float32, load(1, Float32, s), load(2, Float32, s)), load(3, Float32, s))),
		Bufs: []BufSpec{{Float32, 256}, {Float32, 256}, {Float32, 256}, {Float32, 256}}}
	q := lower(t, k, Options{})
	if count(q, OpMulAcc) != 1 || floats(q, OpMul) != 0 || floats(q, OpAdd) != 0 {
		t.Errorf("want one MULACC for x*w+b\n%s", q)
	}
	if c := RenderC(q); !strings.Contains(c, "__builtin_fmaf(") {
		t.Errorf("C does not render the multiply-add fused\n%s", c)
	}
	cl, err := RenderCL(q, CLTarget{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cl.Source, "FP_CONTRACT OFF") || !strings.Contains(cl.Source, "fma(") {
		t.Errorf("OpenCL C must fuse the multiply-add and contract nothing else\n%s", cl.Source)
	}
}

// TestFoldExp2 checks that softmax's exp2((x - max) * log2(e)) is one EXP2
// of three operands, and exp2(x * c) one of two.
func TestFoldExp2(t *testing.T) {
	s := shape.FromInts(64, 128)
	c := &Node{Op: OpConst, DType: Float32, Val: 1.4426950408889634, ST: must(shape.FromInts(1, 1).ExpandInts([]int{64, 128}))}
	// y is the row's maximum, as softmax loads it.
	y := load(2, Float32, must(shape.FromInts(64, 1).ExpandInts([]int{64, 128})))
	k := &Kernel{AST: store(Float32, s, alu(OpExp2, Float32, alu(OpMul, Float32, alu(OpSub, Float32, load(1, Float32, s), y), c))),
		Bufs: []BufSpec{{Float32, 64 * 128}, {Float32, 64 * 128}, {Float32, 64}}}
	p := lower(t, k, Options{NoMerge: true})
	var e *UOp
	for i := range p.UOps {
		if p.UOps[i].Op == OpExp2 {
			e = &p.UOps[i]
		}
	}
	if e == nil || len(e.Src) != 3 || e.ReduceOp != OpSub || floats(p, OpMul) != 0 || floats(p, OpSub) != 0 {
		t.Fatalf("want EXP2 [x, y, c] SUB\n%s", p)
	}
	if src := RenderC(p); !strings.Contains(src, "tiny_exp2fs((") || !strings.Contains(src, ", 1.442695f, 1.925963e-08f)") {
		t.Errorf("C lacks the folded argument\n%s", src)
	}
	k2 := &Kernel{AST: store(Float32, s, alu(OpExp2, Float32, alu(OpMul, Float32, load(1, Float32, s), c))),
		Bufs: []BufSpec{{Float32, 64 * 128}, {Float32, 64 * 128}}}
	if p2 := lower(t, k2, Options{}); floats(p2, OpMul) != 0 || !strings.Contains(p2.String(), "EXP2") {
		t.Errorf("want EXP2 [x, c]\n%s", p2)
	}
	// exp2((x*2 + 1) * c): the ADD folds into the EXP2, and its MUL, now
	// the EXP2's operand, must stay (no MULACC of the folded ADD).
	two := &Node{Op: OpConst, DType: Float32, Val: 2, ST: c.ST}
	one := &Node{Op: OpConst, DType: Float32, Val: 1, ST: c.ST}
	k3 := &Kernel{AST: store(Float32, s, alu(OpExp2, Float32, alu(OpMul, Float32, alu(OpAdd, Float32, alu(OpMul, Float32, load(1, Float32, s), two), one), c))),
		Bufs: []BufSpec{{Float32, 64 * 128}, {Float32, 64 * 128}}}
	if p3 := lower(t, k3, Options{}); floats(p3, OpMul) != 1 || count(p3, OpMulAcc) != 0 {
		t.Errorf("want EXP2 [x*2, 1, c]\n%s", p3)
	}
}

// TestFoldPow checks that exp2(log2(x) * c), Tensor.Pow's general path,
// becomes one EXP2 [x, c] with ReduceOp LOG2 (and no LOG2 left) that the
// renderers compute with the logarithm unrounded, that the rewrite is
// recorded as POW and can be skipped, and that a LOG2 used twice, or a
// float64 kernel, is left as it was.
func TestFoldPow(t *testing.T) {
	s := shape.FromInts(64, 128)
	cst := func(d DType, v float64) *Node {
		return &Node{Op: OpConst, DType: d, Val: v, ST: must(shape.FromInts(1, 1).ExpandInts([]int{64, 128}))}
	}
	powK := func(d DType) *Kernel {
		return &Kernel{AST: store(d, s, alu(OpExp2, d, alu(OpMul, d, alu(OpLog2, d, load(1, d, s)), cst(d, 1.3)))),
			Bufs: []BufSpec{{d, 64 * 128}, {d, 64 * 128}}}
	}
	p := lower(t, powK(Float32), Options{})
	var e *UOp
	for i := range p.UOps {
		if p.UOps[i].Op == OpExp2 {
			e = &p.UOps[i]
		}
	}
	if e == nil || len(e.Src) != 2 || e.ReduceOp != OpLog2 || count(p, OpLog2) != 0 || floats(p, OpMul) != 0 {
		t.Fatalf("want EXP2 [x, c] LOG2 and no LOG2 or MUL\n%s", p)
	}
	if !strings.Contains(p.Opts.String(), "POW(1)") {
		t.Errorf("Opts %s do not record POW(1)", p.Opts)
	}
	if src := RenderC(p); !strings.Contains(src, "tiny_exp2l2f(") || !strings.Contains(src, ", 1.3f, 0.0f)") {
		t.Errorf("C lacks the folded pow\n%s", src)
	}
	for _, fp64 := range []bool{true, false} {
		cl, err := RenderCL(p, CLTarget{FP64: fp64})
		if err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{true: "log2((double)x)", false: "tiny_exp2fs(log2(x), hi, lo)"}[fp64]
		if !strings.Contains(cl.Source, "tiny_exp2l2f(") || !strings.Contains(cl.Source, want) {
			t.Errorf("OpenCL C (fp64 %v) lacks the folded pow\n%s", fp64, cl.Source)
		}
	}
	if q := lower(t, powK(Float32), Options{Skip: []OptOp{OptPow}}); count(q, OpLog2) != 1 || strings.Contains(q.Opts.String(), "POW") {
		t.Errorf("skipping POW left\n%s", q)
	}
	if q := lower(t, powK(Float64), Options{}); count(q, OpLog2) != 1 {
		t.Errorf("a float64 pow folded\n%s", q)
	}
	// The logarithm also stored: it stays, and so does the EXP2's own operand.
	x := load(1, Float32, s)
	lg := alu(OpLog2, Float32, x)
	two := &Kernel{AST: store(Float32, s, alu(OpAdd, Float32, alu(OpExp2, Float32, alu(OpMul, Float32, lg, cst(Float32, 1.3))), lg)),
		Bufs: []BufSpec{{Float32, 64 * 128}, {Float32, 64 * 128}}}
	if q := lower(t, two, Options{}); count(q, OpLog2) != 1 || strings.Contains(q.Opts.String(), "POW") {
		t.Errorf("a LOG2 used twice folded\n%s", q)
	}
}

// floats counts the uops of p with op and a float dtype.
func floats(p *Program, op Op) int {
	n := 0
	for _, u := range p.UOps {
		if u.Op == op && u.DType.IsFloat() {
			n++
		}
	}
	return n
}
