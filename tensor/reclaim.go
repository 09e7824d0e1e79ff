package tensor

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"tiny/devices"
)

// This file keeps the buffers of large outputs flowing back to the pool.
// Go knows that a tensor is dead only by collecting (the lazy graph never
// holds a realized result, the program does), and the cleanups a
// collection queues return dead tensors' buffers to the pool
// (keepUntilUnreachable). A loop that realizes a large result per round
// (`y = f(x).realize()`) must find the buffer of an earlier round's result
// in the pool, or pay for a fresh one: faulting in fresh pages costs about
// 1 ms per MiB on this machine (4 us per 4 KiB page), a 1024x1024 float32
// output 4 ms against an 11 ms matmul.
//
// So when realize takes one of the pool's last two buffers of a size, and
// has handed out collectEvery bytes of large results since the last
// collection (for results that large themselves, a batch of them, with as
// many more buffers kept back), it starts a collection in the background, which runs beside
// the kernels and brings back the results the program has dropped since,
// before the next round asks; and when the pool has none, realize waits for
// a collection rather than allocating, once it has allocated aheadLimit
// bytes fresh since waiting last brought nothing back and the size has as
// many buffers as its lead and one more (grow). A size's second miss
// brings it all the buffers a loop's steady state takes at once
// (provision).
//
// A collection is started without runtime.GC: runtime.GC also sweeps the
// whole heap before it returns, yielding the processor after every span,
// and with two Ps each yield wakes the other thread: 2-4 ms of CPU per
// call on a 2-core machine for a cycle whose work is 0.3 ms (0.25 ms for
// the same call with GOMAXPROCS=1). startGC lets the runtime start the
// cycle itself, as its pacer would, and the background sweeper sweep.

// reclaimBytes is the output size from which realize keeps buffers
// flowing back (outputBuffer): from 1 MiB a fresh buffer's page faults
// (about 1 ms) cost more than a collection (0.3-0.5 ms of CPU, beside the
// kernels).
const reclaimBytes = 1 << 20

// collectEvery is how many bytes of large results realize hands out
// between the collections it starts while the pool still has buffers. A
// collection costs about the same whatever it finds dead (1-1.5 ms of CPU
// in the bench process, its marking beside the kernels, which lose a core
// to it), so a loop over small results (1-4 MiB: matmul512, bmm_attn) pays
// one per collectEvery bytes rather than one per round: the pool grows, by
// the fresh buffers of the rounds that find it empty, until it holds the
// rounds between two collections. Results of collectEvery bytes or more
// start one whenever the pool is down to its last buffer, as before.
const collectEvery = 16 << 20

// sinceCollect counts the bytes of large results outputBuffer has handed
// out since a collection was last started.
var sinceCollect atomic.Int64

// aheadLimit is how many bytes of fresh buffers realize allocates without
// waiting, at the start and after a wait brought nothing back (the program
// keeps its results), before it waits again.
const aheadLimit = 64 << 20

// cleanupWait bounds how long reclaim waits for a collection and its
// cleanups before it allocates a fresh buffer (a variable so that
// TestReclaim can check the run-ahead bound without racing the clock).
var cleanupWait = 50 * time.Millisecond

// aheadBytes counts the bytes realize allocated fresh for large outputs
// without waiting since a wait last brought nothing back (or since the
// start).
var aheadBytes atomic.Int64

// outputBuffer returns a buffer of n elements of d from the pool for a
// kernel's output, or false: the caller allocates. For a large output that
// realize keeps (a target: a result the program holds, which only a
// collection can bring back) it starts a collection when it leaves the
// pool at most one buffer of the size (one to spare for a round that comes
// before the collection's cleanups) and collectEvery bytes of large results
// have gone out since the last one, and has one start, or waits for one,
// when there is none (reclaim). An intermediate comes back to the pool within the realize
// that made it: a collection would not help it, and starting one for each
// of a training step's activations cost beautiful_mnist 13% more CPU.
func outputBuffer(d DType, n int, kept bool) (*devices.Buffer, bool) {
	b, ok := devices.Reuse(d, n)
	size := n * d.Size()
	if !kept || size < reclaimBytes {
		return b, ok
	}
	if !ok {
		if raiseLead(size) {
			return provision(d, n)
		}
		return reclaim(d, n)
	}
	k := batch(size)
	if sinceCollect.Add(int64(size)) >= collectBytes(size) && devices.Pooled(d, n) < lead(size)+k-1 {
		collectSoon()
	}
	return b, true
}

