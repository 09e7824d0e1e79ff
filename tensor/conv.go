package tensor

import "tiny/codegen"

// Convolution and pooling as tinygrad builds them: pool turns the last axes
// into sliding windows with movement ops only (a repeat, shrinks and
// reshapes, which the ShapeTracker folds into one view of the input), and a
// reduce over the window axes finishes the op. A convolution is therefore
// one multiply and one sum over a view: a single reduce kernel.

// ceilDiv is ceil(a/b) for b > 0.
func ceilDiv(a, b int) int { return -floorDiv(-a, b) }

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// pool returns the windows of t's last len(k) axes: for input axes i_j it
// gives shape (..., o_1, ..., o_n, k_1, ..., k_n), where window (o_1..o_n)
// holds the elements at o_j*s_j + k_j*d_j. No data moves.
func (t *Tensor) pool(op string, k, s, d []int) *Tensor {
	n := len(k)
	if t.Ndim() < n {
		fail("%s: cannot pool shape %s with a kernel of %d axes", op, FormatShape(t.n.shape), n)
	}
	lead := t.Ndim() - n
	in := t.n.shape[lead:]
	o := make([]int, n)
	for j := range k {
		if s[j] <= 0 || d[j] <= 0 || k[j] <= 0 {
			fail("%s: kernel size, stride and dilation must be positive, got %s, %s, %s", op, FormatShape(k), FormatShape(s), FormatShape(d))
		}
		if d[j]*(k[j]-1)+1 > in[j] {
			fail("%s: kernel size cannot be greater than actual input size (kernel %s, dilation %s, input %s)", op, FormatShape(k), FormatShape(d), FormatShape(in))
		}
		o[j] = ceilDiv(in[j]-d[j]*(k[j]-1), s[j])
	}
	keep := func(shp []int, tail ...int) []int {
		return append(append([]int(nil), shp[:lead]...), tail...)
	}
	full := func(x *Tensor) [][2]int {
		b := make([][2]int, x.Ndim())
		for i, e := range x.n.shape {
			b[i] = [2]int{0, e}
		}
		return b
	}
	overlap := false
	for j := range k {
		overlap = overlap || k[j] > s[j] || d[j] != 1
	}
	order := make([]int, 0, lead+2*n)
	for i := 0; i < lead; i++ {
		order = append(order, i)
	}
	if !overlap {
		// Windows that do not overlap: cut the axis into o rows of s and
		// keep the first k of each row.
		x := t
		p := make([][2]int, t.Ndim())
		for j := range k {
			p[lead+j] = [2]int{0, max(0, o[j]*s[j]-in[j])}
		}
		x = x.Pad(p)
		b := full(x)
		var shp []int
		for j := range k {
			b[lead+j] = [2]int{0, o[j] * s[j]}
			shp = append(shp, o[j], s[j])
		}
		x = x.Shrink(b).Reshape(keep(t.n.shape, shp...)...)
		b = full(x)
		for j := range k {
			b[lead+2*j+1] = [2]int{0, k[j]}
		}
		x = x.Shrink(b)
		for j := range k {
			order = append(order, lead+2*j)
		}
		for j := range k {
			order = append(order, lead+2*j+1)
		}
		return x.Permute(order...)
	}
	// Overlapping windows: repeat each axis so that row r of a (k, i*f+d)
	// reshape starts r*d elements later (the dilation), then cut each row
	// into o strides of s and keep the first element of each.
	reps := make([]int, t.Ndim())
	for i := range reps {
		reps[i] = 1
	}
	f := make([]int, n)
	for j := range k {
		f[j] = 1 + b2i(o[j]*s[j] > in[j]+d[j])
		reps[lead+j] = ceilDiv(k[j]*(in[j]*f[j]+d[j]), in[j])
	}
	x := t.Repeat(reps...)
	b := full(x)
	var shp []int
	for j := range k {
		w := in[j]*f[j] + d[j]
		b[lead+j] = [2]int{0, k[j] * w}
		shp = append(shp, k[j], w)
	}
	x = x.Shrink(b).Reshape(keep(t.n.shape, shp...)...)
	b = full(x)
	shp = shp[:0]
	for j := range k {
		b[lead+2*j+1] = [2]int{0, o[j] * s[j]}
		shp = append(shp, k[j], o[j], s[j])
	}
	x = x.Shrink(b).Reshape(keep(t.n.shape, shp...)...)
	b = full(x)
	shp = shp[:0]
	for j := range k {
		b[lead+3*j+2] = [2]int{0, 1}
		shp = append(shp, k[j], o[j])
	}
	x = x.Shrink(b).Reshape(keep(t.n.shape, shp...)...)
	for j := range k {
		order = append(order, lead+2*j+1)
	}
	for j := range k {
		order = append(order, lead+2*j)
	}
	return x.Permute(order...)
}

