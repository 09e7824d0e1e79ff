package clang

import (
	"context"
	"fmt"
	"runtime"
	"unsafe"

	"tiny/codegen"
	"tiny/devices"
)

// minParallel is the number of loop iterations below which a kernel runs on
// one goroutine: starting workers costs more than it saves.
const minParallel = 1 << 15

// The C entry points (see codegen.CABI). They are called through purego
// functions with unsafe.Pointer parameters, so that the pointer arrays passed
// escape to the heap: C reads them while other goroutines run, and a
// goroutine stack can move.
type (
	entryFn  func(bufs unsafe.Pointer, start, end int64, part, vars unsafe.Pointer)
	finishFn func(bufs, parts unsafe.Pointer, nparts int64, vars unsafe.Pointer)
)

// runner is a loaded kernel.
type runner struct {
	p       *codegen.Program
	abi     codegen.CABI
	src     string
	entry   entryFn
	finish  finishFn
	threads int
}

// Source returns the kernel's C source, as DEBUG=4 prints it.
func (r *runner) Source() string { return r.src }

// Run calls the kernel over bufs.
func (r *runner) Run(bufs []*devices.Buffer, vars map[string]int64) error {
	return r.RunContext(context.Background(), bufs, vars)
}

// RunContext calls the kernel over bufs, the global loop cut into chunks
// that the workers take in turn (devices.Parallel), and stops between
// chunks once ctx is done. Each chunk of a SplitReduce program folds into
// its own partial accumulators; Finish combines them and runs the tail.
func (r *runner) RunContext(ctx context.Context, bufs []*devices.Buffer, vars map[string]int64) error {
	p := r.p
	if err := devices.CheckBuffers("clang", p, bufs); err != nil {
		return err
	}
	// The pointer arrays live on the heap: C reads them during the calls.
	ptrs := make([]uintptr, len(bufs)+1)
	for i, b := range bufs {
		ptrs[i] = uintptr(b.Ptr())
	}
	vals := make([]int64, len(r.abi.Vars)+1)
	for i, name := range r.abi.Vars {
		v, ok := vars[name]
		if !ok {
			return fmt.Errorf("clang: %s: no value for variable %s", p.Name, name)
		}
		vals[i] = v
	}
	workers := 1
	if p.Global >= 2 && p.Work >= minParallel {
		workers = min(r.threads, p.Global)
	}
	chunks := devices.Chunks(p.Global, workers)
	var parts []uint64
	if r.abi.Finish != "" {
		chunks = devices.PartialChunks(p.Global)
		parts = make([]uint64, chunks*r.abi.PartBytes/8+1)
	}
	arg, vp := unsafe.Pointer(&ptrs[0]), unsafe.Pointer(&vals[0])
	part := func(c int) unsafe.Pointer {
		if parts == nil {
			return nil
		}
		return unsafe.Add(unsafe.Pointer(&parts[0]), c*r.abi.PartBytes)
	}
	var err error
	if p.Global == 0 {
		r.entry(arg, 0, 0, part(0), vp)
	} else {
		err = devices.ParallelChunks(ctx, p.Global, chunks, workers, func(int) {}, func(w, c, lo, hi int) {
			r.entry(arg, int64(lo), int64(hi), part(c), vp)
		})
	}
	if err == nil && r.finish != nil {
		r.finish(arg, part(0), int64(chunks), vp)
	}
	runtime.KeepAlive(ptrs)
	runtime.KeepAlive(vals)
	runtime.KeepAlive(parts)
	runtime.KeepAlive(bufs)
	return err
}
