package tensor

import (
	"math"
	"reflect"
	"runtime"
	"strings"

	"tiny/codegen"
	"tiny/devices"
)

// FromFloats returns a tensor of dtype d and the given shape holding data
// (row-major), converted to d as a cast would. It panics with a *Error if
// len(data) does not match the shape.
func (e *Engine) FromFloats(data []float64, shp []int, d DType) *Tensor {
	checkShape("tensor", shp)
	if len(data) != prod(shp) {
		fail("tensor: %d values cannot fill shape %s", len(data), FormatShape(shp))
	}
	b := e.alloc("tensor", d, len(data))
	writeFloats(b, data)
	return &Tensor{newBuffer(e, b, append([]int(nil), shp...))}
}

// FromInts is FromFloats for integer data, exact for every int64.
func (e *Engine) FromInts(data []int64, shp []int, d DType) *Tensor {
	checkShape("tensor", shp)
	if len(data) != prod(shp) {
		fail("tensor: %d values cannot fill shape %s", len(data), FormatShape(shp))
	}
	b := e.alloc("tensor", d, len(data))
	writeInts(b, data)
	return &Tensor{newBuffer(e, b, append([]int(nil), shp...))}
}

// FromBools is FromFloats for bool data; d is usually Bool.
func (e *Engine) FromBools(data []bool, shp []int, d DType) *Tensor {
	f := make([]float64, len(data))
	for i, v := range data {
		if v {
			f[i] = 1
		}
	}
	return e.FromFloats(f, shp, d)
}

// FromData returns a tensor from nested Go data: a number or bool, or slices
// (of any element type, []any included) nested to equal lengths. The dtype is
// dtype[0] if given; otherwise bool when every leaf is a bool, int32 when all
// are integers (int64 when one does not fit int32, uint64 when one passes
// int64 and none is negative), else float32. Each value
// is converted once, to the final dtype: integers stay exact in int64, and
// floats in float64. An integer that does not fit an integer dtype given is
// an error, never a silent wrap. It panics with a *Error for ragged or
// non-numeric data.
func (e *Engine) FromData(data any, dtype ...DType) *Tensor {
	var shp []int
	var vals []float64
	var ints []int64 // the exact values while every leaf is an integer or bool
	isFloat, allBool, n := false, true, 0
	var big uint64 // the first unsigned value past int64, kept in ints as its bits
	var neg int64  // the first negative signed value
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		for v.Kind() == reflect.Interface && !v.IsNil() {
			v = v.Elem()
		}
		switch v.Kind() {
		case reflect.Slice, reflect.Array:
			if depth == len(shp) {
				if n > 0 {
					fail("tensor: ragged data: a list where a number was")
				}
				shp = append(shp, v.Len())
			} else if depth > len(shp) || shp[depth] != v.Len() {
				fail("tensor: ragged data: lengths differ at depth %d", depth)
			}
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), depth+1)
			}
			return
		}
		if depth != len(shp) {
			fail("tensor: ragged data: a number where a list was")
		}
		n++
		switch v.Kind() {
		case reflect.Bool:
			vals = append(vals, b2f(v.Bool()))
			ints = append(ints, int64(b2f(v.Bool())))
			return
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if v.Int() < 0 && neg == 0 {
				neg = v.Int()
			}
			vals = append(vals, float64(v.Int()))
			ints = append(ints, v.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if v.Uint() > math.MaxInt64 && big == 0 {
				big = v.Uint()
			}
			vals = append(vals, float64(v.Uint()))
			ints = append(ints, int64(v.Uint()))
		case reflect.Float32, reflect.Float64:
			vals = append(vals, v.Float())
			isFloat = true
		default:
			fail("tensor: cannot make a tensor from %s", v.Kind())
		}
		allBool = false
	}
	walk(reflect.ValueOf(data), 0)
	d := Float32
	switch {
	case len(dtype) > 0:
		d = dtype[0]
	case allBool && len(vals) > 0:
		d = Bool
	case !isFloat && big != 0 && neg == 0:
		d = Uint64 // a value past int64 and none below 0
	case !isFloat && big != 0:
		d = Int64 // and the value past it is an error below
	case !isFloat && len(vals) > 0:
		d = Int32
		if _, ok := fitsInt(ints, Int32); !ok {
			d = Int64
		}
	}
	if shp == nil {
		shp = []int{}
	}
	if big != 0 && d.IsInt() && d != Uint64 {
		fail("tensor: %d does not fit %s", big, d)
	}
	if !isFloat && d.IsInt() {
		if big != 0 {
			// uint64 values past int64 are kept as their bits, which a
			// negative int would share: those were noted as they came.
			if neg != 0 {
				fail("tensor: %d does not fit %s", neg, d)
			}
			return e.FromInts(ints, shp, d)
		}
		if v, ok := fitsInt(ints, d); !ok {
			fail("tensor: %d does not fit %s", v, d)
		}
		return e.FromInts(ints, shp, d)
	}
	return e.FromFloats(vals, shp, d)
}

