package tensor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"
	"weak"

	"tiny/codegen"
	"tiny/devices"
)

// compiled is a kernel lowered and compiled once, kept by the engine.
type compiled struct {
	prog   *codegen.Program
	runner devices.Runner
}

// Sourcer is implemented by runners that can show the code they run;
// Explain prints it. (At DEBUG=4 devices print their code themselves: the
// engine passes its debug level and log to the device.)
type Sourcer interface {
	Source() string
}

// DeviceTimer is implemented by runners whose kernels run asynchronously
// on a device with its own clock (the GPU device): at DEBUG=1 the engine
// reports DeviceTime, the device time of the last run, instead of the time
// Run took to enqueue it.
type DeviceTimer interface {
	DeviceTime() time.Duration
}

// Realize computes t's base into a buffer if it is not one yet, and
// returns t. Later reads of t, and of every tensor sharing its base, use the
// buffer.
//
// A realized tensor is a leaf of the autograd graph from then on: an
// optimizer step's `(w - lr * g).Realize()` must not keep every earlier
// step's graph alive. Reading a value (Floats, Item, String, ...) realizes
// too, but keeps the graph for gradients when it reaches a tensor marked
// with SetRequiresGrad, so a loss can be printed before Backward.
func (t *Tensor) Realize() *Tensor {
	t.n.eng.realize([]*lazy{t.n}, false)
	return t
}

// realizeRead realizes t for a read of its value (see Realize).
func (t *Tensor) realizeRead() {
	t.n.eng.realize([]*lazy{t.n}, true)
}

// Realize computes the bases of several tensors in one schedule, so that
// work they share is done once.
func Realize(ts ...*Tensor) {
	if len(ts) == 0 {
		return
	}
	ns := make([]*lazy, len(ts))
	for i, t := range ts {
		ns[i] = t.n
	}
	ts[0].n.eng.realize(ns, false)
}

// Contiguous returns t laid out in a buffer of its own, row-major: a copy
// kernel for a view, a forced buffer for a computed value, t itself for data
// (or a reshape of data).
func (t *Tensor) Contiguous() *Tensor {
	if t.n.kind == kBuffer || t.n.kind == kView && t.n.base.kind == kBuffer && keepsLayout(t.n) {
		return t
	}
	return &Tensor{&lazy{kind: kContiguous, dtype: t.n.dtype, shape: t.n.shape, src: []*lazy{t.n}, eng: t.n.eng}}
}

// Schedule returns the kernels that realizing t would run, in order,
// without running them. Each prints as its AST with Kernel.String.
func (t *Tensor) Schedule() []*codegen.Kernel {
	t.n.eng.mu.Lock()
	defer t.n.eng.mu.Unlock()
	var ks []*codegen.Kernel
	for _, it := range schedule([]*lazy{t.n}) {
		ks = append(ks, it.kernel)
	}
	return ks
}