// convPads reads a convolution's padding for n spatial axes as torch-style
// flat pads: one int for every side, n ints (one per axis, both sides), or
// 2n ints (left and right of the last axis first).
func convPads(op string, p []int, n int) []int {
	switch {
	case len(p) == 1:
		out := make([]int, 2*n)
		for i := range out {
			out[i] = p[0]
		}
		return out
	case len(p) == 2*n:
		return p
	case len(p) == n:
		out := make([]int, 0, 2*n)
		for i := n - 1; i >= 0; i-- {
			out = append(out, p[i], p[i])
		}
		return out
	}
	fail("%s: expected padding of length %d or %d, but got %d", op, 2*n, n, len(p))
	return nil
}

// padFlat pads t's last axes with torch-style flat pads (negative ones cut).
func (t *Tensor) padFlat(flat []int, value float64) *Tensor {
	return t.PadMode(FlatPads(flat, t.Ndim()), "constant", value)
}

// Conv2d convolves t, of shape (batch, groups*cin, *spatial), with weight
// (cout, cin, *kernel): any number of spatial axes, so conv1d and conv3d are
// the same op. bias (nil for none) has cout elements. stride, dilation and
// padding hold one value for every axis or one per axis (padding also 2 per
// axis, torch-style flat: left and right of the last axis first; negative
// padding cuts). It panics with a *Error on shapes that do not match.
func (t *Tensor) Conv2d(weight, bias *Tensor, groups int, stride, dilation, padding []int) *Tensor {
	const op = "conv2d"
	if t.Ndim() < 3 || weight.Ndim() != t.Ndim() {
		fail("%s: input of shape %s does not match the weight's shape %s", op, FormatShape(t.n.shape), FormatShape(weight.n.shape))
	}
	if groups <= 0 {
		fail("%s: groups must be positive, got %d", op, groups)
	}
	cinAll := t.n.shape[1]
	cout, cin := weight.n.shape[0], weight.n.shape[1]
	hw := weight.n.shape[2:]
	n := len(hw)
	if groups*cin != cinAll || cout%groups != 0 {
		fail("%s: input of shape %s does not match the weight's shape %s with groups=%d (%d vs. %d channels)", op, FormatShape(t.n.shape), FormatShape(weight.n.shape), groups, groups*cin, cinAll)
	}
	if bias != nil && bias.Numel() != cout {
		fail("%s: bias of shape %s for %d output channels", op, FormatShape(bias.n.shape), cout)
	}
	s := tupleOf(op, "stride", stride, n)
	d := tupleOf(op, "dilation", dilation, n)
	out := conv(t, weight, groups, s, d, convPads(op, padding, n))
	if bias != nil {
		bshp := []int{1, cout}
		for i := 0; i < n; i++ {
			bshp = append(bshp, 1)
		}
		out = out.Add(bias.Reshape(bshp...))
	}
	return out
}

