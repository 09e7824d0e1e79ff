package codegen

import "math"

// This file defines the builder that collects uops while a kernel is lowered:
// it keeps them in nested loop scopes, merges identical pure uops, and hoists
// each pure uop to the outermost open loop it depends on, so that a device
// computes loop-invariant values once per iteration of their own loop.

// bnode is one uop while the program is being built.
type bnode struct {
	u     UOp
	src   []*bnode
	depth int // the scope the uop lives in: 0 is the top level
	pos   int // its position in the linear program
}

// bitem is one entry of a scope: a uop, or a loop whose RANGE is n.
type bitem struct {
	n    *bnode
	loop *bscope
}

type bscope struct{ items []bitem }

// ukey identifies a pure uop for deduplication.
type ukey struct {
	op    Op
	dtype DType
	src   [4]*bnode
	val   uint64 // the value's bits: CONST -0.0 is not CONST 0.0
	buf   int
	name  string
}

type builder struct {
	stack []*bscope
	cse   map[ukey]*bnode
}

func newBuilder() *builder {
	return &builder{stack: []*bscope{{}}, cse: map[ukey]*bnode{}}
}

// pure returns the uop u over src, reusing an identical one when it exists.
// The uop is placed in the innermost scope any operand lives in, which may be
// outside the loop being built.
func (b *builder) pure(u UOp, src ...*bnode) *bnode {
	k := ukey{op: u.Op, dtype: u.DType, val: math.Float64bits(u.Val), buf: u.Buf, name: u.Name}
	if len(src) > len(k.src) {
		panic("internal error: uop with too many operands")
	}
	copy(k.src[:], src)
	if n, ok := b.cse[k]; ok {
		return n
	}
	n := &bnode{u: u, src: src}
	for _, s := range src {
		n.depth = max(n.depth, s.depth)
	}
	b.insert(n)
	b.cse[k] = n
	return n
}

// ordered appends u to the innermost open loop: for uops whose position
// matters (stores, accumulators and reads of accumulators).
func (b *builder) ordered(u UOp, src ...*bnode) *bnode {
	n := &bnode{u: u, src: src, depth: len(b.stack) - 1}
	for _, s := range src {
		if s.depth > n.depth {
			panic("internal error: uop uses a value of a closed loop")
		}
	}
	b.insert(n)
	return n
}

// insert puts n at the end of its scope, before the scope's open inner loop if it has one.
func (b *builder) insert(n *bnode) {
	s := b.stack[n.depth]
	if n.depth == len(b.stack)-1 {
		s.items = append(s.items, bitem{n: n})
		return
	}
	last := s.items[len(s.items)-1]
	s.items = append(s.items[:len(s.items)-1], bitem{n: n}, last)
}

// open starts a loop of size iterations and returns its RANGE uop, whose
// value is the loop variable.
func (b *builder) open(name string, size int, kind RangeKind) *bnode {
	start := b.pure(UOp{Op: OpConst, DType: Index, Val: 0})
	end := b.pure(UOp{Op: OpConst, DType: Index, Val: float64(size)})
	top := b.stack[len(b.stack)-1]
	inner := &bscope{}
	n := &bnode{u: UOp{Op: OpRange, DType: Index, Name: name, Kind: kind}, src: []*bnode{start, end}, depth: len(b.stack)}
	top.items = append(top.items, bitem{n: n, loop: inner})
	b.stack = append(b.stack, inner)
	return n
}

// openClipped starts a loop from lo to hi, values computed outside it that
// lie within [0, extent), and returns its RANGE uop (OptClip, clip.go).
func (b *builder) openClipped(name string, lo, hi *bnode, extent int, kind RangeKind) *bnode {
	top := b.stack[len(b.stack)-1]
	inner := &bscope{}
	n := &bnode{u: UOp{Op: OpRange, DType: Index, Name: name, Kind: kind, Val: float64(extent)}, src: []*bnode{lo, hi}, depth: len(b.stack)}
	top.items = append(top.items, bitem{n: n, loop: inner})
	b.stack = append(b.stack, inner)
	return n
}

// close ends the innermost open loop.
func (b *builder) close() { b.stack = b.stack[:len(b.stack)-1] }

// linearize returns the uops in program order, with ENDRANGE after each loop.
func (b *builder) linearize() []UOp {
	var out []UOp
	var walk func(s *bscope)
	emit := func(n *bnode) {
		n.pos = len(out)
		u := n.u
		u.Src = make([]int, len(n.src))
		for i, s := range n.src {
			u.Src[i] = s.pos
		}
		out = append(out, u)
	}
	walk = func(s *bscope) {
		for _, it := range s.items {
			emit(it.n)
			if it.loop != nil {
				walk(it.loop)
				out = append(out, UOp{Op: OpEnd, DType: Index, Src: []int{it.n.pos}})
			}
		}
	}
	walk(b.stack[0])
	return out
}
