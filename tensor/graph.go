package tensor

import (
	"fmt"
	"strings"

	"tiny/codegen"
	"tiny/shape"
)

// GraphNode is a node of a tensor's lazy graph as Graph returns it: what
// it is (Kind: "buffer", "const", "alu", "reduce", "contiguous" or
// "view"), its op or value, its shape and dtype, a view's tracker, and
// the indices of the nodes it reads.
type GraphNode struct {
	Kind, Op, Shape, DType string
	ST                     shape.Tracker
	Srcs                   []int
}

// Graph returns the lazy graph t would realize, t's own node first, each
// node once: what tinygrad's GRAPH=1 draws. A realized tensor is one
// buffer node.
func (t *Tensor) Graph() []GraphNode {
	var out []GraphNode
	index := map[*lazy]int{}
	var visit func(n *lazy) int
	visit = func(n *lazy) int {
		if i, ok := index[n]; ok {
			return i
		}
		i := len(out)
		index[n] = i
		g := GraphNode{Shape: FormatShape(n.shape), DType: n.dtype.String()}
		var srcs []*lazy
		switch n.kind {
		case kBuffer:
			g.Kind, g.Op = "buffer", "BUFFER"
		case kConst:
			g.Kind, g.Op = "const", "CONST "+codegen.FormatConst(n.val, n.dtype)
		case kElementwise:
			g.Kind, g.Op, srcs = "alu", n.op.String(), n.src
		case kReduce:
			axes := strings.Trim(fmt.Sprint(n.axes), "[]")
			g.Kind, g.Op, srcs = "reduce", fmt.Sprintf("REDUCE %s (%s)", n.op, axes), n.src
		case kContiguous:
			g.Kind, g.Op, srcs = "contiguous", "CONTIGUOUS", n.src
		case kView:
			g.Kind, g.Op, g.ST, srcs = "view", "VIEW", n.st, []*lazy{n.base}
		case kGather:
			g.Kind, g.Op, srcs = "gather", fmt.Sprintf("GATHER (%d)", n.axes[0]), n.src
		case kScatter:
			g.Kind, g.Op, srcs = "scatter", fmt.Sprintf("SCATTER (%d)", n.axes[0]), n.src
		}
		out = append(out, g)
		for _, s := range srcs {
			j := visit(s)
			out[i].Srcs = append(out[i].Srcs, j)
		}
		return i
	}
	visit(t.n)
	return out
}

// ElementStrings returns the elements at the given row-major offsets,
// formatted as String prints them. It realizes t.
func (t *Tensor) ElementStrings(offs []int) []string { return t.pickStrings(offs) }