// conv is Conv2d without the bias, on torch-style flat pads, with a
// gradient rule of its own: the input's gradient is a convolution of the
// output's gradient with the flipped kernel, the weight's a convolution of
// the input with the output's gradient, each a matmul-like kernel, where
// differentiating the window views would sum over an expand of the input
// repeated k times.
func conv(x, w *Tensor, groups int, s, d, pads []int) *Tensor {
	xp := x.padFlat(pads, 0)
	tiled := convMACs(xp.n.shape, w.n.shape, s, d) >= convTiledMACs
	if dt := codegen.Promote(x.n.dtype, w.n.dtype); tiled && x.n.dtype != dt {
		// Cast before the copies below, not in the product: a cast of the
		// windows (an expand) was realized whole, 25 times the input
		// (beautiful_mnist's uint8 images: a 29 MB float im2col buffer
		// for the first layer's weight gradient).
		xp = x.Cast(dt).padFlat(pads, 0)
	}
	// The forward and the input gradient read their inputs laid out
	// (*spatial, batch, channel), the weight gradient (batch, *spatial,
	// channel): measured on beautiful_mnist's 32->32 layer, the forward
	// runs at the same speed either way, the input gradient 1.5x faster
	// the first way and the weight gradient 2.3x faster the second, so the
	// input is copied twice (a copy costs a few percent of the conv).
	xf, xw := xp, xp // the input as the forward and the weight gradient read it
	if tiled {
		xf, xw = relayoutAct(xp, false), relayoutAct(xp, true)
	}
	y := convRaw(xf, w, groups, s, d, tiled)
	neg := make([]int, len(pads))
	for i, p := range pads {
		neg[i] = -p
	}
	return withGrad(y, []*Tensor{x, w}, func(g *Tensor) []*Tensor {
		if tiled {
			// g (usually a fused chain of elementwise ops, a batch
			// norm's and a pool's backward) is computed once, into the
			// layout the weight gradient reads; the input gradient's
			// copy is made from it. Computed inside a padded copy, every
			// load of the chain sat under the padding's mask, and the
			// loop did not vectorize (5x slower than this copy).
			g = relayoutAct(g, true)
		}
		return []*Tensor{
			convGradInput(g, w, xp.n.shape, groups, s, d, tiled).padFlat(neg, 0),
			convGradWeight(g, xw, w.n.shape, groups, s, d, tiled),
		}
	})
}

// convTiledMACs is the number of multiply-adds from which a convolution
// copies its operands into the layouts the codegen tiles like a matmul
// (spatial axes outermost, channels innermost): below it the copies cost
// more than they save, and the convolution stays one kernel over views of
// its operands.
var convTiledMACs = 1 << 22

// relayout returns t, whose axes are (a, b, *spatial), as the same logical
// tensor over a copy laid out (*spatial, a, b), or (*spatial, b, a) with
// swap. An input (batch, channel, ...) goes to (*spatial, batch, channel)
// and a weight (cout, cin, ...) to (*spatial, cin, cout): with channels
// innermost, a convolution's loads look like a matmul's, the output
// channels a contiguous row of the weight and the batch the rows of the
// register tile.
func relayout(t *Tensor, swap bool) *Tensor {
	n := t.Ndim()
	order := make([]int, 0, n)
	for i := 2; i < n; i++ {
		order = append(order, i)
	}
	if swap {
		order = append(order, 1, 0)
	} else {
		order = append(order, 0, 1)
	}
	inv := make([]int, n)
	for i, a := range order {
		inv[a] = i
	}
	return t.Permute(order...).Contiguous().Permute(inv...)
}

// relayoutAct copies an activation (batch, channel, *spatial) to the layout
// (*spatial, batch, channel), or with nhwc (batch, *spatial, channel), and
// returns the same logical tensor over the copy.
func relayoutAct(t *Tensor, nhwc bool) *Tensor {
	if !nhwc {
		return relayout(t, false)
	}
	n := t.Ndim()
	order := []int{0}
	for i := 2; i < n; i++ {
		order = append(order, i)
	}
	order = append(order, 1)
	inv := make([]int, n)
	for i, a := range order {
		inv[a] = i
	}
	return t.Permute(order...).Contiguous().Permute(inv...)
}

// macs is the multiply-adds of a convolution of xp (padded) with w.
func convMACs(xp, w []int, s, d []int) int {
	m := xp[0] * prod(w)
	for j, k := range w[2:] {
		m *= max(0, ceilDiv(xp[2+j]-d[j]*(k-1), s[j]))
	}
	return m
}

