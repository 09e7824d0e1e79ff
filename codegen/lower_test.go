package codegen

import (
	"strings"
	"testing"

	"tiny/shape"
)

func st(t testing.TB, s ...int) shape.Tracker { return shape.FromInts(s...) }

func load(buf int, d DType, st shape.Tracker) *Node {
	return &Node{Op: OpLoad, DType: d, Buf: buf, ST: st}
}

func store(d DType, st shape.Tracker, v *Node) *Node {
	return &Node{Op: OpStore, DType: d, Buf: 0, ST: st, Src: []*Node{v}}
}

func alu(op Op, d DType, src ...*Node) *Node { return &Node{Op: op, DType: d, Src: src} }

func TestLowerAdd(t *testing.T) {
	s := st(t, 4096, 4096)
	k := &Kernel{AST: store(Float32, s, alu(OpAdd, Float32, load(1, Float32, s), load(2, Float32, s))),
		Bufs: []BufSpec{{Float32, 1 << 24}, {Float32, 1 << 24}, {Float32, 1 << 24}}}
	p, err := Lower(k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + p.String())
	if p.Name != "E_16777216" || p.Global != 1<<24 {
		t.Errorf("name %s global %d", p.Name, p.Global)
	}
	if n := strings.Count(p.String(), "RANGE"); n != 2 {
		t.Errorf("want one loop, got\n%s", p)
	}
}

func TestLowerReduce(t *testing.T) {
	full, out := st(t, 4096, 4096), st(t, 4096, 1)
	k := &Kernel{AST: store(Float32, out, &Node{Op: OpReduce, DType: Float32, ReduceOp: OpAdd, Axes: []int{1}, Src: []*Node{load(1, Float32, full)}}),
		Bufs: []BufSpec{{Float32, 4096}, {Float32, 1 << 24}}}
	p, err := Lower(k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + p.String())
	out = st(t, 1, 4096)
	k = &Kernel{AST: store(Float32, out, &Node{Op: OpReduce, DType: Float32, ReduceOp: OpAdd, Axes: []int{0}, Src: []*Node{load(1, Float32, full)}}),
		Bufs: []BufSpec{{Float32, 4096}, {Float32, 1 << 24}}}
	p, err = Lower(k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + p.String())
}
