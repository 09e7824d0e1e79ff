package interp

import (
	"fmt"
	"html"
	"strings"

	"tiny/lang"
	"tiny/tensor"
)

// This file shows a tensor as an HTML table in a notebook: a header with
// its shape, dtype and device, then its elements, elided as NumPy prints
// them (more than 1000 elements: the first and last 3 of every axis around
// "…"). A 0-d tensor is one cell, a vector one row, a matrix rows and
// columns; more dimensions give one matrix per index of the leading ones,
// each captioned with that index.

const (
	htmlThreshold = 1000
	htmlEdge      = 3
)

func init() {
	formers = append(formers, func(it *Interp, pos lang.Pos, v Value, out *Output) bool {
		t, ok := v.(*TensorValue)
		if ok {
			out.Data[MIMEHTML] = []byte(tensorHTML(t.t))
		}
		return ok
	})
}

// shownIndices returns the indices of an axis of length n that are shown,
// with -1 where "…" stands for the elided ones.
func shownIndices(n int, elide bool) []int {
	var out []int
	if elide && n > 2*htmlEdge {
		for i := 0; i < htmlEdge; i++ {
			out = append(out, i)
		}
		out = append(out, -1)
		for i := n - htmlEdge; i < n; i++ {
			out = append(out, i)
		}
		return out
	}
	for i := 0; i < n; i++ {
		out = append(out, i)
	}
	return out
}

func tensorHTML(t *tensor.Tensor) string {
	shp := t.Shape()
	elide := t.Numel() > htmlThreshold
	axes := make([][]int, len(shp))
	for i, n := range shp {
		axes[i] = shownIndices(n, elide)
	}
	// The row-major offsets of the shown elements, read in one go.
	strides := make([]int, len(shp))
	acc := 1
	for i := len(shp) - 1; i >= 0; i-- {
		strides[i] = acc
		acc *= shp[i]
	}
	index := map[int]int{}
	var offs []int
	var walk func(axis, off int)
	walk = func(axis, off int) {
		if axis == len(shp) {
			index[off] = len(offs)
			offs = append(offs, off)
			return
		}
		for _, i := range axes[axis] {
			if i >= 0 {
				walk(axis+1, off+i*strides[axis])
			}
		}
	}
	if t.Numel() > 0 {
		walk(0, 0)
	}
	strs := t.ElementStrings(offs)
	elem := func(off int) string { return strs[index[off]] }

	var b strings.Builder
	b.WriteString(`<div class="tiny-tensor">`)
	fmt.Fprintf(&b, `<div style="font-family:monospace;color:#555;margin-bottom:2px">tensor · shape %s · %s · %s</div>`,
		html.EscapeString(tensor.FormatShape(shp)), t.DType(), html.EscapeString(t.Device()))
	const table = `<table style="border-collapse:collapse;font-family:monospace;text-align:right;margin:2px 0">`
	const cellStyle = ` style="border:1px solid #ccc;padding:1px 6px"`
	const headStyle = ` style="border:1px solid #ccc;padding:1px 6px;background:#f3f3f3;color:#777"`
	matrix := func(off int, rows, cols []int, rowStride, colStride int, caption string) {
		b.WriteString(table)
		if caption != "" {
			fmt.Fprintf(&b, `<caption style="text-align:left;color:#777">%s</caption>`, html.EscapeString(caption))
		}
		b.WriteString("<tr><th" + headStyle + "></th>")
		for _, c := range cols {
			fmt.Fprintf(&b, "<th%s>%s</th>", headStyle, label(c))
		}
		b.WriteString("</tr>")
		for _, r := range rows {
			fmt.Fprintf(&b, "<tr><th%s>%s</th>", headStyle, label(r))
			for _, c := range cols {
				if r < 0 || c < 0 {
					fmt.Fprintf(&b, "<td%s>…</td>", cellStyle)
					continue
				}
				fmt.Fprintf(&b, "<td%s>%s</td>", cellStyle, html.EscapeString(elem(off+r*rowStride+c*colStride)))
			}
			b.WriteString("</tr>")
		}
		b.WriteString("</table>")
	}
	switch n := len(shp); {
	case t.Numel() == 0:
		b.WriteString(`<div style="font-family:monospace">(no elements)</div>`)
	case n == 0:
		matrix(0, []int{0}, []int{0}, 0, 0, "")
	case n == 1:
		matrix(0, []int{0}, axes[0], 0, 1, "")
	default:
		var lead func(axis, off int, idx []string)
		lead = func(axis, off int, idx []string) {
			if axis == n-2 {
				caption := ""
				if len(idx) > 0 {
					caption = "[" + strings.Join(idx, ", ") + ", :, :]"
				}
				matrix(off, axes[n-2], axes[n-1], strides[n-2], strides[n-1], caption)
				return
			}
			for _, i := range axes[axis] {
				if i < 0 {
					b.WriteString(`<div style="font-family:monospace;color:#777">…</div>`)
					continue
				}
				lead(axis+1, off+i*strides[axis], append(idx, fmt.Sprint(i)))
			}
		}
		lead(0, 0, nil)
	}
	b.WriteString("</div>")
	return b.String()
}

// label is an index as a table header: "…" for the elided ones.
func label(i int) string {
	if i < 0 {
		return "…"
	}
	return fmt.Sprint(i)
}
