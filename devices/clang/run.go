package clang

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"

	"tiny/codegen"
	"tiny/devices"
)

// minParallel is the number of loop iterations below which a kernel runs on
// one goroutine: starting workers costs more than it saves.
const minParallel = 1 << 15

// minParallelTile is minParallel for a kernel with a register tile
// (OptUpcast), whose iterations (a tile row's vector multiply-adds) can be
// far cheaper than an elementwise kernel's: a matmul of 64 cubed (work
// 44k) took 9-13 us a call on one thread here and 20-83 us on two (the
// second thread's start and the split cost more than its share), 128 cubed
// (350k) 50-67 against 69-75. Not higher: beautiful_mnist's tiled kernels
// of 253k to 1M iterations (its pools' and its last layer's) ran 1-2 ms a
// step slower on one thread.
const minParallelTile = 1 << 17

// parallelWork reports whether p has the work to share among workers.
func parallelWork(p *codegen.Program) bool {
	if p.Opts.Has(codegen.OptUpcast) {
		return p.Work >= minParallelTile
	}
	return p.Work >= minParallel
}

// chunksPerWorker is how many chunks of the global loop each worker takes
// in turn when several share a kernel. A chunk costs a function call in C
// (chunkLoop), so they can be small: the worker that finishes first waits
// for the other's last chunk, half a chunk on average (matmul512's 32
// column panels in 16 chunks left 0.06-0.13 ms of one thread idle per
// call).
const chunksPerWorker = 32

// runner is a loaded kernel: the addresses of its C functions (see
// codegen.CABI and chunkLoop). They are called through purego.SyscallN,
// whose pointer arguments escape to the heap (C reads the pointer arrays
// while other goroutines run, and a goroutine stack can move): a function
// made by purego.RegisterFunc goes through reflect, 15 us a call.
type runner struct {
	p     *codegen.Program
	abi   codegen.CABI
	src   string
	entry uintptr
	// finish is 0 unless the program is a SplitReduce.
	finish  uintptr
	chunks  uintptr
	threads int
}

// Source returns the kernel's C source, as DEBUG=4 prints it.
func (r *runner) Source() string { return r.src }

// Run calls the kernel over bufs.
func (r *runner) Run(bufs []*devices.Buffer, vars map[string]int64) error {
	return r.RunContext(context.Background(), bufs, vars)
}

// shared is what the workers of one call share with C: the next chunk to
// take, and the flag that stops them between chunks.
type shared struct {
	next int64
	stop int32
}

// RunContext calls the kernel over bufs, the global loop cut into chunks
// that the workers take in turn, each worker in one C call (chunkLoop), and
// stops between chunks once ctx is done. Each chunk of a SplitReduce
// program folds into its own partial accumulators; Finish combines them and
// runs the tail.
func (r *runner) RunContext(ctx context.Context, bufs []*devices.Buffer, vars map[string]int64) error {
	p := r.p
	if err := devices.CheckBuffers("clang", p, bufs); err != nil {
		return err
	}
	ptrs := bufPtrs(bufs)
	vals := make([]int64, len(r.abi.Vars)+1)
	for i, name := range r.abi.Vars {
		v, ok := vars[name]
		if !ok {
			return fmt.Errorf("clang: %s: no value for variable %s", p.Name, name)
		}
		vals[i] = v
	}
	workers := r.workers()
	chunks := chunksOf(p.Global, workers)
	var parts []uint64
	if r.abi.Finish != "" {
		chunks = devices.PartialChunks(p.Global)
		parts = make([]uint64, chunks*r.abi.PartBytes/8+1)
	}
	arg, vp := unsafe.Pointer(&ptrs[0]), unsafe.Pointer(&vals[0])
	var pp unsafe.Pointer
	if parts != nil {
		pp = unsafe.Pointer(&parts[0])
	}
	var err error
	if p.Global == 0 {
		purego.SyscallN(r.entry, uintptr(arg), 0, 0, uintptr(pp), uintptr(vp))
	} else {
		err = r.loop(ctx, r.chunks, arg, pp, vp, chunks, workers)
	}
	if err == nil && r.finish != 0 {
		purego.SyscallN(r.finish, uintptr(arg), uintptr(pp), uintptr(chunks), uintptr(vp))
	}
	runtime.KeepAlive(ptrs)
	runtime.KeepAlive(vals)
	runtime.KeepAlive(parts)
	runtime.KeepAlive(bufs)
	return err
}

// workers returns how many workers share the program's global loop.
func (r *runner) workers() int {
	if p := r.p; p.Global >= 2 && parallelWork(p) && !p.Serial {
		return min(r.threads, p.Global)
	}
	return 1
}

// chunksOf returns how many chunks workers cut a global loop of n
// iterations into.
func chunksOf(n, workers int) int {
	if workers > 1 {
		return min(n, workers*chunksPerWorker)
	}
	return devices.Chunks(n, workers)
}

