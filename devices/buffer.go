package devices

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"tiny/codegen"
)

// Buffer is a flat block of host memory holding Len elements of DType.
// Data is 64-byte aligned so generated code may use aligned vector loads.
//
// A device whose memory is not the host's (the OpenCL GPU device) keeps a
// Mirror of the buffer beside Data, so that a value computed by one kernel
// stays on the device for the next: the host copy is brought up to date only
// when the host touches it (Ptr, the typed views, Bytes, Zero), and after
// such a touch the device copy counts as stale, as the host may have written.
// Devices that run on the host never set a mirror and read Data directly.
type Buffer struct {
	DType codegen.DType
	Len   int
	Data  []byte

	shares atomic.Int32 // owners besides the first (Share); Free returns the memory when the last one frees

	mirror Mirror
	state  mirrorState
}

// Mirror is a device's copy of a buffer's data.
type Mirror interface {
	// Read copies the device's data into dst (len(dst) bytes).
	Read(dst []byte) error
	// Release frees the device memory; the mirror is not used afterwards.
	Release()
}

// mirrorState says which copy of a mirrored buffer holds its value.
type mirrorState uint8

const (
	sameData    mirrorState = iota // both copies hold the value
	deviceNewer                    // a kernel wrote the mirror; Data is stale
	hostNewer                      // the host may have written Data; the mirror is stale
)

// Mirrored returns b's device copy and whether it holds b's current value.
func (b *Buffer) Mirrored() (m Mirror, current bool) {
	return b.mirror, b.mirror != nil && b.state != hostNewer
}

// SetMirror makes m b's device copy, releasing the one before if it is
// another. written says that m now holds a newer value than Data (a kernel
// wrote it); otherwise both hold the same value (m was copied from Data).
func (b *Buffer) SetMirror(m Mirror, written bool) {
	if b.mirror != nil && b.mirror != m {
		b.mirror.Release()
	}
	b.mirror, b.state = m, sameData
	if written {
		b.state = deviceNewer
	}
}

// Sync brings Data up to date with the device copy, if a kernel wrote it,
// and marks the device copy stale: the caller may write Data. It panics with
// the device's error if the copy fails (an error of the environment: a lost
// device), as a host read has no error to return.
func (b *Buffer) Sync() {
	if b.mirror == nil {
		return
	}
	if b.state == deviceNewer && len(b.Data) > 0 {
		if err := b.mirror.Read(b.Data); err != nil {
			panic(fmt.Sprintf("devices: reading a buffer back from the device: %v", err))
		}
	}
	b.state = hostNewer
}

const align = 64

// pool keeps freed buffers by byte size so that a kernel's output can reuse
// memory instead of faulting in fresh pages (a new 64 MiB buffer costs more in
// page faults than an add over it). It holds at most PoolBytes; past that the
// buffers freed longest ago are dropped for the Go collector, so a script
// whose tensors change size every round does not keep each size alive.
var pool = struct {
	sync.Mutex
	free  map[int][]pooled
	bytes int              // the total size of the pooled buffers
	seq   uint64           // counts frees and large requests; stamps each freed buffer
	use   map[int]*sizeUse // the requests of each large size the pool holds
}{free: map[int][]pooled{}, use: map[int]*sizeUse{}}

// sizeUse is what the pool knows of the requests (Reuse) of a large size
// while it holds buffers of the size: the seq of the last one and how many
// there have been.
type sizeUse struct {
	asked, asks uint64
}

type pooled struct {
	data []byte
	seq  uint64
	asks uint64 // its size's asks when it was freed (large sizes)
}

// PoolBytes is the most memory the pool of freed buffers keeps.
const PoolBytes = 512 << 20

// smallPerSize is how many freed buffers of one size under smallBytes the
// pool keeps; the others go back to the Go heap. Dead buffers come back
// only at collections, the pool's buffers are live heap, and the
// collector's pacing lets the heap double before it collects again: so a
// loop over small results grew the pool without bound, each round that
// found it empty taking memory new to the heap, faulted in by the kernel.
// `x + 1` over 64x64 (16 KiB results), 60,000 rounds: 394-423 MB of heap
// (13 collections) and 16.6-16.8 us a round with every buffer pooled;
// 62-67 MB and 14.4-16.4 us with 256 of a size (64: 33-37 MB, 15.6-16.8
// us, and a 64x64 matmul step 5-10% slower than unbounded in alternated
// runs; 16: 58-62 MB, 21-23 us, a collection every 350 rounds). A small
// buffer the Go heap hands out again was freed by it: no page faults, a
// clear of a few KiB. From smallBytes on the tensor package brings large
// results back sooner (tensor/reclaim.go), and a fresh large buffer is
// pages of its own.
const smallPerSize = 256

// smallBytes is the size below which the pool keeps at most smallPerSize
// buffers of a size.
const smallBytes = 1 << 20

