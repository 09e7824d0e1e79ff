package clang

import (
	"fmt"
	"runtime"
	"sync"
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

// Run calls the kernel over bufs. The global loop is split into one
// contiguous share per worker; a SplitReduce program then combines the
// workers' partial accumulators and runs its tail once.
func (r *runner) Run(bufs []*devices.Buffer, vars map[string]int64) error {
	p := r.p
	if len(bufs) != len(p.Bufs) {
		return fmt.Errorf("clang: %s: got %d buffers, want %d", p.Name, len(bufs), len(p.Bufs))
	}
	// The pointer arrays live on the heap: C reads them during the calls.
	ptrs := make([]uintptr, len(bufs)+1)
	for i, b := range bufs {
		if b.DType != p.Bufs[i].DType || b.Len < p.Bufs[i].Size {
			return fmt.Errorf("clang: %s: buffer %d is %s[%d], want %s[%d]", p.Name, i, b.DType, b.Len, p.Bufs[i].DType, p.Bufs[i].Size)
		}
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
	var parts []uint64
	if r.abi.Finish != "" {
		parts = make([]uint64, workers*r.abi.PartBytes/8+1)
	}
	arg, vp := unsafe.Pointer(&ptrs[0]), unsafe.Pointer(&vals[0])
	part := func(w int) unsafe.Pointer {
		if parts == nil {
			return nil
		}
		return unsafe.Add(unsafe.Pointer(&parts[0]), w*r.abi.PartBytes)
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := p.Global*w/workers, p.Global*(w+1)/workers
		if w == workers-1 {
			r.entry(arg, int64(lo), int64(hi), part(w), vp)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.entry(arg, int64(lo), int64(hi), part(w), vp)
		}()
	}
	wg.Wait()
	if r.finish != nil {
		r.finish(arg, part(0), int64(workers), vp)
	}
	runtime.KeepAlive(ptrs)
	runtime.KeepAlive(vals)
	runtime.KeepAlive(parts)
	runtime.KeepAlive(bufs)
	return nil
}
