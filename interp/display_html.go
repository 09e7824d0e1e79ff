package interp

import (
	"fmt"
	"html"
	"strings"

	"tiny/lang"
	"tiny/tensor"
)

// This file shows a tensor as an HTML table in a notebook: a header with
// its shape, dtype and device, then its elements, elided as print elides
// them (tensor.Shown: more than 1000 elements, the first and last 3 of
// every axis around "…"). A 0-d tensor is one cell, a vector one row, a
// matrix rows and columns; more dimensions give one matrix per index of the
// leading ones, each captioned with that index.

func init() {
	formers = append(formers, func(it *Interp, pos lang.Pos, v Value, out *Output) bool {
		t, ok := v.(*TensorValue)
		if ok {
			out.Data[MIMEHTML] = []byte(tensorHTML(t.t))
		}
		return ok
	})
}

func tensorHTML(t *tensor.Tensor) string {
	shp := t.Shape()
	axes, elems := t.Shown()
	strides := make([]int, len(shp))
	acc := 1
	for i := len(shp) - 1; i >= 0; i-- {
		strides[i] = acc
		acc *= shp[i]
	}
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
				fmt.Fprintf(&b, "<td%s>%s</td>", cellStyle, html.EscapeString(elems[off+r*rowStride+c*colStride]))
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
