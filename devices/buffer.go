package devices

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"tiny/codegen"
)

// Buffer is a flat block of host memory holding Len elements of DType.
// Data is 64-byte aligned so generated code may use aligned vector loads.
type Buffer struct {
	DType codegen.DType
	Len   int
	Data  []byte
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
	bytes int    // the total size of the pooled buffers
	seq   uint64 // stamps each freed buffer
}{free: map[int][]pooled{}}

type pooled struct {
	data []byte
	seq  uint64
}

// PoolBytes is the most memory the pool of freed buffers keeps.
const PoolBytes = 512 << 20

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
		} else {
			pool.free[size] = l[:len(l)-1]
		}
		pool.bytes -= size
		return &Buffer{DType: d, Len: n, Data: b.data}, true
	}
	return nil, false
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
	freshBytes.Add(int64(size))
	raw := make([]byte, size+align)
	off := 0
	if size > 0 {
		if r := int(uintptr(unsafe.Pointer(&raw[0])) % align); r != 0 {
			off = align - r
		}
	}
	return &Buffer{DType: d, Len: n, Data: raw[off : off+size : off+size]}
}

// Free returns b's memory to the pool. b must not be used afterwards.
func (b *Buffer) Free() {
	if b == nil || b.Data == nil {
		return
	}
	size := len(b.Data)
	data := b.Data
	b.Data = nil
	if size == 0 || size > PoolBytes {
		return
	}
	pool.Lock()
	defer pool.Unlock()
	for pool.bytes+size > PoolBytes {
		evictOldest()
	}
	pool.seq++
	pool.free[size] = append(pool.free[size], pooled{data, pool.seq})
	pool.bytes += size
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
	l := pool.free[oldest]
	l[0] = pooled{} // the backing array must not keep the memory alive
	if len(l) == 1 {
		delete(pool.free, oldest)
	} else {
		pool.free[oldest] = l[1:]
	}
	pool.bytes -= oldest
}

// Zero sets every byte of b to 0.
func (b *Buffer) Zero() { clear(b.Data) }

// Ptr returns the address of the first element (nil for an empty buffer).
func (b *Buffer) Ptr() unsafe.Pointer {
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
	return b.Data
}

func view[T any](b *Buffer, want codegen.DType) []T {
	if b.DType != want {
		panic(fmt.Sprintf("internal error: %s view of a %s buffer", want, b.DType))
	}
	if b.Len == 0 {
		return nil
	}
	return unsafe.Slice((*T)(b.Ptr()), b.Len)
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
