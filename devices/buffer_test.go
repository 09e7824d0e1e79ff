package devices

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

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