// convRaw convolves xp, already padded, with w: a multiply of the windows
// of xp by w and a sum, one reduce kernel. With tiled, w is copied to the
// layout (*kernel, cin, cout) (xp comes in the layout its caller chose).
func convRaw(xp, w *Tensor, groups int, s, d []int, tiled bool) *Tensor {
	const op = "conv2d"
	bs, hw := xp.n.shape[0], w.n.shape[2:]
	cout, cin := w.n.shape[0], w.n.shape[1]
	n := len(hw)
	if tiled {
		w = relayout(w, true)
	}
	x := xp.pool(op, hw, s, d) // (bs, groups*cin, *o, *hw)
	oyx := x.n.shape[2 : 2+n]
	rcout := cout / groups
	shp := append([]int{bs, groups, cin, 1}, oyx...)
	shp = append(shp, hw...)
	x = x.Reshape(shp...)
	shp[3] = rcout
	x = x.Expand(shp...)
	order := []int{0, 1, 3}
	for i := 0; i < n; i++ {
		order = append(order, 4+i)
	}
	order = append(order, 2)
	for i := 0; i < n; i++ {
		order = append(order, 4+n+i)
	}
	x = x.Permute(order...) // (bs, groups, rcout, *o, cin, *hw)
	wshp := []int{1, groups, rcout}
	for i := 0; i < n; i++ {
		wshp = append(wshp, 1)
	}
	wshp = append(append(wshp, cin), hw...)
	axes := make([]int, 0, n+1)
	for i := 0; i < n+1; i++ {
		axes = append(axes, -1-i)
	}
	prod := x.Mul(w.Reshape(wshp...))
	if !tiled {
		return prod.Sum(axes, true).Reshape(append([]int{bs, cout}, oyx...)...)
	}
	// The tiled kernel's result is laid out (batch, *o, channel), channels
	// innermost, so that each row of its register tile (a batch element
	// at one position, a run of output channels) is stored contiguously,
	// and it is returned as a view in the logical order. Stored as
	// (batch, channel, *o), every element of a tile went to a cache line
	// of its own that other positions wrote again later. (Positions
	// outermost would store whole tiles contiguously too, but then one
	// position's channels sit 2^k floats apart, which the copy back to
	// (batch, channel, *o) reads with every line in one cache set.)
	order = append(order[:0], 0)
	for i := 0; i < n; i++ {
		order = append(order, 3+i)
	}
	order = append(order, 1, 2)
	for i := 0; i < n+1; i++ {
		order = append(order, 3+n+i)
	}
	y := prod.Permute(order...).Sum(axes, false) // (bs, *o, groups, rcout)
	y = y.Reshape(append(append([]int{bs}, oyx...), cout)...)
	back := []int{0, n + 1}
	for i := 0; i < n; i++ {
		back = append(back, 1+i)
	}
	return y.Permute(back...)
}

// convGradInput is the gradient of a convolution's padded input, of shape
// xpShape, given g, the gradient of its output: g with s-1 zeros between
// its elements, padded by the dilated kernel's extent, convolved with the
// kernel flipped and its channel axes swapped in each group.
func convGradInput(g, w *Tensor, xpShape []int, groups int, s, d []int, tiled bool) *Tensor {
	hw := w.n.shape[2:]
	n := len(hw)
	gs := g.n.shape
	x := g
	strided := false
	for _, v := range s {
		strided = strided || v > 1
	}
	if strided {
		shp := []int{gs[0], gs[1]}
		grown := []int{gs[0], gs[1]}
		pads := [][2]int{{0, 0}, {0, 0}}
		cut := [][2]int{{0, gs[0]}, {0, gs[1]}}
		for i, e := range gs[2:] {
			shp = append(shp, e, 1)
			pads = append(pads, [2]int{0, 0}, [2]int{0, s[i] - 1})
			grown = append(grown, e*s[i])
			cut = append(cut, [2]int{0, max(0, (e-1)*s[i]+1)})
		}
		x = x.Reshape(shp...).Pad(pads).Reshape(grown...).Shrink(cut)
	}
	p := make([][2]int, x.Ndim())
	for j := 0; j < n; j++ {
		ext := d[j] * (hw[j] - 1)
		p[2+j] = [2]int{ext, xpShape[2+j] - x.n.shape[2+j]}
	}
	if tiled {
		// Copied before it is padded: the convolution reads the padding
		// through a mask, and the codegen clips its kernel window to the
		// mask (codegen's OptClip), where a padded copy made it multiply
		// the zeros (31% of beautiful_mnist's 5x5 layer's work).
		x = relayoutAct(x, false)
	}
	x = x.PadMode(p, "constant", 0)
	ws := w.n.shape
	wt := w.Reshape(append([]int{groups, ws[0] / groups}, ws[1:]...)...).Transpose(1, 2)
	flip := make([]int, n)
	for i := range flip {
		flip[i] = 3 + i
	}
	wt = wt.Flip(flip...).Reshape(append([]int{groups * ws[1], ws[0] / groups}, hw...)...)
	one := make([]int, n)
	for i := range one {
		one[i] = 1
	}
	return convRaw(x, wt, groups, one, d, tiled)
}

