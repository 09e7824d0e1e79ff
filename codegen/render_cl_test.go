package codegen

import (
	"math"
	"strings"
	"testing"

	"tiny/shape"
)

// pocl is the CLTarget of the pthread pocl device this was written on.
var pocl = CLTarget{ComputeUnits: 2, MaxWorkGroup: 4096, LocalMem: 512 << 10, FP64: true}

func clLower(t *testing.T, root *Node, bufs ...BufSpec) *Program {
	t.Helper()
	k := &Kernel{AST: root, Bufs: bufs}
	k.Name = KernelName(k)
	p, err := Lower(k, Options{NoReorder: true, NoSplit: true})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCLConst(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		d    DType
		want string
	}{
		{2, Float32, "2.0f"}, {-0.5, Float64, "(-0.5)"}, {math.Inf(-1), Float32, "(-(float)INFINITY)"},
		{math.NaN(), Float64, "((double)NAN)"}, {math.MinInt32, Int32, "(-2147483647-1)"},
		{math.MinInt64, Int64, "(-9223372036854775807L-1)"}, {7, Index, "7"}, {1 << 40, Int64, "(1099511627776L)"}, {1, Bool, "1"},
	} {
		if got := clConst(tc.v, tc.d); got != tc.want {
			t.Errorf("clConst(%v, %s) = %s, want %s", tc.v, tc.d, got, tc.want)
		}
	}
}

// TestRenderCLModes checks how loop nests meet work-items: output loops as
// NDRange dimensions, a few long rows as work-groups combining in local
// memory, a whole-tensor sum as partials and a finishing kernel.
func TestRenderCLModes(t *testing.T) {
	s := shape.FromInts(64, 33)
	ew := clLower(t, cStore(s, &Node{Op: OpNeg, DType: Float32, Src: []*Node{cLoad(1, s)}}), BufSpec{Float32, 64 * 33}, BufSpec{Float32, 64 * 33})
	rows := clLower(t, cStore(shape.FromInts(4, 1), &Node{Op: OpReduce, DType: Float32, ReduceOp: OpAdd, Axes: []int{1}, Src: []*Node{cLoad(1, shape.FromInts(4, 100000))}}),
		BufSpec{Float32, 4}, BufSpec{Float32, 400000})
	all := clLower(t, cStore(shape.FromInts(1, 1), &Node{Op: OpReduce, DType: Float32, ReduceOp: OpAdd, Axes: []int{0, 1}, Src: []*Node{cLoad(1, shape.FromInts(4, 100000))}}),
		BufSpec{Float32, 1}, BufSpec{Float32, 400000})
	for _, tc := range []struct {
		p       *Program
		mode    string
		kernels int
		has     []string
	}{
		{ew, "map", 1, []string{"get_global_id(0)", "return;"}},
		{rows, "map", 1, []string{"get_group_id(0)", "barrier(CLK_LOCAL_MEM_FENCE)", "__local uchar* lmem", "if (lid == 0)"}},
		{all, "split", 2, []string{"_p(", "_f(", "get_num_groups(0)", "for (long g = 0; g < ngrp; g++)"}},
	} {
		c, err := RenderCL(tc.p, pocl)
		if err != nil {
			t.Fatal(err)
		}
		if c.Mode != tc.mode || len(c.Kernels) != tc.kernels {
			t.Errorf("%s: mode %s with %d kernels, want %s with %d\n%s", tc.p.Name, c.Mode, len(c.Kernels), tc.mode, tc.kernels, c.Source)
		}
		for _, want := range tc.has {
			if !strings.Contains(c.Source, want) {
				t.Errorf("%s: source lacks %q:\n%s", tc.p.Name, want, c.Source)
			}
		}
	}
}

// TestRenderCLFloat64 checks that a float64 kernel fails clearly on a
// device without cl_khr_fp64, and enables the extension where it has it.
func TestRenderCLFloat64(t *testing.T) {
	s := shape.FromInts(8)
	ld := &Node{Op: OpLoad, DType: Float64, Buf: 1, ST: s}
	p := clLower(t, cStore(s, &Node{Op: OpSqrt, DType: Float64, Src: []*Node{ld}}), BufSpec{Float64, 8}, BufSpec{Float64, 8})
	if _, err := RenderCL(p, CLTarget{ComputeUnits: 1, MaxWorkGroup: 256, LocalMem: 32 << 10}); err == nil || !strings.Contains(err.Error(), "cl_khr_fp64") {
		t.Errorf("err = %v, want one naming cl_khr_fp64", err)
	}
	c, err := RenderCL(p, pocl)
	if err != nil || !strings.Contains(c.Source, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable") {
		t.Errorf("err %v, source:\n%v", err, c)
	}
}
