package tensor

import (
	"fmt"
	"runtime"

	"tiny/devices"
)

// This file counts the memory an engine's tensors hold against
// Options.MaxBytes. Each buffer the engine allocates (or takes from the
// pool) adds its size; the count drops when the buffer is garbage. An
// allocation that would pass the bound first runs a collection and waits
// briefly for the cleanups it queues, since the tensors of a loop's earlier
// rounds are often dead but not yet collected.

// hold counts b against the engine's bound, failing with a *Error for op
// when it would pass it.
func (e *Engine) hold(op string, b *devices.Buffer) {
	size := int64(len(b.Data))
	if e == nil || size == 0 {
		return
	}
	if limit := e.opts.MaxBytes; limit > 0 && e.held.Load()+size > limit {
		for i := 0; i < 100 && e.held.Load()+size > limit; i++ {
			if i%25 == 0 {
				runtime.GC()
			}
			runtime.Gosched()
		}
		if held := e.held.Load(); held+size > limit {
			fail("%s: out of memory: a buffer of %s on top of the %s held would pass the limit of %s",
				op, FormatBytes(size), FormatBytes(held), FormatBytes(limit))
		}
	}
	e.held.Add(size)
	runtime.AddCleanup(b, func(n int64) { e.held.Add(-n) }, size)
}

// HeldBytes returns the bytes of the buffers the engine's tensors hold, as
// counted against Options.MaxBytes (dead tensors count until collected).
func (e *Engine) HeldBytes() int64 { return e.held.Load() }

// FormatBytes prints n bytes in the largest binary unit that keeps it
// above one (the memory-limit errors of the engine and the interpreter).
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