// realize runs the schedule for targets and makes their bases buffers;
// with keepGrad, a base whose graph reaches a tensor that requires grad
// keeps what it was as its history, for backward.
func (e *Engine) realize(targets []*lazy, keepGrad bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	// Nodes realized as state (assigns) or on the side (the pending loss
	// and grads of a step) skip cutLeaves: a walk of the whole graph per
	// step, for an error message about gradients through them.
	noCut := map[*lazy]bool{}
	for _, t := range targets {
		if t.baseOf().into != nil {
			pend := e.takePending()
			for _, p := range pend {
				noCut[p.baseOf()] = true
			}
			targets = append(targets, pend...)
			break
		}
	}
	start := time.Now()
	items := e.cachedSchedule(targets)
	e.stats.Schedule += time.Since(start)
	if len(items) == 0 {
		return
	}
	log := e.opts.Log
	if log == nil {
		log = io.Discard
	}
	if e.opts.Debug >= 2 {
		for i, it := range items {
			fmt.Fprintf(log, "kernel %d %s\n%s", i, it.kernel.Name, kernelText(it.kernel))
		}
	}
	isTarget := map[*lazy]bool{}
	for _, t := range targets {
		isTarget[t.baseOf()] = true
	}
	for _, it := range items {
		if it.out.into != nil {
			// An assigned tensor becomes its buffer even when it was
			// only computed on the way: the old buffer may be
			// overwritten, so it cannot be recomputed later.
			isTarget[it.out] = true
		}
	}
	// The copy a kept scatter writes into is allocated as the kept
	// result it becomes, so that its buffer flows back (outputBuffer).
	var keptCopy map[*lazy]bool
	for _, it := range items {
		if it.out.kind == kScatter && isTarget[it.out] {
			if keptCopy == nil {
				keptCopy = map[*lazy]bool{}
			}
			keptCopy[it.out.src[0]] = true
		}
	}
	lastUse := map[*lazy]int{}
	for i, it := range items {
		for _, in := range it.inputs {
			lastUse[in] = i
		}
	}
	temps := map[*lazy]*devices.Buffer{}
	bufOf := func(b *lazy) *devices.Buffer {
		if b.kind == kBuffer {
			return b.buf
		}
		return temps[b]
	}
	for _, it := range items {
		if n := prod(it.out.shape); n > maxBytes/it.out.dtype.Size() {
			fail("realize: a buffer of shape %s is larger than the %d GiB limit", FormatShape(it.out.shape), maxBytes>>30)
		}
	}
	if e.interp == nil {
		e.compileAhead(items, log)
	}
	var copyItem *item // a scatter's copy, waiting to run with it (runPair)
	var copyBufs []*devices.Buffer
	var dead []*lazy // temporaries to free after this item (and its copy) ran
	for i, it := range items {
		out, ok := inPlace(items, i, bufOf), false
		shared := out != nil // an assigned buffer, already counted
		if it.out.kind == kScatter {
			// A scatter writes into its copy's buffer, which becomes its
			// own: nothing else reads the copy (scatterStore).
			into := it.out.src[0]
			out, shared = temps[into], true
			delete(temps, into)
		}
		if out != nil {
			if it.out.kind != kScatter {
				out.Share()
			}
			ok = true
		} else {
			out, ok = outputBuffer(it.out.dtype, prod(it.out.shape), isTarget[it.out] || keptCopy[it.out])
		}
		if !ok {
			out = devices.Alloc(it.out.dtype, prod(it.out.shape))
		}
		if !shared {
			e.hold("realize", out)
		}
		bufs := []*devices.Buffer{out}
		for _, in := range it.inputs {
			bufs = append(bufs, bufOf(in))
		}
		switch {
		case out.Len == 0:
		case e.interp != nil:
			e.interp(it.kernel, bufs)
			e.stats.Kernels++
		case it.kernel.Cached && i+1 < len(items) && items[i+1].out.kind == kScatter && items[i+1].out.src[0] == it.out:
			copyItem, copyBufs = it, bufs // it runs with the scatter
		case copyItem != nil:
			e.runPair(copyItem, copyBufs, it, bufs, log)
		default:
			e.run(it, bufs, log)
		}
		temps[it.out] = out
		for _, in := range it.inputs {
			if lastUse[in] == i && in.kind != kBuffer && !isTarget[in] {
				dead = append(dead, in)
			}
		}
		if copyItem != it {
			// The copy's inputs are freed once it has run.
			for _, in := range dead {
				temps[in].Free()
				delete(temps, in)
			}
			dead, copyItem, copyBufs = dead[:0], nil, nil
		}
	}
	// What each target was, decided before any is overwritten: the
	// history for backward, or the leaves it was computed from.
	marked, leaves := map[*lazy]bool{}, map[*lazy][]*lazy{}
	type past struct {
		history *lazy
		cut     []weak.Pointer[lazy]
	}
	pasts := map[*lazy]past{}
	for b := range isTarget {
		if _, ok := temps[b]; !ok {
			continue
		}
		if keepGrad && reachesMarked(b, marked) {
			was := *b
			pasts[b] = past{history: &was}
		} else if b.dtype.IsFloat() && !b.assign && !noCut[b] {
			pasts[b] = past{cut: cutLeaves(b, leaves)}
		}
	}
	for b := range isTarget {
		if buf, ok := temps[b]; ok {
			p := pasts[b]
			*b = lazy{kind: kBuffer, dtype: b.dtype, shape: b.shape, buf: buf, eng: b.eng, requiresGrad: b.requiresGrad, gradSet: b.gradSet, grad: b.grad, history: p.history, cut: p.cut}
			keepUntilUnreachable(b, buf)
		}
	}
	runtime.KeepAlive(items)
}

// keepUntilUnreachable returns buf to the devices pool once node b can no
// longer be reached, so that a loop realizing fresh tensors reuses memory.
func keepUntilUnreachable(b *lazy, buf *devices.Buffer) {
	runtime.AddCleanup(b, func(buf *devices.Buffer) { buf.Free() }, buf)
}

