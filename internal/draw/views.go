package draw

import (
	"fmt"
	"strconv"
	"strings"
)

// Panel is one view drawn as a grid: a cell per index of Shape, showing
// the element it reads (Reads, row-major over Shape; -1 for a masked
// cell, which reads nothing). Size is how many elements the reads index
// into, for coloring; Title and Notes are written above the grid.
type Panel struct {
	Title string
	Notes []string
	Shape []int
	Reads []int
	Size  int
}

// Cell limits: a bigger view shows its first rows and columns and says so.
const (
	maxRows = 24
	maxCols = 24
	cell    = 30.0
	gap     = 24.0
)

// Views draws panels side by side, each a grid of its shape's indices: a
// 0-d shape is one cell, 1-d one row, 2-d rows and columns, and more
// dimensions stack their leading ones as rows, with a thicker line between
// blocks of the second last. Each cell shows the element it reads on a
// color of that element, so that repeated reads (stride 0) stand out;
// masked cells are grey and crossed.
func Views(panels []Panel) []byte {
	s := &svg{}
	x := gap
	for _, p := range panels {
		w, h := drawPanel(s, x, gap, p)
		x += w + gap
		s.h = max(s.h, h+2*gap)
	}
	s.w = x
	return s.bytes()
}

// grid2 returns the rows and columns of shape's grid and the rows per
// block of the second last dimension.
func grid2(shape []int) (rows, cols, block int) {
	switch len(shape) {
	case 0:
		return 1, 1, 1
	case 1:
		return 1, shape[0], 1
	}
	rows = 1
	for _, d := range shape[:len(shape)-1] {
		rows *= d
	}
	return rows, shape[len(shape)-1], shape[len(shape)-2]
}

func drawPanel(s *svg, x0, y0 float64, p Panel) (w, h float64) {
	rows, cols, block := grid2(p.Shape)
	shownR, shownC := min(rows, maxRows), min(cols, maxCols)
	lines := append([]string{p.Title}, p.Notes...)
	if shownR < rows || shownC < cols {
		lines = append(lines, fmt.Sprintf("(first %d×%d of %d×%d cells)", shownR, shownC, rows, cols))
	}
	y := y0
	textW := 0.0
	for i, l := range lines {
		size, fill := 12.0, "#333"
		if i == 0 {
			size, fill = 14, "#000"
		}
		y += size + 4
		s.text(x0, y, "start", size, fill, l)
		textW = max(textW, float64(len([]rune(l)))*size*0.62)
	}
	y += 10
	left := x0 + 34 // room for row labels
	for c := 0; c < shownC; c++ {
		s.text(left+float64(c)*cell+cell/2, y+10, "middle", 10, "#888", strconv.Itoa(c))
	}
	y += 16
	for r := 0; r < shownR; r++ {
		cy := y + float64(r)*cell
		s.text(left-6, cy+cell/2+4, "end", 10, "#888", rowLabel(r, p.Shape))
		for c := 0; c < shownC; c++ {
			cx := left + float64(c)*cell
			i := r*cols + c
			read := -1
			if i < len(p.Reads) {
				read = p.Reads[i]
			}
			if read < 0 {
				s.rect(cx, cy, cell, cell, "#e4e4e4", "#999")
				s.printf(`<path d="M%.1f %.1fl%.1f %.1fM%.1f %.1fl%.1f %.1f" stroke="#bbb"/>`+"\n", cx+4, cy+4, cell-8, cell-8, cx+cell-4, cy+4, -(cell - 8), cell-8)
				continue
			}
			s.rect(cx, cy, cell, cell, hue(read, p.Size), "#666")
			s.text(cx+cell/2, cy+cell/2+4, "middle", 11, "#000", strconv.Itoa(read))
		}
		if block > 1 && (r+1)%block == 0 && r+1 < shownR {
			s.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#000" stroke-width="3"/>`+"\n", left, cy+cell, left+float64(shownC)*cell, cy+cell)
		}
	}
	w = max(textW, 34+float64(shownC)*cell)
	return w, y + float64(shownR)*cell - y0
}

// rowLabel names row r of shape's grid by its leading indices.
func rowLabel(r int, shape []int) string {
	if len(shape) < 2 {
		return ""
	}
	lead := shape[:len(shape)-1]
	idx := make([]string, len(lead))
	for i := len(lead) - 1; i >= 0; i-- {
		idx[i] = strconv.Itoa(r % lead[i])
		r /= lead[i]
	}
	return strings.Join(idx, ",")
}
