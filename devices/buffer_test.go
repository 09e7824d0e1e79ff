package devices

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
	"unsafe"

	"tiny/codegen"
)

// A freed buffer comes back from Reuse for the same byte size, aligned, and
// only once; Alloc takes from the pool first.
func TestReuse(t *testing.T) {
	const n = 12345 // a size no other test frees
	if _, ok := Reuse(codegen.Float32, n); ok {
		t.Fatal("Reuse found a buffer before any was freed")
	}
	b := Alloc(codegen.Float32, n)
	if uintptr(b.Ptr())%align != 0 {
		t.Fatalf("Alloc: address %p is not %d-byte aligned", b.Ptr(), align)
	}
	p := b.Ptr()
	b.Free()
	if b.Data != nil {
		t.Fatal("Free left the buffer usable")
	}
	if _, ok := Reuse(codegen.Float32, n+1); ok {
		t.Fatal("Reuse returned a buffer of another size")
	}
	// int32 has float32's size: the same bytes serve it.
	r, ok := Reuse(codegen.Int32, n)
	if !ok || r.Ptr() != p || r.Len != n || r.DType != codegen.Int32 {
		t.Fatalf("Reuse = %p len %d %v, %v; want the freed %p", r.Ptr(), r.Len, r.DType, ok, p)
	}
	if _, ok := Reuse(codegen.Int32, n); ok {
		t.Fatal("Reuse returned the same buffer twice")
	}
	r.Free()
	if a := Alloc(codegen.Float32, n); a.Ptr() != p {
		t.Fatalf("Alloc = %p, want the pooled %p", a.Ptr(), p)
	}
}

// The pool keeps at most PoolBytes, dropping the buffers freed longest ago.
func TestPoolBound(t *testing.T) {
	const mib = 1 << 20
	var bufs []*Buffer
	for i := range 3 * PoolBytes / (64 * mib) {
		bufs = append(bufs, Alloc(codegen.Uint8, 64*mib+i)) // a size each
	}
	for _, b := range bufs {
		b.Free()
		if got := PooledBytes(); got > PoolBytes {
			t.Fatalf("pool holds %d bytes, more than %d", got, PoolBytes)
		}
	}
	// The newest ones are still there, the oldest are gone.
	last := len(bufs) - 1
	if _, ok := Reuse(codegen.Uint8, 64*mib+last); !ok {
		t.Error("the buffer freed last was dropped")
	}
	if _, ok := Reuse(codegen.Uint8, 64*mib); ok {
		t.Error("the buffer freed first is still pooled")
	}
	// Too large to pool at all.
	big := Alloc(codegen.Uint8, PoolBytes+1)
	before := PooledBytes()
	big.Free()
	if PooledBytes() != before {
		t.Error("a buffer larger than the pool was pooled")
	}
}

// TestPoolSmallPerSize: the pool keeps smallPerSize freed buffers of a size
// under smallBytes and no more, and every freed buffer of a larger size.
func TestPoolSmallPerSize(t *testing.T) {
	for _, tc := range []struct{ n, count, keep int }{{16<<10 + 3, smallPerSize + 10, smallPerSize}, {smallBytes + 5, 20, 20}} {
		var bufs []*Buffer
		for range tc.count {
			bufs = append(bufs, Alloc(codegen.Uint8, tc.n))
		}
		for _, b := range bufs {
			b.Free()
		}
		if got := Pooled(codegen.Uint8, tc.n); got != tc.keep {
			t.Errorf("%d-byte buffers: the pool keeps %d of %d, want %d", tc.n, got, len(bufs), tc.keep)
		}
		for Pooled(codegen.Uint8, tc.n) > 0 {
			Reuse(codegen.Uint8, tc.n)
		}
	}
}