// convGradWeight is the gradient of a convolution's weight, of shape
// wShape, given g (with tiled, laid out (batch, *spatial, channel)) and the
// padded input xp: for each kernel position, the
// sum over the batch and the output positions of the window's input times
// g. The batch is summed in two steps, chunks of it first, so that the
// first kernel's data for one chunk stays in cache while every kernel
// position and channel pair is computed from it.
func convGradWeight(g, xp *Tensor, wShape []int, groups int, s, d []int, tiled bool) *Tensor {
	const op = "conv2d"
	hw := wShape[2:]
	n := len(hw)
	cout, cin := wShape[0], wShape[1]
	rcout := cout / groups
	bs := xp.n.shape[0]
	x := xp.pool(op, hw, s, d) // (bs, groups*cin, *o, *hw)
	oyx := x.n.shape[2 : 2+n]
	nc := convChunks(bs, prod(wShape))
	bc := bs / nc
	xs := append([]int{nc, bc, groups, 1, cin}, oyx...)
	xs = append(xs, hw...)
	gsh := append([]int{nc, bc, groups, rcout, 1}, oyx...)
	for range hw {
		gsh = append(gsh, 1)
	}
	prodT := x.Reshape(xs...).Mul(g.Reshape(gsh...)) // (nc, bc, groups, rcout, cin, *o, *hw)
	axes := []int{1}
	for j := 0; j < n; j++ {
		axes = append(axes, 5+j)
	}
	var part *Tensor
	if tiled && cin < 8 {
		// Too few input channels to fill a vector (the first layer of an
		// image model): the output channels go innermost in the stored
		// partial sums, so that the register tile's columns are the
		// output channels, contiguous in g, and its rows the kernel taps
		// (stored (nc, groups, *hw, cin, rcout), returned as a view in
		// the logical order). With the taps innermost (25 of them, not a
		// vector's multiple), the tile fell back to accumulators in memory.
		order := []int{0, 1, 2}
		for j := 0; j < 2*n; j++ {
			order = append(order, 5+j)
		}
		order = append(order, 4, 3) // (nc, bc, groups, *o, *hw, cin, rcout)
		sum := []int{1}
		for j := 0; j < n; j++ {
			sum = append(sum, 3+j)
		}
		part = prodT.Permute(order...).Sum(sum, false) // (nc, groups, *hw, cin, rcout)
		back := []int{0, 1, n + 3, n + 2}
		for j := 0; j < n; j++ {
			back = append(back, 2+j)
		}
		part = part.Permute(back...)
	} else {
		part = prodT.Sum(axes, false) // (nc, groups, rcout, cin, *hw)
	}
	if nc > 1 {
		part = part.Sum([]int{0}, false)
	} else {
		part = part.Reshape(part.n.shape[1:]...)
	}
	return part.Reshape(wShape...)
}

// convChunks is the number of chunks a weight gradient sums the batch in.
// Chunks of two samples keep a chunk of beautiful_mnist's 32-channel
// activations in L2 while every kernel position reads it (measured: 1.5x
// faster than chunks of eight); the partial sums stay under 32 MiB.
func convChunks(bs, wNumel int) int {
	for _, c := range []int{256, 128, 64, 32, 16, 8, 4, 2} {
		if bs%c == 0 && bs/c >= 2 && c*wNumel <= 1<<23 {
			return c
		}
	}
	return 1
}