// collectBytes is how many bytes of large results of size bytes realize
// hands out between the collections it starts while the pool still has
// buffers: collectEvery, or a batch of such results when that is more.
func collectBytes(size int) int64 {
	return max(collectEvery, int64(batch(size)*size))
}

// batchBytes bounds the large results realize lets pass between two
// collections it starts (batch).
const batchBytes = 48 << 20

// batch returns how many results of size bytes realize hands out between
// the collections it starts while the pool still has buffers: one below
// collectEvery (collectEvery decides), and from there as many as fit in
// batchBytes, at most 3, with as many more buffers kept back. A collection
// costs the kernels beside it far more than its own CPU: pad's 16 MiB
// kernel took 0.85-1.0 ms alone and 1.5-2 ms with a collection running
// (no page faults either way), and with one collection per result nearly
// every call had one beside it. One per three: pad 1.58-2.10 -> 1.38-1.66
// ms a call, repeat 1.84-2.17 -> 1.45-1.68 (two alternated rounds).
func batch(size int) int {
	if size < collectEvery {
		return 1
	}
	return max(1, min(3, batchBytes/size))
}

// sizes holds what realize has learned of each size of large result that
// has found the pool empty (sizeState).
var sizes struct {
	sync.Mutex
	m map[int]*sizeState
}

// sizeState is what realize knows of one size of large result.
//
// lead is how many buffers of the size the pool must still hold when
// realize starts a collection: the rounds a loop runs while the
// collection marks and its cleanups bring the dead results back. It starts
// at 2 (one to spare for a round that comes before the cleanups) and grows
// by one with each round that finds the pool empty, up to leadBytes of
// buffers: a fixed lead of 2 left the embedding row (4 MiB results, 0.5 ms
// a call) finding the pool empty once every collection, each time paying
// 10 ms for a fresh buffer's page faults, as collections here take 2-4
// calls.
//
// grown and waits are grow's: the fresh buffers it has allocated for the
// size, and the waits for a collection since the last one. misses counts
// the results of the size that found the pool empty (provision).
type sizeState struct {
	lead, grown, waits, misses int
}

// sizeOf returns the state of size, made on first use; the caller holds
// sizes' lock.
func sizeOf(size int) *sizeState {
	if sizes.m == nil {
		sizes.m = map[int]*sizeState{}
	}
	st := sizes.m[size]
	if st == nil {
		st = &sizeState{lead: 2}
		sizes.m[size] = st
	}
	return st
}

// leadBytes bounds the buffers a lead keeps back for a collection's
// latency; a size of leadBytes or more keeps the lead of 2.
const leadBytes = 32 << 20

// lead returns how many buffers of size bytes the pool must still hold
// when realize starts a collection.
func lead(size int) int {
	sizes.Lock()
	defer sizes.Unlock()
	return sizeOf(size).lead
}

// raiseLead records that a large result of size bytes found the pool
// empty. It reports whether realize should provision the size: this is
// the size's second miss.
func raiseLead(size int) bool {
	sizes.Lock()
	defer sizes.Unlock()
	st := sizeOf(size)
	if (st.lead+1)*size <= leadBytes {
		st.lead++
	}
	st.misses++
	return st.misses == 2
}