// Reuse returns a freed buffer of n elements of d from the pool, or false
// when the pool has none of that size. Its contents are unspecified.
func Reuse(d codegen.DType, n int) (*Buffer, bool) {
	size := n * d.Size()
	pool.Lock()
	defer pool.Unlock()
	if l := pool.free[size]; len(l) > 0 {
		b := l[len(l)-1]
		l[len(l)-1] = pooled{}
		if len(l) == 1 {
			delete(pool.free, size)
			delete(pool.use, size)
		} else {
			pool.free[size] = l[:len(l)-1]
			if u := pool.use[size]; u != nil {
				pool.seq++
				u.asked = pool.seq
				u.asks++
			}
		}
		pool.bytes -= size
		return &Buffer{DType: d, Len: n, Data: b.data}, true
	}
	return nil, false
}

// Pooled returns how many freed buffers of n elements of d the pool holds.
func Pooled(d codegen.DType, n int) int {
	pool.Lock()
	defer pool.Unlock()
	return len(pool.free[n*d.Size()])
}

// PooledBytes returns the total size of the buffers the pool holds.
func PooledBytes() int {
	pool.Lock()
	defer pool.Unlock()
	return pool.bytes
}

// freshBytes counts the bytes Alloc has taken from the Go heap rather than
// from the pool.
var freshBytes atomic.Int64

// FreshBytes returns how many bytes Alloc has allocated anew, not reused
// from the pool, since the process started.
func FreshBytes() int64 { return freshBytes.Load() }

// Alloc returns a buffer of n elements of d. Its contents are unspecified
// (it may be reused memory); use Zero to clear it.
func Alloc(d codegen.DType, n int) *Buffer {
	if b, ok := Reuse(d, n); ok {
		return b
	}
	size := n * d.Size()
	if data := carve(size); data != nil {
		return &Buffer{DType: d, Len: n, Data: data}
	}
	freshBytes.Add(int64(size))
	raw := make([]byte, size+align)
	off := 0
	if size > 0 {
		if r := int(uintptr(unsafe.Pointer(&raw[0])) % align); r != 0 {
			off = align - r
		}
	}
	if size >= hugeBytes && size < hugeMaxBytes {
		adviseHuge(raw)
	}
	return &Buffer{DType: d, Len: n, Data: raw[off : off+size : off+size]}
}

// Share adds an owner to b: a tensor written in place shares its buffer
// with the tensor it overwrote, and each frees it when it dies.
func (b *Buffer) Share() { b.shares.Add(1) }

// Free returns b's memory to the pool once every owner has freed it (see
// Share). The last owner must not use b afterwards.
func (b *Buffer) Free() {
	if b == nil || b.Data == nil {
		return
	}
	if b.shares.Add(-1) >= 0 {
		return
	}
	if b.mirror != nil {
		b.mirror.Release()
		b.mirror = nil
	}
	size := len(b.Data)
	data := b.Data
	b.Data = nil
	if size > PoolBytes {
		// Too large to pool: a collection frees it now, so that the next
		// buffer this large reuses its pages (they are already faulted
		// in) and the heap does not hold two. beautiful_mnist's
		// evaluation (703 MiB for its first activation) peaked at 2.45 GB
		// of memory with this, 2.75-2.76 GB without.
		go runtime.GC()
		return
	}
	if size == 0 {
		return
	}
	pool.Lock()
	defer pool.Unlock()
	if size < smallBytes && len(pool.free[size]) >= smallPerSize {
		return // the Go heap takes it back (smallPerSize says why)
	}
	for pool.bytes+size > PoolBytes {
		evictOldest()
	}
	put(data)
}

// put adds data to the pool as a buffer of its size. The caller holds the
// pool's lock.
func put(data []byte) {
	size := len(data)
	pool.seq++
	p := pooled{data: data, seq: pool.seq}
	if size >= smallBytes {
		u := pool.use[size]
		if u == nil {
			u = &sizeUse{}
			pool.use[size] = u
		}
		p.asks = u.asks
	}
	pool.free[size] = append(pool.free[size], p)
	pool.bytes += size
}