// ConvTranspose2d is the transpose (gradient) of Conv2d: t has shape
// (batch, cin, *spatial) and weight (cin, cout/groups, *kernel).
// output_padding adds to one side of each output axis. It panics with a
// *Error on shapes that do not match.
func (t *Tensor) ConvTranspose2d(weight, bias *Tensor, groups int, stride, dilation, padding, outputPadding []int) *Tensor {
	const op = "conv_transpose2d"
	if t.Ndim() < 3 || weight.Ndim() != t.Ndim() {
		fail("%s: input of shape %s does not match the weight's shape %s", op, FormatShape(t.n.shape), FormatShape(weight.n.shape))
	}
	if groups <= 0 || weight.n.shape[0]%groups != 0 {
		fail("%s: weight of shape %s cannot be split into %d groups", op, FormatShape(weight.n.shape), groups)
	}
	hw := weight.n.shape[2:]
	n := len(hw)
	s := tupleOf(op, "stride", stride, n)
	d := tupleOf(op, "dilation", dilation, n)
	p := tupleOf(op, "padding", padding, n)
	op_ := tupleOf(op, "output_padding", outputPadding, n)
	// (cin, rcout, *k) -> (groups, cin/groups, rcout, *k) -> swap -> flip the kernel -> (cout, cin/groups, *k)
	ws := weight.n.shape
	w := weight.Reshape(append([]int{groups, ws[0] / groups}, ws[1:]...)...).Transpose(1, 2)
	flip := make([]int, n)
	for i := range flip {
		flip[i] = 3 + i
	}
	w = w.Flip(flip...).Flatten(0, 1)
	x := t
	strided := false
	for _, v := range s {
		strided = strided || v > 1
	}
	if strided {
		// Put s-1 zeros after every element and cut the trailing ones.
		xs := x.n.shape
		var shp, grown []int
		shp = append(shp, xs[0], xs[1])
		grown = append(grown, xs[0], xs[1])
		pads := [][2]int{{0, 0}, {0, 0}}
		cut := [][2]int{{0, xs[0]}, {0, xs[1]}}
		for i, e := range xs[2:] {
			shp = append(shp, e, 1)
			pads = append(pads, [2]int{0, 0}, [2]int{0, s[i] - 1})
			grown = append(grown, e*s[i])
			cut = append(cut, [2]int{0, e*s[i] - (s[i] - 1)})
		}
		x = x.Reshape(shp...).Pad(pads).Reshape(grown...).Shrink(cut)
	}
	flat := make([]int, 0, 2*n)
	for i := n - 1; i >= 0; i-- {
		a := (hw[i]-1)*d[i] - p[i]
		flat = append(flat, a, a+op_[i])
	}
	return x.Conv2d(w, bias, groups, []int{1}, d, flat)
}

// poolArgs reads a pooling op's kernel size (one entry per pooled axis),
// stride (nil: the kernel size) and dilation.
func poolArgs(op string, kernel, stride, dilation []int) (k, s, d []int) {
	k = kernel
	if len(k) == 0 {
		fail("%s: kernel_size must not be empty", op)
	}
	s = k
	if stride != nil {
		s = tupleOf(op, "stride", stride, len(k))
	}
	d = tupleOf(op, "dilation", dilation, len(k))
	return k, s, d
}

// ceilPads returns torch-style flat pads for pooling with ceil_mode: the
// regular padding plus, after each axis, what a last partial window needs,
// but no window starts inside the right padding.
func ceilPads(op string, in, k, s, d, p []int) []int {
	n := len(k)
	pp := tupleOf(op, "padding", p, n)
	pads := convPads(op, pp, n)
	for j := 0; j < n; j++ {
		o := ceilDiv(in[j]+2*pp[j]-(d[j]*(k[j]-1)+1), s[j]) + 1
		pads[2*n-1-2*j] += s[j]*(o-1) + (d[j]*(k[j]-1) + 1) - (in[j] + 2*pp[j]) - max(s[j]*(o-1)-(pp[j]+in[j]-1), 0)
	}
	return pads
}

func windowAxes(n int) []int {
	axes := make([]int, n)
	for i := range axes {
		axes[i] = -n + i
	}
	return axes
}