// fitsInt reports whether every value of vs fits integer dtype d, and
// returns the first that does not.
func fitsInt(vs []int64, d DType) (int64, bool) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	switch d.Size() {
	case 1:
		lo, hi = math.MinInt8, math.MaxInt8
	case 2:
		lo, hi = math.MinInt16, math.MaxInt16
	case 4:
		lo, hi = math.MinInt32, math.MaxInt32
	}
	if strings.HasPrefix(d.String(), "uint") {
		lo, hi = 0, hi*2+1
		if d.Size() == 8 {
			hi = math.MaxInt64
		}
	}
	for _, v := range vs {
		if v < lo || v > hi {
			return v, false
		}
	}
	return 0, true
}

// Scalar returns a rank-0 tensor holding v as dtype d. It is a constant: it
// costs no buffer and folds into the kernels that use it.
func (e *Engine) Scalar(v float64, d DType) *Tensor { return &Tensor{newConst(e, v, d)} }

// Full returns a tensor of shape shp and dtype d filled with v. Like Scalar,
// it is a constant broadcast by a stride-0 view.
func (e *Engine) Full(shp []int, v float64, d DType) *Tensor {
	checkShape("full", shp)
	c := newConst(e, v, d)
	ones := make([]int, len(shp))
	for i := range ones {
		ones[i] = 1
	}
	return &Tensor{c.reshape(ones).expand(append([]int(nil), shp...))}
}

// Zeros returns a tensor of zeros.
func (e *Engine) Zeros(d DType, shp ...int) *Tensor { return e.Full(shp, 0, d) }

// Ones returns a tensor of ones.
func (e *Engine) Ones(d DType, shp ...int) *Tensor { return e.Full(shp, 1, d) }

// ZerosLike returns zeros of t's shape and dtype.
func (t *Tensor) ZerosLike() *Tensor { return t.n.eng.Full(t.n.shape, 0, t.n.dtype) }

// OnesLike returns ones of t's shape and dtype.
func (t *Tensor) OnesLike() *Tensor { return t.n.eng.Full(t.n.shape, 1, t.n.dtype) }

// FullLike returns t's shape and dtype filled with v.
func (t *Tensor) FullLike(v float64) *Tensor { return t.n.eng.Full(t.n.shape, v, t.n.dtype) }

// Arange returns start, start+step, ... below stop (above it for a negative
// step). The dtype is dtype[0] if given, else int32 when all three are
// integral and float32 otherwise. It panics with a *Error for a zero step.
func (e *Engine) Arange(start, stop, step float64, dtype ...DType) *Tensor {
	if step == 0 {
		fail("arange: step must not be zero")
	}
	d := Float32
	if len(dtype) > 0 {
		d = dtype[0]
	}
	count := math.Max(0, math.Ceil((stop-start)/step))
	if math.IsNaN(count) || count > maxElements {
		fail("arange: cannot make %v values from %v to %v by %v", count, start, stop, step)
	}
	if len(dtype) == 0 && isIntegral(start) && isIntegral(stop) && isIntegral(step) {
		// int32, or int64 when a value would not fit: never a silent wrap.
		d = Int32
		if last := start + (count-1)*step; count > 0 && math.Max(math.Abs(start), math.Abs(last)) > math.MaxInt32 {
			d = Int64
		}
	}
	n := int(count)
	if n <= tableLen {
		return e.generate("arange", []int{n}, d, func(i int) float64 { return start + float64(i)*step })
	}
	// Longer: a kernel over positions, start + i*step computed as the host
	// computes it (in int64 for ints, float64 for floats) and cast once.
	checkDType("arange", d)
	p := e.positions(n)
	if d.IsInt() && isIntegral(start) && isIntegral(step) {
		return p.Cast(Int64).Mul(e.Scalar(step, Int64)).Add(e.Scalar(start, Int64)).Cast(d)
	}
	return p.Cast(Float64).Mul(step).Add(start).Cast(d)
}

// tableLen is the longest run of positions kept as a table on the host;
// longer ones are kernels over such tables (positions).
const tableLen = 1 << 16

// positions returns the lazy tensor 0, 1, ..., n-1 (int32, or int64 past
// int32's range). Up to tableLen it is a table on the host; beyond, element
// i is hi[i / tableLen]*tableLen + lo[i % tableLen] of two shorter runs (views
// that broadcast them, so the kernel computes the divisions), so that nothing of n's size lives on the host: the values are computed
// by the kernel that uses them (arange(2147483647).max() holds 256 KiB).
func (e *Engine) positions(n int) *Tensor {
	d := Int32
	if n-1 > math.MaxInt32 {
		d = Int64
	}
	if n <= tableLen {
		return e.generate("arange", []int{n}, d, func(i int) float64 { return float64(i) })
	}
	hi := (n + tableLen - 1) / tableLen
	spread := func(x *Tensor, shp ...int) *Tensor { // x seen as (hi, tableLen), flattened and cut to n
		return x.Cast(d).Reshape(shp...).Expand(hi, tableLen).Reshape(hi * tableLen).Shrink([][2]int{{0, n}})
	}
	outer := spread(e.positions(hi), hi, 1)
	return outer.Mul(e.Scalar(tableLen, d)).Add(spread(e.positions(tableLen), 1, tableLen))
}