// TestFreeHugeCollects: freeing a buffer too large for the pool starts a
// garbage collection (with automatic ones off, the only one that can run).
func TestFreeHugeCollects(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	b := Alloc(codegen.Uint8, PoolBytes+1)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	n := ms.NumGC
	b.Free()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		runtime.ReadMemStats(&ms)
		if ms.NumGC > n {
			return
		}
	}
	t.Fatal("no collection after freeing a buffer larger than PoolBytes")
}

// TestCarve: a miss takes its memory from a pooled buffer of a size the
// program has stopped asking for (stale) or has one to spare, cut into
// pieces of the size asked for, and from no other.
func TestCarve(t *testing.T) {
	const s = 2<<20 + 64*3 // a size no other test uses
	big := 4 * s           // four pieces
	within := func(b *Buffer, raw []byte) bool {
		p, lo := uintptr(b.Ptr()), uintptr(unsafe.Pointer(&raw[0]))
		return p >= lo && p+uintptr(len(b.Data)) <= lo+uintptr(len(raw))
	}
	event := func() { Alloc(codegen.Uint8, 64).Free() } // a free: the pool's clock ticks

	// Stale: freed long ago, its size not asked for since.
	a := Alloc(codegen.Uint8, big)
	raw := a.Data
	a.Free()
	n := carved.Load()
	if b := Alloc(codegen.Uint8, s); within(b, raw) || carved.Load() != n {
		t.Fatal("carved a buffer freed just before")
	}
	for range staleAfter {
		event()
	}
	b := Alloc(codegen.Uint8, s)
	if !within(b, raw) || carved.Load() != n+1 {
		t.Fatal("a stale buffer was not carved")
	}
	if got := Pooled(codegen.Uint8, s); got != 3 {
		t.Fatalf("carving pooled %d pieces, want 3", got)
	}
	seen := map[uintptr]bool{uintptr(b.Ptr()): true}
	for range 3 {
		p, _ := Reuse(codegen.Uint8, s)
		if !within(p, raw) || seen[uintptr(p.Ptr())] || uintptr(p.Ptr())%align != 0 {
			t.Fatalf("piece at %p: outside the buffer, repeated or unaligned", p.Ptr())
		}
		seen[uintptr(p.Ptr())] = true
	}

	// In use: two buffers of a size that a loop asks for, the older one
	// lying under the newer while fewer than spareAfter requests pass.
	big2 := 3*s + 64
	olds := []*Buffer{Alloc(codegen.Uint8, big2), Alloc(codegen.Uint8, big2)}
	raw = olds[0].Data
	for _, o := range olds {
		o.Free()
	}
	round := func() {
		r, ok := Reuse(codegen.Uint8, big2)
		if !ok {
			t.Fatal("the pool lost a buffer")
		}
		r.Free()
	}
	for range spareAfter - 2 {
		round()
	}
	for range staleAfter {
		event()
	}
	round() // the size is still asked for: not stale
	n = carved.Load()
	if b := Alloc(codegen.Uint8, s); within(b, raw) || carved.Load() != n {
		t.Fatal("carved a buffer its loop may still need")
	}
	// After spareAfter requests served by the newer one, the older is
	// spare.
	round()
	if b := Alloc(codegen.Uint8, s); !within(b, raw) || carved.Load() != n+1 {
		t.Fatal("a spare buffer was not carved")
	}
	if got := Pooled(codegen.Uint8, big2); got != 1 {
		t.Fatalf("%d buffers of the carved size left, want 1", got)
	}

	// Too large: more than carveRatio pieces.
	for Pooled(codegen.Uint8, big2) > 0 {
		Reuse(codegen.Uint8, big2)
	}
	c := Alloc(codegen.Uint8, (carveRatio+1)*s)
	c.Free()
	for range staleAfter {
		event()
	}
	n = carved.Load()
	for Pooled(codegen.Uint8, s) > 0 {
		Reuse(codegen.Uint8, s)
	}
	if Alloc(codegen.Uint8, s); carved.Load() != n {
		t.Fatal("carved a buffer more than carveRatio times the size")
	}
}
