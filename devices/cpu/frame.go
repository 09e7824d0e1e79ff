package cpu

import (
	"fmt"
	"math"
	"sync/atomic"

	"tiny/codegen"
	"tiny/devices"
)

// blockSize is the longest run of an innermost loop handled by one call of
// each uop's closure: long enough to hide the call, short enough that a
// kernel's temporaries stay in the L1 and L2 caches.
const blockSize = 1024

// rtype is the Go type a value lives in while a kernel runs.
type rtype uint8

const (
	tF32 rtype = iota // float32 and float16 (computed in float32)
	tF64
	tI32
	tI64
	tU8 // uint8 and bool (0 or 1)
	tIx // index arithmetic
	tI8
	tI16
	tU16
	tU32
	tU64
)

func regType(d codegen.DType) rtype {
	switch d {
	case codegen.Float16, codegen.Float32:
		return tF32
	case codegen.Float64:
		return tF64
	case codegen.Int32:
		return tI32
	case codegen.Int64:
		return tI64
	case codegen.Bool, codegen.Uint8:
		return tU8
	case codegen.Int8:
		return tI8
	case codegen.Int16:
		return tI16
	case codegen.Uint16:
		return tU16
	case codegen.Uint32:
		return tU32
	case codegen.Uint64:
		return tU64
	}
	return tIx
}

// regs holds one slice per slot, in the slot's type; only one of the
// slices of a slot is in use.
type regs struct {
	f32 [][]float32
	f64 [][]float64
	i32 [][]int32
	i64 [][]int64
	u8  [][]uint8
	ix  [][]int
	i8  [][]int8
	i16 [][]int16
	u16 [][]uint16
	u32 [][]uint32
	u64 [][]uint64
}

func makeRegs(n int) regs {
	return regs{make([][]float32, n), make([][]float64, n), make([][]int32, n),
		make([][]int64, n), make([][]uint8, n), make([][]int, n),
		make([][]int8, n), make([][]int16, n), make([][]uint16, n), make([][]uint32, n), make([][]uint64, n)}
}

// ival converts a constant to an integer register type, wrapping to its
// width as a cast does (through int64; uint64's upper half directly).
func ival[T integer](v float64) T {
	if v >= 1<<64 {
		m := uint64(math.MaxUint64) // the float64 nearest it is 2**64
		return T(m)
	}
	if v >= 1<<63 {
		return T(uint64(v))
	}
	return T(int64(v))
}

// get returns the slices of r of type T.
func get[T num](r *regs) [][]T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(r.f32).([][]T)
	case float64:
		return any(r.f64).([][]T)
	case int32:
		return any(r.i32).([][]T)
	case int64:
		return any(r.i64).([][]T)
	case uint8:
		return any(r.u8).([][]T)
	case int:
		return any(r.ix).([][]T)
	case int8:
		return any(r.i8).([][]T)
	case int16:
		return any(r.i16).([][]T)
	case uint16:
		return any(r.u16).([][]T)
	case uint32:
		return any(r.u32).([][]T)
	case uint64:
		return any(r.u64).([][]T)
	}
	panic("internal error: register type")
}

// frame is one worker's state: cur is each slot's current run (its own
// memory, or a window of a buffer that a load aliases or a store fills in
// place), own the memory each slot owns, g the kernel's buffers and h its
// float16 buffers as raw halves.
type frame struct {
	cur, own, g regs
	h           [][]uint16
	stop        *atomic.Bool // set when the run's context is done: outer loops return
}

// slotInit says how a frame allocates one slot.
type slotInit struct {
	t    rtype
	n    int     // elements owned; 0 for none
	val  float64 // CONST: the value
	isK  bool
	name string // DEFINE_VAR: the variable
}

func newFrame(slots []slotInit, nbufs int) *frame {
	fr := &frame{cur: makeRegs(len(slots)), own: makeRegs(len(slots)), g: makeRegs(nbufs), h: make([][]uint16, nbufs), stop: new(atomic.Bool)}
	for i, s := range slots {
		if s.n == 0 {
			continue
		}
		types[s.t].alloc(fr, i, s)
	}
	return fr
}

func alloc[T num](fr *frame, i int, s slotInit, v T) {
	x := make([]T, s.n)
	if s.isK {
		x[0] = v
	}
	get[T](&fr.own)[i] = x
	get[T](&fr.cur)[i] = x
}

// bind points the frame at the run's buffers and variables.
func (fr *frame) bind(bufs []*devices.Buffer, slots []slotInit, vars map[string]int64) error {
	for i, b := range bufs {
		switch b.DType {
		case codegen.Float16:
			fr.h[i] = b.Uint16s()
		case codegen.Float32:
			fr.g.f32[i] = b.Float32s()
		case codegen.Float64:
			fr.g.f64[i] = b.Float64s()
		case codegen.Int32:
			fr.g.i32[i] = b.Int32s()
		case codegen.Int64:
			fr.g.i64[i] = b.Int64s()
		case codegen.Int8:
			fr.g.i8[i] = devices.Elems[int8](b)
		case codegen.Int16:
			fr.g.i16[i] = devices.Elems[int16](b)
		case codegen.Uint16:
			fr.g.u16[i] = devices.Elems[uint16](b)
		case codegen.Uint32:
			fr.g.u32[i] = devices.Elems[uint32](b)
		case codegen.Uint64:
			fr.g.u64[i] = devices.Elems[uint64](b)
		default:
			fr.g.u8[i] = b.Bytes()
		}
	}
	for i, s := range slots {
		if s.name != "" {
			v, ok := vars[s.name]
			if !ok {
				return fmt.Errorf("cpu: no value for variable %s", s.name)
			}
			fr.own.ix[i][0] = int(v)
		}
	}
	return nil
}

func fill[T any](d []T, v T) {
	for i := range d {
		d[i] = v
	}
}
