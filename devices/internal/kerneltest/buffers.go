package kerneltest

import (
	"math"
	"math/rand"

	"tiny/codegen"
	"tiny/devices"
)

// Get returns element i of b as a float64.
func Get(b *devices.Buffer, i int) float64 {
	switch b.DType {
	case codegen.Float16:
		return float64(codegen.HalfToFloat(b.Uint16s()[i]))
	case codegen.Float32:
		return float64(b.Float32s()[i])
	case codegen.Float64:
		return b.Float64s()[i]
	case codegen.Int32:
		return float64(b.Int32s()[i])
	case codegen.Int64:
		return float64(b.Int64s()[i])
	case codegen.Int8:
		return float64(devices.Elems[int8](b)[i])
	case codegen.Int16:
		return float64(devices.Elems[int16](b)[i])
	case codegen.Uint16:
		return float64(devices.Elems[uint16](b)[i])
	case codegen.Uint32:
		return float64(devices.Elems[uint32](b)[i])
	case codegen.Uint64:
		return float64(devices.Elems[uint64](b)[i])
	}
	return float64(b.Bytes()[i])
}

// Set stores v, already rounded to b's dtype, as element i of b.
func Set(b *devices.Buffer, i int, v float64) {
	switch b.DType {
	case codegen.Float16:
		b.Uint16s()[i] = floatToHalf(float32(v))
	case codegen.Float32:
		b.Float32s()[i] = float32(v)
	case codegen.Float64:
		b.Float64s()[i] = v
	case codegen.Int32:
		b.Int32s()[i] = int32(int64(v))
	case codegen.Int64:
		b.Int64s()[i] = int64(v)
	case codegen.Int8:
		devices.Elems[int8](b)[i] = int8(int64(v))
	case codegen.Int16:
		devices.Elems[int16](b)[i] = int16(int64(v))
	case codegen.Uint16:
		devices.Elems[uint16](b)[i] = uint16(int64(v))
	case codegen.Uint32:
		devices.Elems[uint32](b)[i] = uint32(int64(v))
	case codegen.Uint64:
		devices.Elems[uint64](b)[i] = u64(v)
	case codegen.Bool:
		if v != 0 {
			b.Bytes()[i] = 1
		} else {
			b.Bytes()[i] = 0
		}
	default:
		b.Bytes()[i] = uint8(int64(v))
	}
}

// Random fills b with small values of its dtype: floats in [-2, 2), ints in
// [-9, 9] (uint8 in [0, 9]), bools 0 or 1.
func Random(b *devices.Buffer, rng *rand.Rand) {
	for i := range b.Len {
		var v float64
		switch {
		case b.DType.IsFloat():
			v = rng.Float64()*4 - 2
		case b.DType == codegen.Bool:
			v = float64(rng.Intn(2))
		case b.DType.IsUnsigned():
			v = float64(rng.Intn(10))
		default:
			v = float64(rng.Intn(19) - 9)
		}
		Set(b, i, Round(v, b.DType))
	}
}

// Alloc returns fresh buffers for k's buffer list, inputs filled by Random and
// the output zeroed.
func Alloc(k *codegen.Kernel, rng *rand.Rand) []*devices.Buffer {
	bufs := make([]*devices.Buffer, len(k.Bufs))
	for i, s := range k.Bufs {
		bufs[i] = devices.Alloc(s.DType, s.Size)
		if i == 0 {
			bufs[i].Zero()
		} else {
			Random(bufs[i], rng)
		}
	}
	return bufs
}

// Close reports whether got is within tolerance of want for dtype d.
func Close(got, want float64, d codegen.DType) bool {
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) && math.IsNaN(got)
	}
	if math.IsInf(want, 0) || !d.IsFloat() {
		return got == want
	}
	tol := 1e-4
	if d == codegen.Float16 {
		tol = 1e-2
	}
	return math.Abs(got-want) <= tol*(1+math.Abs(want))
}

// floatToHalf rounds to the nearest half by way of float64 arithmetic, an
// implementation independent of the device's bit manipulation.
func floatToHalf(f float32) uint16 {
	v := float64(f)
	sign := uint16(0)
	if math.Signbit(v) {
		sign, v = 0x8000, -v
	}
	switch {
	case math.IsNaN(v):
		return 0x7e00
	case v >= 65520:
		return sign | 0x7c00
	case v < math.Ldexp(1, -14): // subnormal: multiples of 2**-24
		return sign | uint16(math.RoundToEven(v*(1<<24)))
	}
	e := math.Floor(math.Log2(v))
	if math.Ldexp(1, int(e)) > v {
		e--
	}
	m := math.RoundToEven(math.Ldexp(v, -int(e)+10)) // 1024..2048
	if m == 2048 {
		m, e = 1024, e+1
	}
	if e > 15 {
		return sign | 0x7c00
	}
	return sign | uint16(e+15)<<10 | uint16(m-1024)
}

func half(f float32) float32 { return codegen.HalfToFloat(floatToHalf(f)) }
