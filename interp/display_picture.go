package interp

import (
	"fmt"
	"math"
	"strings"

	"tiny/codegen"
	"tiny/internal/draw"
	"tiny/lang"
	"tiny/shape"
	"tiny/symbolic"
	"tiny/tensor"
)

// This file defines the pictures: imshow (images as PNG), plot, scatter
// and hist (charts as SVG, or PNG with path="x.png"), and the diagrams a
// notebook shows for views and trackers (index grids), kernels and
// schedules (AST trees) and t.graph() (the lazy graph).

func init() {
	tensorBuiltins["imshow"] = imshow_
	tensorBuiltins["plot"] = func(it *Interp, c *call) Value { return it.chart(c, "line") }
	tensorBuiltins["scatter"] = func(it *Interp, c *call) Value { return it.chart(c, "scatter") }
	tensorBuiltins["hist"] = func(it *Interp, c *call) Value { return it.chart(c, "hist") }
	builtinDocs["imshow"] = `imshow(x, labels=none, cols=none, vmin=none, vmax=none, path=none) shows images: x is a
tensor of shape (H, W), (H, W, C) or (C, H, W) with C 1, 3 or 4, a batch (N, H, W), (N, C, H, W) or
(N, H, W, C), or a list of images. Values from vmin to vmax (default 0 to 1 for floats, 0 to 255 for
integers) go from black to white, clamped. labels names each image.`
	builtinDocs["plot"] = `plot(y) or plot(x, y, labels=, title=, xlabel=, ylabel=, path=) draws lines: y is a tensor or
list of numbers, a list of them (one line each) or a 2-D tensor (one line per column).`
	builtinDocs["scatter"] = `scatter(x, y, labels=, title=, xlabel=, ylabel=, path=) draws points.`
	builtinDocs["hist"] = `hist(x, bins=10, labels=, title=, xlabel=, ylabel=, path=) draws a histogram of x's values.`
	addMethods("tensor", map[string]methodFn{"graph": graphMethod})
	formers = append(formers, diagramForms)
}