// MaxPool2d takes the maximum of each window over t's last len(kernel) axes. stride nil means the kernel size; padding
// reads the dtype's lowest value; ceilMode keeps a last partial window.
func (t *Tensor) MaxPool2d(kernel, stride, dilation, padding []int, ceilMode bool) *Tensor {
	const op = "max_pool2d"
	k, s, d := poolArgs(op, kernel, stride, dilation)
	var pads []int
	if ceilMode {
		pads = ceilPads(op, t.spatial(op, len(k)), k, s, d, padding)
	} else {
		pads = convPads(op, padding, len(k))
	}
	// Padding reads the lowest value. The windows of a padded computed
	// value would be a computed value read through an expand (its own
	// kernel), so pad with zeros (a view) and choose the lowest value
	// inside the windows, with a mask padded the same way.
	x := t.padFlat(pads, 0).pool(op, k, s, d)
	padded := false
	for _, p := range pads {
		padded = padded || p > 0
	}
	if padded {
		valid := t.n.eng.Full(t.n.shape, 1, Bool).padFlat(pads, 0).pool(op, k, s, d)
		x = valid.Where(x, t.n.eng.Scalar(minValue(t.n.dtype), t.n.dtype))
	}
	if !channelsLast(t) || prod(x.n.shape[t.Ndim()-len(k):t.Ndim()]) < 16 {
		return x.Max(windowAxes(len(k)), false)
	}
	// The input keeps its channels innermost (a tiled convolution's
	// result): the max is stored that way too, (batch, *o, channel), and
	// returned as a view in the logical order, so that the kernels of the
	// backward pass, which read the input, the max and the count of ties
	// at each element, load all three along contiguous channels. Not when
	// a channel's output holds fewer than 16 values (a cache line): reading
	// across channels then touches few lines anyway, and the row-major
	// order keeps a flatten after the pool contiguous (beautiful_mnist's
	// 3x3 pool before its Linear layer: the Linear ran 10x slower).
	n := len(k)
	order := []int{0}
	for i := 0; i < n; i++ {
		order = append(order, 2+i)
	}
	order = append(order, 1)
	for i := 0; i < n; i++ {
		order = append(order, 2+n+i)
	}
	y := x.Permute(order...).Max(windowAxes(n), false) // (batch, *o, channel)
	back := []int{0, n + 1}
	for i := 0; i < n; i++ {
		back = append(back, 1+i)
	}
	return y.Permute(back...)
}

// channelsLast reports whether t, an activation (batch, channel,
// *spatial), is computed from data laid out with the channels innermost:
// among the full-size operands its kernel would load (through elementwise
// ops), more have channel stride 1 than a unit last-axis stride.
func channelsLast(t *Tensor) bool {
	if t.Ndim() < 3 {
		return false
	}
	last, nchw := 0, 0
	seen := map[*lazy]bool{}
	var walk func(n *lazy)
	walk = func(n *lazy) {
		if seen[n] || len(seen) > 64 {
			return
		}
		seen[n] = true
		switch n.kind {
		case kElementwise:
			for _, s := range n.src {
				walk(s)
			}
		case kView:
			if len(n.st.Views) != 1 || n.base.kind == kElementwise || n.base.kind == kConst {
				return
			}
			v := n.st.Views[0]
			c, ok1 := v.Strides[1].Int()
			w, ok2 := v.Strides[len(v.Strides)-1].Int()
			switch {
			case !ok1 || !ok2 || c == 0 || w == 0:
			case c == 1:
				last++
			case w == 1:
				nchw++
			}
		case kBuffer, kReduce, kContiguous, kGather:
			nchw++
		}
	}
	walk(t.n)
	return last > nchw
}

// spatial returns t's last n axes, failing if t has fewer.
func (t *Tensor) spatial(op string, n int) []int {
	if t.Ndim() < n {
		fail("%s: cannot pool shape %s with a kernel of %d axes", op, FormatShape(t.n.shape), n)
	}
	return t.n.shape[t.Ndim()-n:]
}

// AvgPool2d averages each window; countIncludePad counts padded zeros in the
// divisor (the padding added by ceilMode never counts).
func (t *Tensor) AvgPool2d(kernel, stride, dilation, padding []int, ceilMode, countIncludePad bool) *Tensor {
	const op = "avg_pool2d"
	k, s, d := poolArgs(op, kernel, stride, dilation)
	n := len(k)
	axes := windowAxes(n)
	reg := convPads(op, padding, n)
	pool := func(x *Tensor, pads []int) *Tensor { return x.padFlat(pads, 0).pool(op, k, s, d) }
	x := t.floatOf()
	if !countIncludePad {
		pads := reg
		if ceilMode {
			pads = ceilPads(op, t.spatial(op, n), k, s, d, padding)
		}
		return pool(x, pads).Sum(axes, false).Div(pool(x.OnesLike(), pads).Sum(axes, false))
	}
	if !ceilMode {
		return pool(x, reg).Mean(axes, false)
	}
	cp := ceilPads(op, t.spatial(op, n), k, s, d, padding)
	extra := make([]int, len(cp))
	for i := range cp {
		extra[i] = cp[i] - reg[i]
	}
	return pool(x, cp).Sum(axes, false).Div(pool(x.padFlat(reg, 0).OnesLike(), extra).Sum(axes, false))
}
