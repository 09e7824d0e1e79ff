package devices

import (
	"context"
	"sync"
	"sync/atomic"
)

// ContextRunner is implemented by runners that can stop a kernel while it
// runs: they check ctx between chunks of the global loop and return ctx's
// error, leaving the output partly written.
type ContextRunner interface {
	RunContext(ctx context.Context, bufs []*Buffer, vars map[string]int64) error
}

// Run runs r over bufs, through RunContext when r has it.
func Run(ctx context.Context, r Runner, bufs []*Buffer, vars map[string]int64) error {
	if cr, ok := r.(ContextRunner); ok && ctx != nil {
		return cr.RunContext(ctx, bufs, vars)
	}
	return r.Run(bufs, vars)
}

// chunksPerWorker is how many pieces of the global loop each worker takes
// in turn: enough that a cancelled kernel stops soon and that a worker
// finishing early takes over work, few enough that calls cost nothing.
const chunksPerWorker = 8

// Chunks returns how many chunks Parallel splits n iterations into for
// workers goroutines.
func Chunks(n, workers int) int {
	return max(1, min(n, workers*chunksPerWorker))
}

// Parallel runs iterations [0, n) of a global loop on workers goroutines
// (the last on the calling goroutine). The range is cut into Chunks(n,
// workers) contiguous chunks; each worker calls start once, then each(w, c,
// lo, hi) for the chunks it takes, in increasing order, until none is left
// or ctx is done. It returns ctx's error when the loop did not finish.
func Parallel(ctx context.Context, n, workers int, start func(w int), each func(w, c, lo, hi int)) error {
	return ParallelChunks(ctx, n, Chunks(n, workers), workers, start, each)
}

// maxPartials is the most chunks a split reduce's global loop is cut into.
const maxPartials = 64

// PartialChunks returns how many chunks the global loop of n iterations of
// a split reduce is cut into, each folding into partial accumulators of
// its own: a number that depends on n alone, so that the partials, combined
// in chunk order, give the same sum bit for bit whatever the number of
// workers and their scheduling.
func PartialChunks(n int) int { return max(1, min(n, maxPartials)) }

// ParallelChunks is Parallel with the number of chunks given.
func ParallelChunks(ctx context.Context, n, chunks, workers int, start func(w int), each func(w, c, lo, hi int)) error {
	chunks = max(1, min(chunks, n))
	workers = max(1, min(workers, chunks))
	var next, done atomic.Int64
	work := func(w int) {
		start(w)
		for {
			if ctx != nil && ctx.Err() != nil {
				return
			}
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			each(w, c, n*c/chunks, n*(c+1)/chunks)
			done.Add(1)
		}
	}
	var wg sync.WaitGroup
	for w := range workers - 1 {
		wg.Add(1)
		go func() { defer wg.Done(); work(w) }()
	}
	work(workers - 1)
	wg.Wait()
	if int(done.Load()) < chunks {
		return ctx.Err()
	}
	return nil
}