// RunPair runs first (a CLANG kernel without variables or partials) chunk
// by chunk with r (devices.Pairer): r's global loop is cut as RunContext
// cuts it, among as many workers as either kernel would take, and each
// worker runs first's share of a chunk and then r's.
func (r *runner) RunPair(ctx context.Context, first devices.Runner, firstBufs, bufs []*devices.Buffer, ratio int) (bool, error) {
	f, ok := first.(*runner)
	if !ok || workerPool() == 0 || pool.pair == 0 || r.p.Global == 0 || f.p.Global != r.p.Global*ratio ||
		f.finish != 0 || r.finish != 0 || len(f.abi.Vars) > 0 || len(r.abi.Vars) > 0 || f.p.Serial || r.p.Serial {
		return false, nil
	}
	if err := devices.CheckBuffers("clang", f.p, firstBufs); err != nil {
		return true, err
	}
	if err := devices.CheckBuffers("clang", r.p, bufs); err != nil {
		return true, err
	}
	fptrs, ptrs := bufPtrs(firstBufs), bufPtrs(bufs)
	vals := make([]int64, 1)
	// struct tiny_pair (pool.go): the entries, the buffer and variable
	// arrays, the ratio.
	arg := []uintptr{f.entry, r.entry, uintptr(unsafe.Pointer(&fptrs[0])), uintptr(unsafe.Pointer(&ptrs[0])),
		uintptr(unsafe.Pointer(&vals[0])), uintptr(unsafe.Pointer(&vals[0])), uintptr(ratio)}
	// The copy has the work to share even when the writes do not (a few
	// indices a row): the pair takes the more workers of the two.
	workers := max(r.workers(), min(f.workers(), r.p.Global))
	err := r.loop(ctx, pool.pair, unsafe.Pointer(&arg[0]), nil, unsafe.Pointer(&vals[0]), chunksOf(r.p.Global, workers), workers)
	runtime.KeepAlive(fptrs)
	runtime.KeepAlive(ptrs)
	runtime.KeepAlive(vals)
	runtime.KeepAlive(arg)
	runtime.KeepAlive(firstBufs)
	runtime.KeepAlive(bufs)
	return true, err
}

// bufPtrs returns the addresses of bufs' memory, on the heap (C reads the
// array during the calls), with one more element so that it is never empty.
func bufPtrs(bufs []*devices.Buffer) []uintptr {
	ptrs := make([]uintptr, len(bufs)+1)
	for i, b := range bufs {
		ptrs[i] = uintptr(b.Ptr())
	}
	return ptrs
}

// loop runs the global loop's chunks on workers threads: the calling
// goroutine's and workers-1 of the pool's (pool.go), or, without the pool,
// goroutines; each runs the chunk loop fn (the kernel's, or a pair's) once
// over arg. It returns ctx's error when the loop did not finish.
func (r *runner) loop(ctx context.Context, fn uintptr, arg, parts, vars unsafe.Pointer, chunks, workers int) error {
	if ctx != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	workers = max(1, min(workers, chunks))
	sh := new(shared)
	if ctx != nil && ctx.Done() != nil {
		unhook := context.AfterFunc(ctx, func() { atomic.StoreInt32(&sh.stop, 1) })
		defer unhook()
	}
	n, next, stop := int64(r.p.Global), unsafe.Pointer(&sh.next), unsafe.Pointer(&sh.stop)
	pb := int64(r.abi.PartBytes)
	if run := workerPool(); run != 0 && workers > 1 {
		done := poolRun(run, fn, arg, n, int64(chunks), next, parts, pb, vars, stop, int64(workers))
		runtime.KeepAlive(sh)
		if done < int64(chunks) {
			return ctx.Err()
		}
		return nil
	}
	var done atomic.Int64
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done.Add(runChunks(fn, arg, n, int64(chunks), next, parts, pb, vars, stop))
		}()
	}
	done.Add(runChunks(fn, arg, n, int64(chunks), next, parts, pb, vars, stop))
	wg.Wait()
	runtime.KeepAlive(sh)
	if done.Load() < int64(chunks) {
		return ctx.Err()
	}
	return nil
}

// runChunks calls the chunk loop fn (chunkLoop) on this thread and
// returns how many chunks it ran.
func runChunks(fn uintptr, bufs unsafe.Pointer, n, chunks int64, next, parts unsafe.Pointer, partBytes int64, vars, stop unsafe.Pointer) int64 {
	done, _, _ := purego.SyscallN(fn, uintptr(bufs), uintptr(n), uintptr(chunks), uintptr(next), uintptr(parts), uintptr(partBytes), uintptr(vars), uintptr(stop))
	return int64(done)
}