// Explain returns, as text, what realizing t involves: each kernel's AST,
// its uops and, when the device can show it, the generated code. It
// compiles but runs nothing.
func (t *Tensor) Explain() string {
	var b strings.Builder
	e := t.n.eng
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, it := range schedule([]*lazy{t.n}) {
		k := it.kernel
		fmt.Fprintf(&b, "kernel %d %s\n%s", i, k.Name, kernelText(k))
		opts := codegen.Options{}
		if e.dev != nil {
			opts = devices.LowerOptions(e.dev)
		}
		prog, err := codegen.Lower(k, opts)
		if err != nil {
			fmt.Fprintf(&b, "lowering: %v\n", err)
			continue
		}
		fmt.Fprintf(&b, "%s\n", prog)
		if e.dev == nil {
			continue
		}
		if r, err := e.dev.Compile(prog); err == nil {
			if s, ok := r.(Sourcer); ok {
				fmt.Fprintf(&b, "%s\n", s.Source())
			}
		}
	}
	return b.String()
}

// compileAhead lowers the schedule's kernels that have no runner yet and,
// when the device builds several programs at once for less than each alone
// (devices.BatchCompiler: CLANG runs the C compiler once for all), compiles
// them together. A failed batch is left to run, which compiles each kernel
// on its own and reports the one at fault.
func (e *Engine) compileAhead(items []*item, log io.Writer) {
	bc, ok := e.dev.(devices.BatchCompiler)
	if !ok {
		return
	}
	var keys []string
	var progs []*codegen.Program
	seen := map[string]bool{}
	for _, it := range items {
		key := it.cacheKey()
		if _, ok := e.runners[key]; ok || seen[key] || prod(it.out.shape) == 0 {
			continue
		}
		seen[key] = true
		prog, err := codegen.Lower(it.kernel, devices.LowerOptions(e.dev))
		if err != nil {
			return
		}
		keys, progs = append(keys, key), append(progs, prog)
	}
	if len(progs) < 2 {
		return
	}
	rs, err := bc.CompileBatch(progs)
	if err != nil {
		return
	}
	for i, p := range progs {
		if e.opts.Debug >= 3 {
			fmt.Fprintf(log, "%s\n", p)
		}
		e.addRunner(keys[i], &compiled{prog: p, runner: rs[i]})
	}
}

// addRunner keeps a compiled kernel under key.
func (e *Engine) addRunner(key string, c *compiled) {
	if len(e.runners) >= maxRunners {
		// Constants are baked into kernels, so a loop over changing
		// scalars compiles new kernels: start over rather than grow.
		clear(e.runners)
	}
	e.runners[key] = c
	e.stats.Compiles++
}

// run lowers, compiles (once per distinct kernel) and runs one kernel.
func (e *Engine) run(it *item, bufs []*devices.Buffer, log io.Writer) {
	c := e.compiled(it, log)
	start := time.Now()
	ctx := e.context()
	e.check(ctx, it.kernel.Name, devices.Run(ctx, c.runner, bufs, nil))
	el := time.Since(start)
	if dt, ok := c.runner.(DeviceTimer); ok && e.opts.Debug >= 1 {
		el = dt.DeviceTime()
	}
	e.ran(log, 1, it.kernel.Name, len(bufs), el, c.prog)
}

// runPair runs a scatter's copy (first) and the scatter (it) chunk by chunk
// on one worker per chunk where the device can (devices.Pairer) and each
// chunk of the scatter's global loop owns whole rows of first's (their
// Spans): a chunk of the scatter writes into rows its worker has just
// copied, still in its caches. Otherwise the two run one after the other.
// DEBUG=1 shows a pair as one line, NAME+NAME.
func (e *Engine) runPair(first *item, firstBufs []*devices.Buffer, it *item, bufs []*devices.Buffer, log io.Writer) {
	c1, c2 := e.compiled(first, log), e.compiled(it, log)
	p1, p2 := c1.prog, c2.prog
	pr, ok := c2.runner.(devices.Pairer)
	if ok && p1.Span > 0 && p2.Span > 0 && p2.Span%p1.Span == 0 && p1.Global*p1.Span == firstBufs[0].Len {
		start := time.Now()
		ctx := e.context()
		ran, err := pr.RunPair(ctx, c1.runner, firstBufs, bufs, p2.Span/p1.Span)
		if ran {
			name := first.kernel.Name + "+" + it.kernel.Name
			e.check(ctx, name, err)
			e.ran(log, 2, name, len(firstBufs)+len(bufs), time.Since(start), p1, p2)
			return
		}
	}
	e.run(first, firstBufs, log)
	e.run(it, bufs, log)
}

