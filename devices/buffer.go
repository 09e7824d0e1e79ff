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
// page faults than an add over it).
var pool = struct {
	sync.Mutex
	free map[int][][]byte
}{free: map[int][][]byte{}}

// Reuse returns a freed buffer of n elements of d from the pool, or false
// when the pool has none of that size. Its contents are unspecified.
func Reuse(d codegen.DType, n int) (*Buffer, bool) {
	size := n * d.Size()
	pool.Lock()
	defer pool.Unlock()
	if l := pool.free[size]; len(l) > 0 {
		b := l[len(l)-1]
		pool.free[size] = l[:len(l)-1]
		return &Buffer{DType: d, Len: n, Data: b}, true
	}
	return nil, false
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
	pool.Lock()
	pool.free[len(b.Data)] = append(pool.free[len(b.Data)], b.Data)
	pool.Unlock()
	b.Data = nil
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
