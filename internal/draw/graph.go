package draw

import "fmt"

// Node is a box of a graph: a label, a second line of detail, a kind that
// picks its color, and the indices of the nodes it reads (drawn below it).
type Node struct {
	Label, Detail, Kind string
	Srcs                []int
}

// kindColors are the fills of node kinds, after tinygrad's graph colors:
// loads and buffers blue, constants grey, ALU ops beige, reductions and
// movement tints of their own, stores and outputs green.
var kindColors = map[string]string{
	"load": "#cfe2ff", "buffer": "#cfe2ff", "const": "#e9ecef", "alu": "#fff3cd",
	"reduce": "#f8d7da", "view": "#e2d9f3", "store": "#d1e7dd", "cast": "#ffe5d0",
}

const (
	boxW, boxH = 190.0, 42.0
	hGap, vGap = 18.0, 46.0
	maxNodes   = 300
)

// Graph draws nodes as boxes in layers, each node above the nodes it
// reads, with an arrow from each source up to its reader: an AST is drawn
// as the tree tinygrad prints at DEBUG=2, a lazy graph as GRAPH=1 shows
// it. Node 0 and any node nobody reads are the roots, at the top. title is
// written above.
func Graph(title string, nodes []Node) []byte {
	s := &svg{}
	if len(nodes) > maxNodes {
		title += fmt.Sprintf(" (first %d of %d nodes)", maxNodes, len(nodes))
		nodes = nodes[:maxNodes]
	}
	depth := make([]int, len(nodes))
	for i := range depth {
		depth[i] = -1
	}
	read := make([]bool, len(nodes))
	for _, n := range nodes {
		for _, j := range n.Srcs {
			if j >= 0 && j < len(nodes) {
				read[j] = true
			}
		}
	}
	// Each node goes one layer below the lowest of its readers (the
	// longest path from a root), relaxed in topological order; within a
	// layer, nodes keep the order a depth-first walk meets them, so that
	// operands read left to right.
	var order, post []int
	seen := make([]bool, len(nodes))
	var visit func(i int)
	visit = func(i int) {
		seen[i] = true
		order = append(order, i)
		for _, j := range nodes[i].Srcs {
			if j >= 0 && j < len(nodes) && !seen[j] {
				visit(j)
			}
		}
		post = append(post, i)
	}
	for i := range nodes {
		if (i == 0 || !read[i]) && !seen[i] {
			visit(i)
			depth[i] = 0
		}
	}
	for k := len(post) - 1; k >= 0; k-- {
		i := post[k]
		if depth[i] < 0 {
			depth[i] = 0
		}
		for _, j := range nodes[i].Srcs {
			if j >= 0 && j < len(nodes) && seen[j] {
				depth[j] = max(depth[j], depth[i]+1)
			}
		}
	}
	var layers [][]int
	for _, i := range order {
		for len(layers) <= depth[i] {
			layers = append(layers, nil)
		}
		layers[depth[i]] = append(layers[depth[i]], i)
	}
	widest := 0
	for _, l := range layers {
		widest = max(widest, len(l))
	}
	s.w = max(float64(widest)*(boxW+hGap)+hGap, float64(len(title))*8+2*hGap)
	top := 40.0
	s.h = top + float64(len(layers))*(boxH+vGap)
	s.text(hGap, 24, "start", 14, "#000", title)
	x := make([]float64, len(nodes))
	y := make([]float64, len(nodes))
	for d, l := range layers {
		left := (s.w - float64(len(l))*(boxW+hGap) + hGap) / 2
		for k, i := range l {
			x[i] = left + float64(k)*(boxW+hGap)
			y[i] = top + float64(d)*(boxH+vGap)
		}
	}
	s.printf(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0L10 5L0 10z" fill="#555"/></marker></defs>` + "\n")
	for i, n := range nodes {
		if depth[i] < 0 {
			continue
		}
		for _, j := range n.Srcs {
			if j < 0 || j >= len(nodes) || depth[j] < 0 {
				continue
			}
			x1, y1 := x[j]+boxW/2, y[j]
			x2, y2 := x[i]+boxW/2, y[i]+boxH
			mid := (y1 + y2) / 2
			s.printf(`<path d="M%.1f %.1fC%.1f %.1f %.1f %.1f %.1f %.1f" fill="none" stroke="#555" marker-end="url(#arrow)"/>`+"\n", x1, y1, x1, mid, x2, mid, x2, y2+1)
		}
	}
	for i, n := range nodes {
		if depth[i] < 0 {
			continue
		}
		fill, ok := kindColors[n.Kind]
		if !ok {
			fill = "#ffffff"
		}
		s.printf(`<rect x="%.1f" y="%.1f" width="%.0f" height="%.0f" rx="6" fill="%s" stroke="#444"/>`+"\n", x[i], y[i], boxW, boxH, fill)
		s.text(x[i]+boxW/2, y[i]+17, "middle", 12, "#000", clip(n.Label, 26))
		s.text(x[i]+boxW/2, y[i]+33, "middle", 10, "#444", clip(n.Detail, 29))
	}
	return s.bytes()
}