// compiled returns the kernel of it lowered and compiled for the engine's
// device, once per distinct kernel.
func (e *Engine) compiled(it *item, log io.Writer) *compiled {
	k, key := it.kernel, it.cacheKey()
	c, ok := e.runners[key]
	if ok {
		return c
	}
	prog, err := codegen.Lower(k, devices.LowerOptions(e.dev))
	if err != nil {
		panic(fmt.Sprintf("internal error: lowering %s: %v\n%s", k.Name, err, k))
	}
	if e.opts.Debug >= 3 {
		fmt.Fprintf(log, "%s\n", prog)
	}
	r, err := e.dev.Compile(prog)
	if ctx := e.context(); err != nil && ctx.Err() != nil {
		panic(&Error{Msg: "interrupted", Err: ctx.Err()}) // the compiler was stopped
	}
	if err != nil {
		// The device could not build the kernel (no compiler, a full
		// disk): an error of the environment, not of tiny.
		fail("%s device cannot compile kernel %s: %v", e.DeviceName(), k.Name, err)
	}
	c = &compiled{prog: prog, runner: r}
	e.addRunner(key, c)
	return c
}

// check turns a kernel's run error into the engine's panic.
func (e *Engine) check(ctx context.Context, name string, err error) {
	if err == nil {
		return
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		panic(&Error{Msg: "interrupted", Err: err})
	}
	fail("%s device failed running kernel %s: %v", e.DeviceName(), name, err)
}

// ran counts n kernels that ran in el, and at DEBUG=1 prints their line
// with the flops and bytes of their programs.
func (e *Engine) ran(log io.Writer, n int, name string, args int, el time.Duration, progs ...*codegen.Program) {
	e.stats.Kernels += n
	e.stats.Time += el
	if e.opts.Debug < 1 {
		return
	}
	var flops, bytes int64
	for _, p := range progs {
		flops += p.Flops
		bytes += p.Bytes
	}
	sec := el.Seconds()
	fmt.Fprintf(log, "*** %-4s %6d %-28s arg %2d mem %7.3f GB tm %10.2fus/%10.2fms (%9.2f GFLOPS %7.2f GB/s)\n",
		e.DeviceName(), e.stats.Kernels, name, args, float64(bytes)/1e9, sec*1e6,
		e.stats.Time.Seconds()*1e3, float64(flops)/sec/1e9, float64(bytes)/sec/1e9)
}

// kernelText returns the kernel's tree (Kernel.String), or its numbered DAG
// listing when shared nodes would make the tree too long to print.
func kernelText(k *codegen.Kernel) string {
	sizes := map[*codegen.Node]int{}
	var size func(x *codegen.Node) int
	size = func(x *codegen.Node) int {
		if s, ok := sizes[x]; ok {
			return s
		}
		s := 1
		for _, c := range x.Src {
			s = min(s+size(c), 1<<20)
		}
		sizes[x] = s
		return s
	}
	if size(k.AST) <= 1000 {
		return k.String()
	}
	return cacheKey(k)
}

// cacheKey returns cacheKey(it.kernel), computed once per item: both
// compileAhead and run need it.
func (it *item) cacheKey() string {
	if it.key == "" {
		it.key = cacheKey(it.kernel)
	}
	return it.key
}

// maxRunners bounds the engine's cache of compiled kernels.
const maxRunners = 4096

// cacheKey identifies a kernel: its AST, each shared node written once
// (Kernel.String prints a DAG as a tree, which can grow exponentially), and
// its buffers.
func cacheKey(k *codegen.Kernel) string {
	var b strings.Builder
	ids := map[*codegen.Node]int{}
	var walk func(x *codegen.Node) int
	walk = func(x *codegen.Node) int {
		if id, ok := ids[x]; ok {
			return id
		}
		srcs := make([]int, len(x.Src))
		for i, s := range x.Src {
			srcs[i] = walk(s)
		}
		id := len(ids)
		ids[x] = id
		fmt.Fprintf(&b, "%d %s %s %v buf=%d val=%v red=%s axes=%v", id, x.Op, x.DType, srcs, x.Buf, x.Val, x.ReduceOp, x.Axes)
		if x.Op == codegen.OpLoad || x.Op == codegen.OpConst || x.Op == codegen.OpStore || x.Op == codegen.OpGather {
			b.WriteString(x.ST.String())
		}
		if x.Op == codegen.OpGather || x.Scatters() {
			fmt.Fprintf(&b, " stride=%d bound=%d", x.Stride, x.Bound)
		}
		b.WriteByte('\n')
		return id
	}
	walk(k.AST)
	for _, s := range k.Bufs {
		fmt.Fprintf(&b, "%s[%d] ", s.DType, s.Size)
	}
	if k.Cached {
		b.WriteString("cached")
	}
	return b.String()
}