// carve returns size bytes cut from a pooled buffer of another size that
// the program has stopped asking for, putting the other pieces it holds in
// the pool as buffers of size, or nil when there is none. Memory that has
// been pooled is faulted in, and a fresh large buffer is not: on this VM a
// fresh 4 MiB result took 1.5-15 ms of page faults against a 0.3 ms
// kernel, while the pool held hundreds of MiB of the buffers of results a
// script had stopped making (a loop over one shape after a loop over
// another, an evaluation after training).
//
// carve cuts the oldest buffer of a size that is stale or has one to
// spare. Stale: the buffer was freed staleAfter large requests and frees
// ago and nothing has asked for its size since (a size a loop still uses
// is asked for every round). To spare: its size has been asked for
// spareAfter times while the buffer lay in the pool, each time served by
// a buffer freed later (the pool hands out the newest first), so the loop
// that uses the size has not needed it. The buffer carved is at most
// carveRatio times size, and its pieces use at least three quarters of
// it: a piece keeps the whole buffer alive.
func carve(size int) []byte {
	if size < smallBytes {
		return nil
	}
	stride := (size + align - 1) &^ (align - 1)
	pool.Lock()
	defer pool.Unlock()
	best := -1
	for s, l := range pool.free {
		k := s / stride
		if s <= size || s > carveRatio*size || 4*k*stride < 3*s {
			continue
		}
		u, old := pool.use[s], l[0]
		stale := pool.seq-old.seq >= staleAfter && u.asked < old.seq
		if !stale && u.asks-old.asks < spareAfter {
			continue
		}
		if best < 0 || l[0].seq < pool.free[best][0].seq {
			best = s
		}
	}
	if best < 0 {
		return nil
	}
	data := takeOldest(best)
	for i := 1; i < best/stride; i++ {
		put(data[i*stride : i*stride+size : i*stride+size])
	}
	carved.Add(1)
	return data[:size:size]
}

// staleAfter and spareAfter say when carve may cut a buffer (see there);
// carveRatio bounds the buffer it cuts, as a multiple of the size asked.
const (
	staleAfter = 16
	spareAfter = 16
	carveRatio = 4
)

// carved counts the buffers carve has cut (for tests).
var carved atomic.Int64

// takeOldest removes the buffer of size bytes freed longest ago from the
// pool and returns it. The caller holds the pool's lock.
func takeOldest(size int) []byte {
	l := pool.free[size]
	data := l[0].data
	l[0] = pooled{} // the backing array must not keep the memory alive
	if len(l) == 1 {
		delete(pool.free, size)
		delete(pool.use, size)
	} else {
		pool.free[size] = l[1:]
	}
	pool.bytes -= size
	return data
}

// evictOldest drops the buffer freed longest ago. Each size's list is in
// the order its buffers were freed, so the oldest is the first of some
// list. The caller holds the pool's lock.
func evictOldest() {
	oldest := -1
	for size, l := range pool.free {
		if oldest < 0 || l[0].seq < pool.free[oldest][0].seq {
			oldest = size
		}
	}
	takeOldest(oldest)
}

// Zero sets every byte of b to 0.
func (b *Buffer) Zero() {
	b.Sync()
	clear(b.Data)
}

// Ptr returns the address of the first element (nil for an empty buffer).
func (b *Buffer) Ptr() unsafe.Pointer {
	b.Sync()
	if len(b.Data) == 0 {
		return nil
	}
	return unsafe.Pointer(&b.Data[0])
}

// Float32s returns the buffer as a []float32 sharing its memory.
func (b *Buffer) Float32s() []float32 { return view[float32](b, codegen.Float32) }

// Float64s returns the buffer as a []float64 sharing its memory.
func (b *Buffer) Float64s() []float64 { return view[float64](b, codegen.Float64) }

// Int32s returns the buffer as a []int32 sharing its memory.
func (b *Buffer) Int32s() []int32 { return view[int32](b, codegen.Int32) }

// Int64s returns the buffer as a []int64 sharing its memory.
func (b *Buffer) Int64s() []int64 { return view[int64](b, codegen.Int64) }

// Uint16s returns a float16 buffer's raw halves as a []uint16 sharing its memory.
func (b *Buffer) Uint16s() []uint16 { return view[uint16](b, codegen.Float16) }

// Bytes returns a bool or uint8 buffer as a []uint8 sharing its memory.
func (b *Buffer) Bytes() []uint8 {
	if b.DType != codegen.Bool && b.DType != codegen.Uint8 {
		panic(fmt.Sprintf("internal error: Bytes of a %s buffer", b.DType))
	}
	b.Sync()
	return b.Data
}

func view[T any](b *Buffer, want codegen.DType) []T {
	if b.DType != want {
		panic(fmt.Sprintf("internal error: %s view of a %s buffer", want, b.DType))
	}
	if b.Len == 0 {
		return nil
	}
	return unsafe.Slice((*T)(b.Ptr()), b.Len) // Ptr syncs
}

// Elems returns the buffer as a []T sharing its memory, for any T of the
// element size (int8 for an int8 buffer, uint32 for a uint32 one, ...).
func Elems[T any](b *Buffer) []T {
	var z T
	if int(unsafe.Sizeof(z)) != b.DType.Size() {
		panic(fmt.Sprintf("internal error: %T view of a %s buffer", z, b.DType))
	}
	if b.Len == 0 {
		return nil
	}
	return unsafe.Slice((*T)(b.Ptr()), b.Len)
}