// provision gives a large size, at its second result that finds the pool
// empty, the buffers a loop that makes and drops such results takes in its
// steady state, at once: the size's lead and the results between two
// collections (collectEvery bytes of them, or a batch), within growBytes.
// It returns one for the output and pools the others, their pages
// faulted in, and has a collection start. Grown one buffer a miss, the
// pool took a third of a short loop's rounds to grow (embedding, 4 MiB
// results: a fresh buffer 1.5-10 ms against a 0.3 ms call, in 2-3 of
// the 7 timed calls of a 9-call run); the faults are the same, paid in
// one round. A program that keeps its results uses the buffers for its
// next ones.
func provision(d DType, n int) (*devices.Buffer, bool) {
	size := n * d.Size()
	rounds := int((collectBytes(size) + int64(size) - 1) / int64(size))
	want := max(1, min(lead(size)+rounds, growBytes/size))
	out := devices.Alloc(d, n)
	for range want - 1 {
		b := devices.Alloc(d, n)
		touch(b.Data)
		defer b.Free() // not before the others are allocated: Alloc would hand it back
	}
	aheadBytes.Add(int64(want * size))
	collectSoon()
	return out, true
}

// touch writes a zero into every page of data, so that its page faults
// happen now rather than in a kernel.
func touch(data []byte) {
	for i := 0; i < len(data); i += 4096 {
		data[i] = 0
	}
}

// grow reports whether a large result of size bytes that found the pool
// empty gets a fresh buffer instead of waiting for a collection: once
// results of its size have waited growAfter times since the last such
// buffer, and while the buffers grow has allocated for the size are fewer
// than its lead and one more (the rounds a collection takes, and the one
// being computed), within growBytes (or two buffers). It counts the buffer.
// A loop that drops its results otherwise waits at every miss once its
// first wait has brought a buffer back, and its pool never grows past
// that: pad (16.8 MB results) waited 3-4 ms for a collection in one call
// of ten, 2.2-3.0 ms a call at the median against 1.40-1.45 with its pool
// grown. Growing at the first wait cost a short loop more than the waits
// (a fresh 16 MiB buffer faults in for 2-20 ms here): the 7 timed calls of
// gelu, add_bias and flip took 1.5-1.8x as long.
func grow(size int) bool {
	sizes.Lock()
	defer sizes.Unlock()
	st := sizeOf(size)
	if st.waits < growAfter || st.grown > st.lead || (st.grown+1)*size > max(growBytes, 2*size) {
		return false
	}
	st.waits = 0
	st.grown++
	return true
}

// growAfter is how many waits of a size grow lets pass before a fresh
// buffer, and growBytes bounds the buffers of one size it allocates.
const (
	growAfter = 8
	growBytes = 64 << 20
)

// waited records that a large result of size bytes waited for a collection
// and got a buffer back.
func waited(size int) {
	sizes.Lock()
	defer sizes.Unlock()
	sizeOf(size).waits++
}

// reclaim is realize's way to a buffer of n elements of d for a large
// output when the pool has none. Within aheadLimit it allocates fresh (and
// has a collection start); past it, it has a collection start and waits
// for the buffer of a dead result to come back, at most until the
// collection has ended and its cleanups had cleanupWait/25 to run, or
// cleanupWait in all. While waits bring buffers back, every later miss
// waits too, so a loop that drops its results keeps bounded memory; a wait
// that brings nothing back (the program keeps its results) starts the count
// again, so such a program pays one wait per aheadLimit bytes. false: the
// caller allocates.
func reclaim(d DType, n int) (*devices.Buffer, bool) {
	size := int64(n * d.Size())
	if aheadBytes.Add(size) <= aheadLimit || grow(int(size)) {
		collectSoon()
		return nil, false
	}
	aheadBytes.Store(aheadLimit) // past the limit until a wait brings nothing back
	done := collectSoon()
	start := time.Now()
	deadline := start.Add(cleanupWait)
	for {
		if b, ok := devices.Reuse(d, n); ok {
			waited(int(size))
			return b, true
		}
		now := time.Now()
		if now.After(deadline) {
			break
		}
		select {
		case <-done:
			// The cleanups run on their own goroutines, in no order: the
			// collection's sentinel may come before the buffers.
			if g := now.Add(cleanupWait / 25); g.Before(deadline) {
				deadline = g
			}
			done = nil
		default:
		}
		time.Sleep(20 * time.Microsecond)
	}
	aheadBytes.Store(0)
	return nil, false
}