// diagramForms adds the SVG of a view, a tracker, a kernel or a list of
// kernels (a schedule).
func diagramForms(it *Interp, pos lang.Pos, v Value, out *Output) bool {
	var svg []byte
	switch v := v.(type) {
	case *View:
		svg = draw.Views([]draw.Panel{it.viewPanel(pos, "view", v.v)})
	case *Tracker:
		svg = it.trackerSVG(pos, v.st)
	case Kernel:
		if v.k != nil {
			svg = draw.Graph("kernel "+v.k.Name, astNodes([]*codegen.Kernel{v.k}))
		}
	case *List:
		var ks []*codegen.Kernel
		for _, e := range v.elems {
			k, ok := e.(Kernel)
			if !ok || k.k == nil {
				return false
			}
			ks = append(ks, k.k)
		}
		if len(ks) == 0 {
			return false
		}
		out.Name = "schedule"
		svg = draw.Graph(fmt.Sprintf("schedule: %d kernel%s", len(ks), plural(len(ks))), astNodes(ks))
	}
	if svg == nil {
		return false
	}
	out.Data[MIMESVG] = svg
	return true
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ints returns the values of nodes, failing for a symbolic one.
func (it *Interp) ints(pos lang.Pos, ns []*symbolic.Node) []int {
	out := make([]int, len(ns))
	for i, n := range ns {
		v, ok := n.Int()
		if !ok {
			it.failf(pos, "cannot draw a view of symbolic shape %s", shape.Tuple(ns))
		}
		out[i] = int(v)
	}
	return out
}

// viewReads returns, for each index of v's shape in row-major order, the
// offset it reads (-1 where the mask hides it).
func (it *Interp) viewReads(pos lang.Pos, v shape.View) []int {
	shp := it.ints(pos, v.Shape)
	strides := it.ints(pos, v.Strides)
	off := it.ints(pos, []*symbolic.Node{v.Offset})[0]
	var lo, hi []int
	for _, m := range v.Mask {
		b := it.ints(pos, []*symbolic.Node{m[0], m[1]})
		lo, hi = append(lo, b[0]), append(hi, b[1])
	}
	n := 1
	for _, d := range shp {
		n *= d
	}
	if n > 1<<20 {
		it.failf(pos, "cannot draw a view of %d elements", n)
	}
	reads := make([]int, n)
	idx := make([]int, len(shp))
	for i := range reads {
		r := off
		for a, x := range idx {
			if lo != nil && (x < lo[a] || x >= hi[a]) {
				r = -1
				break
			}
			r += x * strides[a]
		}
		reads[i] = r
		for a := len(idx) - 1; a >= 0; a-- {
			if idx[a]++; idx[a] < shp[a] {
				break
			}
			idx[a] = 0
		}
	}
	return reads
}

// viewPanel is the panel of one view: its grid, and its shape, strides,
// offset and mask written above.
func (it *Interp) viewPanel(pos lang.Pos, title string, v shape.View) draw.Panel {
	reads := it.viewReads(pos, v)
	size := 0
	for _, r := range reads {
		size = max(size, r+1)
	}
	notes := []string{"shape " + shape.Tuple(v.Shape) + "  strides " + shape.Tuple(v.Strides), "offset " + v.Offset.Render()}
	if v.Mask != nil {
		var m []string
		for _, p := range v.Mask {
			m = append(m, "("+p[0].Render()+", "+p[1].Render()+")")
		}
		notes[1] += "  mask (" + strings.Join(m, ", ") + ")"
	}
	return draw.Panel{Title: title, Notes: notes, Shape: it.ints(pos, v.Shape), Reads: reads, Size: size}
}

// trackerSVG draws one panel per view, the first (next to the buffer) on
// the left; with several views, a last panel composes them: the buffer
// element each index of the tracker's shape reads.
func (it *Interp) trackerSVG(pos lang.Pos, st shape.Tracker) []byte {
	var panels []draw.Panel
	for i, v := range st.Views {
		title := fmt.Sprintf("view %d: reads the buffer", i)
		if i > 0 {
			title = fmt.Sprintf("view %d: reads view %d's indices", i, i-1)
		}
		if len(st.Views) == 1 {
			title = "shapetracker: one view"
		}
		panels = append(panels, it.viewPanel(pos, title, v))
	}
	if len(st.Views) > 1 {
		reads := panels[len(panels)-1].Reads
		composed := make([]int, len(reads))
		copy(composed, reads)
		for i := len(st.Views) - 2; i >= 0; i-- {
			inner := panels[i].Reads
			for k, r := range composed {
				if r >= 0 {
					if r < len(inner) {
						composed[k] = inner[r]
					} else {
						composed[k] = -1
					}
				}
			}
		}
		size := 0
		for _, r := range composed {
			size = max(size, r+1)
		}
		last := st.Views[len(st.Views)-1]
		panels = append(panels, draw.Panel{Title: fmt.Sprintf("all %d views: the buffer element read", len(st.Views)),
			Notes: []string{"shape " + shape.Tuple(last.Shape)}, Shape: it.ints(pos, last.Shape), Reads: composed, Size: size})
	}
	return draw.Views(panels)
}

// astNodes flattens kernels' ASTs into graph nodes, each shared node once.
func astNodes(ks []*codegen.Kernel) []draw.Node {
	var nodes []draw.Node
	index := map[*codegen.Node]int{}
	var visit func(x *codegen.Node, kernel string) int
	visit = func(x *codegen.Node, kernel string) int {
		if i, ok := index[x]; ok {
			return i
		}
		i := len(nodes)
		index[x] = i
		n := draw.Node{Label: x.Op.String(), Detail: x.DType.String(), Kind: "alu"}
		switch x.Op {
		case codegen.OpLoad, codegen.OpStore:
			n.Kind = map[codegen.Op]string{codegen.OpLoad: "load", codegen.OpStore: "store"}[x.Op]
			n.Detail = fmt.Sprintf("buf %d %s", x.Buf, stBrief(x.ST))
			if kernel != "" {
				n.Label += " " + kernel
			}
		case codegen.OpConst:
			n.Kind, n.Detail = "const", codegen.FormatConst(x.Val, x.DType)+" "+x.DType.String()
		case codegen.OpReduce:
			n.Kind, n.Label = "reduce", "REDUCE "+x.ReduceOp.String()
			n.Detail = "axes " + strings.Trim(fmt.Sprint(x.Axes), "[]")
		case codegen.OpCast:
			n.Kind = "cast"
		}
		nodes = append(nodes, n)
		for _, s := range x.Src {
			j := visit(s, "")
			nodes[i].Srcs = append(nodes[i].Srcs, j)
		}
		return i
	}
	for _, k := range ks {
		visit(k.AST, k.Name)
	}
	return nodes
}

// stBrief is a tracker in short: each view's shape and strides.
func stBrief(st shape.Tracker) string {
	var parts []string
	for _, v := range st.Views {
		p := shape.Tuple(v.Shape) + ":" + shape.Tuple(v.Strides)
		if v.Mask != nil {
			p += "m"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

// graphMethod is t.graph(): the lazy graph of t as a picture value.
func graphMethod(it *Interp, r Value, c *call) Value {
	it.unpack(c)
	g := recvT(r).Graph()
	nodes := make([]draw.Node, len(g))
	var text strings.Builder
	for i, n := range g {
		nodes[i] = draw.Node{Label: n.Op, Detail: n.Shape + " " + n.DType, Kind: n.Kind, Srcs: n.Srcs}
		op := n.Op
		switch n.Kind {
		case "contiguous":
			nodes[i].Kind = "store"
		case "view":
			nodes[i].Detail = stBrief(n.ST) + " " + n.DType
			op += " " + n.ST.String()
		}
		fmt.Fprintf(&text, "%3d %s %s %s <- %v\n", i, op, n.Shape, n.DType, n.Srcs)
	}
	return &Picture{kind: "graph", text: strings.TrimSuffix(text.String(), "\n"),
		data: map[string][]byte{MIMESVG: draw.Graph(fmt.Sprintf("lazy graph: %d node%s", len(g), plural(len(g))), nodes)}}
}

// kwMap returns the keyword arguments of c by name, failing for one
// not in names.
func (it *Interp) kwMap(c *call, names ...string) map[string]Value {
	kw := map[string]Value{}
	for _, k := range c.kw {
		ok := false
		for _, n := range names {
			ok = ok || n == k.name
		}
		if !ok {
			it.failf(c.pos, "%s: unexpected keyword argument %s", c.name, k.name)
		}
		kw[k.name] = k.value
	}
	return kw
}

func (it *Interp) kwString(c *call, kw map[string]Value, name string) string {
	v, ok := kw[name]
	if !ok || v == None {
		return ""
	}
	s, ok := v.(String)
	if !ok {
		it.failf(c.pos, "%s: %s must be a string, got %s", c.name, name, v.Type())
	}
	return string(s)
}

// labelsOf returns the strings of a list, tuple or tensor of labels.
func (it *Interp) labelsOf(c *call, v Value) []string {
	if v == nil || v == None {
		return nil
	}
	if s, ok := v.(String); ok {
		return []string{string(s)}
	}
	var out []string
	if t, ok := v.(*TensorValue); ok {
		shp := t.t.Shape()
		if len(shp) > 1 {
			it.failf(c.pos, "%s: labels must be 1-D, got shape %s", c.name, tensor.FormatShape(shp))
		}
		offs := make([]int, t.t.Numel())
		for i := range offs {
			offs[i] = i
		}
		return t.t.ElementStrings(offs)
	}
	seq, ok := v.(Sequence)
	if !ok {
		it.failf(c.pos, "%s: labels must be a list, got %s", c.name, v.Type())
	}
	for i := 0; i < seq.Len(); i++ {
		out = append(out, str(seq.At(i)))
	}
	return out
}

func imshow_(it *Interp, c *call) Value {
	kw := it.kwMap(c, "labels", "cols", "path", "vmin", "vmax")
	vmin, vmax := math.NaN(), math.NaN()
	for name, dst := range map[string]*float64{"vmin": &vmin, "vmax": &vmax} {
		if v, ok := kw[name]; ok && v != None {
			f, ok := toFloat(v)
			if !ok {
				it.failf(c.pos, "imshow: %s must be a number, got %s", name, v.Type())
			}
			*dst = f
		}
	}
	if len(c.args) != 1 {
		it.failf(c.pos, "imshow: want one tensor or list of tensors, got %d arguments", len(c.args))
	}
	var ims []draw.Image
	if seq, ok := c.args[0].(Sequence); ok && !isTensor(c.args[0]) {
		for i := 0; i < seq.Len(); i++ {
			t, ok := seq.At(i).(*TensorValue)
			if !ok {
				it.failf(c.pos, "imshow: element %d of the list is %s, want a tensor", i, seq.At(i).Type())
			}
			batch := it.images(c, t.t, false, vmin, vmax)
			ims = append(ims, batch...)
		}
	} else if t, ok := c.args[0].(*TensorValue); ok {
		ims = it.images(c, t.t, true, vmin, vmax)
	} else {
		it.failf(c.pos, "imshow: want a tensor or a list of tensors, got %s", c.args[0].Type())
	}
	if len(ims) == 0 {
		it.failf(c.pos, "imshow: no images")
	}
	labels := it.labelsOf(c, kw["labels"])
	if labels != nil && len(labels) != len(ims) {
		it.failf(c.pos, "imshow: %d labels for %d images", len(labels), len(ims))
	}
	cols := 0
	if v, ok := kw["cols"]; ok && v != None {
		n, ok := toInt(v)
		if !ok || n < 1 {
			it.failf(c.pos, "imshow: cols must be a positive int, got %s", v.String())
		}
		cols = int(n)
	} else if len(ims) > 8 {
		cols = 8
	}
	data, err := draw.Images(ims, labels, cols)
	if err != nil {
		it.failf(c.pos, "imshow: %v", err)
	}
	text := fmt.Sprintf("<image: %d picture%s of %dx%d>", len(ims), plural(len(ims)), ims[0].W, ims[0].H)
	it.show(c.pos, Output{Data: map[string][]byte{MIMEText: []byte(text), MIMEPNG: data}, Name: "image", Path: it.kwString(c, kw, "path")})
	return None
}

func isTensor(v Value) bool { _, ok := v.(*TensorValue); return ok }

// images reads t as images: (H, W); (H, W, C) or (C, H, W) with C 1, 3
// or 4; and, when batch is allowed, (N, H, W), (N, C, H, W) or
// (N, H, W, C). A 3-D tensor is one image when its last or first
// dimension is 1, 3 or 4, and else N grey images. Values from vmin to
// vmax span black to white (NaN: 0 to 1 for floats, 0 to 255 for
// integers).
func (it *Interp) images(c *call, t *tensor.Tensor, batch bool, vmin, vmax float64) []draw.Image {
	shp := t.Shape()
	channels := func(n int) bool { return n == 1 || n == 3 || n == 4 }
	var n, h, w, ch int
	chLast := true
	switch {
	case len(shp) == 2:
		n, h, w, ch = 1, shp[0], shp[1], 1
	case len(shp) == 3 && channels(shp[2]):
		n, h, w, ch = 1, shp[0], shp[1], shp[2]
	case len(shp) == 3 && channels(shp[0]):
		n, ch, h, w, chLast = 1, shp[0], shp[1], shp[2], false
	case len(shp) == 3 && batch:
		n, h, w, ch = shp[0], shp[1], shp[2], 1
	case len(shp) == 4 && batch && channels(shp[3]):
		n, h, w, ch = shp[0], shp[1], shp[2], shp[3]
	case len(shp) == 4 && batch && channels(shp[1]):
		n, ch, h, w, chLast = shp[0], shp[1], shp[2], shp[3], false
	default:
		it.failf(c.pos, "imshow: cannot read shape %s as images: want (H, W), (H, W, C), (C, H, W) with C 1, 3 or 4, or a batch of them", tensor.FormatShape(shp))
	}
	if h*w == 0 || n == 0 {
		it.failf(c.pos, "imshow: empty image of shape %s", tensor.FormatShape(shp))
	}
	if n*h*w*ch > 1<<26 {
		it.failf(c.pos, "imshow: %d pixels is too many to show", n*h*w*ch)
	}
	lo, hi := 0.0, 1.0
	if d := t.DType(); d != tensor.Bool && !d.IsFloat() {
		hi = 255
	}
	if !math.IsNaN(vmin) {
		lo = vmin
	}
	if !math.IsNaN(vmax) {
		hi = vmax
	}
	if !(hi > lo) {
		it.failf(c.pos, "imshow: vmax (%g) must be above vmin (%g)", hi, lo)
	}
	scale := 1 / (hi - lo)
	vals := t.Floats()
	out := make([]draw.Image, n)
	for k := range out {
		pix := make([]float64, h*w*ch)
		base := k * h * w * ch
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				for cc := 0; cc < ch; cc++ {
					src := base + (y*w+x)*ch + cc
					if !chLast {
						src = base + cc*h*w + y*w + x
					}
					pix[(y*w+x)*ch+cc] = (vals[src] - lo) * scale
				}
			}
		}
		out[k] = draw.Image{H: h, W: w, C: ch, Pix: pix}
	}
	return out
}

// series reads a chart's data: a tensor or list of numbers is one series;
// a 2-D tensor one per column; a list of tensors or lists one each.
func (it *Interp) series(c *call, v Value) [][]float64 {
	if t, ok := v.(*TensorValue); ok {
		shp := t.t.Shape()
		vals := t.t.Float().Floats()
		switch len(shp) {
		case 0, 1:
			return [][]float64{vals}
		case 2:
			cols := make([][]float64, shp[1])
			for j := range cols {
				for i := 0; i < shp[0]; i++ {
					cols[j] = append(cols[j], vals[i*shp[1]+j])
				}
			}
			return cols
		}
		it.failf(c.pos, "%s: want a 1-D or 2-D tensor, got shape %s", c.name, tensor.FormatShape(shp))
	}
	seq, ok := v.(Sequence)
	if !ok {
		it.failf(c.pos, "%s: want a tensor or a list of numbers, got %s", c.name, v.Type())
	}
	nums := make([]float64, 0, seq.Len())
	for i := 0; i < seq.Len(); i++ {
		f, ok := toFloat(seq.At(i))
		if !ok {
			nums = nil
			break
		}
		nums = append(nums, f)
	}
	if nums != nil {
		return [][]float64{nums}
	}
	var out [][]float64
	for i := 0; i < seq.Len(); i++ {
		s := it.series(c, seq.At(i))
		if len(s) != 1 {
			it.failf(c.pos, "%s: series %d is not 1-D", c.name, i)
		}
		out = append(out, s[0])
	}
	return out
}

// chart draws a line plot, a scatter plot or a histogram.
func (it *Interp) chart(c *call, kind string) Value {
	names := []string{"labels", "label", "title", "xlabel", "ylabel", "path"}
	if kind == "hist" {
		names = append(names, "bins")
	}
	kw := it.kwMap(c, names...)
	p := draw.Plot{Kind: kind, Title: it.kwString(c, kw, "title"), XLabel: it.kwString(c, kw, "xlabel"),
		YLabel: it.kwString(c, kw, "ylabel"), Bins: 10}
	if v, ok := kw["bins"]; ok {
		n, ok := toInt(v)
		if !ok || n < 1 || n > 10000 {
			it.failf(c.pos, "hist: bins must be an int in [1, 10000], got %s", v.String())
		}
		p.Bins = int(n)
	}
	var xs []float64
	var ys [][]float64
	switch {
	case len(c.args) == 1:
		ys = it.series(c, c.args[0])
	case len(c.args) == 2 && kind != "hist":
		x := it.series(c, c.args[0])
		if len(x) != 1 {
			it.failf(c.pos, "%s: x must be 1-D", c.name)
		}
		xs, ys = x[0], it.series(c, c.args[1])
	default:
		want := "y or (x, y)"
		if kind == "hist" {
			want = "x"
		} else if kind == "scatter" {
			want = "(x, y)"
		}
		it.failf(c.pos, "%s: want %s, got %d arguments", c.name, want, len(c.args))
	}
	if kind == "scatter" && xs == nil {
		it.failf(c.pos, "scatter: want (x, y)")
	}
	labels := it.labelsOf(c, kw["labels"])
	if l := it.kwString(c, kw, "label"); l != "" {
		labels = []string{l}
	}
	if labels != nil && len(labels) != len(ys) {
		it.failf(c.pos, "%s: %d labels for %d series", c.name, len(labels), len(ys))
	}
	for i, y := range ys {
		if xs != nil && len(xs) != len(y) {
			it.failf(c.pos, "%s: x has %d values, series %d has %d", c.name, len(xs), i, len(y))
		}
		s := draw.Series{X: xs, Y: y}
		if labels != nil {
			s.Label = labels[i]
		}
		p.Series = append(p.Series, s)
	}
	path := it.kwString(c, kw, "path")
	out := Output{Data: map[string][]byte{}, Name: "plot", Path: path}
	var err error
	if strings.HasSuffix(strings.ToLower(path), ".png") {
		out.Data[MIMEPNG], err = p.PNG()
	} else {
		out.Data[MIMESVG], err = p.SVG()
	}
	if err != nil {
		it.failf(c.pos, "%s: %v", c.name, err)
	}
	title := p.Title
	if title == "" {
		title = kind
	}
	out.Data[MIMEText] = []byte(fmt.Sprintf("<plot %q: %d series>", title, len(ys)))
	it.show(c.pos, out)
	return None
}