// genChunk is how many values generate computes at a time.
const genChunk = 1 << 16

// generate returns a tensor of shape shp and dtype d whose element i is
// f(i), written straight into its buffer in chunks shared among the
// processors: the host holds nothing but the buffer and a chunk of float64s
// per processor (not a float64 per element, 12 to 27 bytes an element in
// all, as when the values were built as a slice first).
func (e *Engine) generate(op string, shp []int, d DType, f func(i int) float64) *Tensor {
	checkShape(op, shp)
	n := prod(shp)
	b := e.alloc(op, d, n)
	sz := d.Size()
	// devices.ParallelChunks runs the last worker on this goroutine: one
	// chunk (argmax's positions, a one-hot's classes: every call) starts no
	// goroutine, and its slice is its length, not a chunk's.
	workers := runtime.GOMAXPROCS(0)
	vals := make([][]float64, workers)
	devices.ParallelChunks(nil, n, (n+genChunk-1)/genChunk, workers,
		func(w int) { vals[w] = make([]float64, min(n, genChunk)) },
		func(w, _, lo, hi int) {
			v := vals[w][:hi-lo]
			for i := lo; i < hi; i++ {
				v[i-lo] = f(i)
			}
			writeFloats(&devices.Buffer{DType: d, Len: hi - lo, Data: b.Data[lo*sz : hi*sz]}, v)
		})
	return &Tensor{newBuffer(e, b, append([]int(nil), shp...))}
}

// Linspace returns n float32 values evenly spaced from a to b inclusive.
func (e *Engine) Linspace(a, b float64, n int) *Tensor {
	if n < 0 {
		fail("linspace: number of samples %d must be non-negative", n)
	}
	return e.generate("linspace", []int{n}, Float32, func(i int) float64 {
		if i == n-1 && n > 1 {
			return b
		}
		return a + (b-a)*float64(i)/float64(max(n-1, 1))
	})
}

// Eye returns the n by m float32 identity (ones on the main diagonal). It is
// a constant: a one padded and reshaped so that only the diagonal is valid.
func (e *Engine) Eye(n, m int) *Tensor {
	checkShape("eye", []int{n, m})
	if n == 0 || m == 0 {
		return e.Zeros(Float32, n, m)
	}
	// The square identity of the larger side, cut to n by m: a row of m+1
	// would wrap the diagonal around when n > m+1.
	k := max(n, m)
	sq := e.Full([]int{k, 1}, 1, Float32).Pad([][2]int{{0, 0}, {0, k}}).
		Reshape(k*(k+1)).Shrink([][2]int{{0, k * k}}).Reshape(k, k)
	if k == n && k == m {
		return sq
	}
	return sq.Shrink([][2]int{{0, n}, {0, m}})
}

func isIntegral(v float64) bool { return v == math.Trunc(v) && math.Abs(v) < 1<<53 }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// checkShape panics with a *Error if a dimension is negative.
func checkShape(op string, shp []int) {
	n := 1
	for _, d := range shp {
		if d < 0 {
			fail("%s: negative dimension in shape %s", op, FormatShape(shp))
		}
		if d > 0 && n > maxElements/d {
			fail("%s: shape %s has more than %d elements", op, FormatShape(shp), maxElements)
		}
		n *= d
	}
}

// maxElements bounds every shape and maxBytes every buffer, so that a script
// asking for too much gets an error rather than a fatal out-of-memory.
const (
	maxElements = 1 << 40
	maxBytes    = 8 << 30
)

// alloc is the package's alloc, counted against e's memory bound.
func (e *Engine) alloc(op string, d DType, n int) *devices.Buffer {
	checkAlloc(op, d, n)
	if e != nil && e.opts.MaxBytes > 0 && int64(n)*int64(d.Size()) > e.opts.MaxBytes {
		fail("%s: out of memory: a buffer of %s would pass the limit of %s", op, FormatBytes(int64(n)*int64(d.Size())), FormatBytes(e.opts.MaxBytes))
	}
	b := alloc(op, d, n)
	e.hold(op, b)
	return b
}

// alloc returns a device buffer for n elements of d, or panics with a *Error
// when it would exceed maxBytes.
func alloc(op string, d DType, n int) *devices.Buffer {
	checkAlloc(op, d, n)
	return devices.Alloc(d, n)
}

// checkAlloc panics with a *Error when n elements of d would exceed
// maxBytes: creators that build values on the host call it first.
func checkAlloc(op string, d DType, n int) {
	checkDType(op, d)
	if n > maxBytes/d.Size() {
		fail("%s: a buffer of %d %s elements is larger than the %d GiB limit", op, n, d, maxBytes>>30)
	}
}

// checkDType panics with a *Error unless d is one of the dtypes.
func checkDType(op string, d DType) {
	if int(d) >= len(codegen.DTypes) {
		fail("%s: bad dtype %s", op, d)
	}
}