// collectSoon makes sure that a garbage collection starts after the call,
// on its own goroutine: it starts one, or, while one runs, asks for
// another after it (that one may have marked before the program dropped
// its last results). It returns the channel closed when that collection
// ends (its sentinel's cleanup has run: the cleanups of what it found
// dead are queued).
func collectSoon() <-chan struct{} {
	sinceCollect.Store(0)
	collectCalls.Add(1)
	collector.Lock()
	defer collector.Unlock()
	if !collector.running {
		collector.running = true
		collector.done = make(chan struct{})
		go collect()
		return collector.done
	}
	if collector.next == nil {
		collector.next = make(chan struct{})
	}
	return collector.next
}

// collectCalls counts the calls of collectSoon (for TestCollectEvery).
var collectCalls atomic.Int64

// collector is the state of the collections collectSoon started: whether
// one runs, the channel closed when it ends, and the channel of the one
// asked for after it, if any.
var collector struct {
	sync.Mutex
	running    bool
	done, next chan struct{}
}

// collect runs the collections collectSoon asks for, one after the other,
// closing each one's channel when it ends.
func collect() {
	for {
		collectOnce()
		collector.Lock()
		close(collector.done)
		collector.done, collector.next = collector.next, nil
		if collector.done == nil {
			collector.running = false
			collector.Unlock()
			return
		}
		collector.Unlock()
	}
}

// gcSentinel is an object made garbage just before a collection starts:
// its cleanup runs once that collection has swept it.
type gcSentinel [64]byte

// kickWait is how long collectOnce waits for the cycle startGC asked for
// before it asks again, and kicks how many times it asks before it falls
// back on runtime.GC.
const (
	kickWait = 5 * time.Millisecond
	kicks    = 8
)

// collectOnce runs one collection and waits until it has swept.
func collectOnce() {
	swept := make(chan struct{})
	runtime.AddCleanup(new(gcSentinel), func(c chan struct{}) { close(c) }, swept)
	timer := time.NewTimer(kickWait)
	defer timer.Stop()
	for k := range kicks {
		// A kick starts no cycle while one runs (which may have marked
		// before the sentinel was garbage: the next kick, after it, will
		// do), nor while the last one's sweep is unfinished: the runtime
		// then wants 1 MiB more allocated first, which the second and
		// later kicks allocate.
		size := 64 << 10
		if k > 0 {
			size = 1<<20 + 64<<10
		}
		startGC(size)
		select {
		case <-swept:
			return
		case <-timer.C:
			timer.Reset(kickWait)
		}
	}
	// Slow, or the runtime has changed: runtime.GC waits for the running
	// cycle and runs one more.
	collectFallbacks.Add(1)
	runtime.GC()
	timer.Reset(cleanupWait)
	select {
	case <-swept:
	case <-timer.C:
	}
}

// collectFallbacks counts the collections startGC failed to start in time.
var collectFallbacks atomic.Int64

// gcKick is the allocation that starts a cycle in startGC.
var gcKick []byte

// startGC makes the runtime start a garbage collection cycle, without
// waiting for it: with GOGC at 0 for one large allocation of size bytes,
// the heap is past the pacer's trigger and the allocation starts the cycle,
// as the pacer does for a growing heap. GOGC is set back at once, before
// the cycle's mark ends and sets the next goal. Sweeping is left to the
// background sweeper.
func startGC(size int) {
	old := debug.SetGCPercent(0)
	gcKick = make([]byte, size) // a large object: its allocation tests the trigger
	gcKick = nil
	debug.SetGCPercent(old)
}
