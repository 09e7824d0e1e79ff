package codegen

import "fmt"

// DType is the element type of a buffer or of a value inside a kernel.
// The zero value is Bool.
type DType uint8

// The dtypes tiny computes with. Float16 is stored as IEEE half and computed
// in float32, as tinygrad does on CPU backends.
const (
	Bool DType = iota
	Uint8
	Int32
	Int64
	Float16
	Float32
	Float64

	// Index is the dtype of loop variables and index arithmetic inside a
	// lowered Program (a machine int). It is never a buffer's dtype and is
	// not in DTypes.
	Index
)

var dtypeInfo = [...]struct {
	name string
	size int
}{
	Bool:    {"bool", 1},
	Uint8:   {"uint8", 1},
	Int32:   {"int32", 4},
	Int64:   {"int64", 8},
	Float16: {"float16", 2},
	Float32: {"float32", 4},
	Float64: {"float64", 8},
	Index:   {"index", 8},
}

// DTypes lists every dtype in promotion order (bool < ints < floats).
var DTypes = []DType{Bool, Uint8, Int32, Int64, Float16, Float32, Float64}

// String returns the dtype's name as the language spells it ("float32").
func (d DType) String() string {
	if int(d) < len(dtypeInfo) {
		return dtypeInfo[d].name
	}
	return fmt.Sprintf("dtype(%d)", uint8(d))
}

// Size returns the number of bytes one element occupies in a buffer.
func (d DType) Size() int { return dtypeInfo[d].size }

// IsFloat reports whether d is a floating-point dtype.
func (d DType) IsFloat() bool { return d >= Float16 && d <= Float64 }

// IsInt reports whether d is an integer dtype (bool is not).
func (d DType) IsInt() bool { return d == Uint8 || d == Int32 || d == Int64 }

// ParseDType returns the dtype with the given name.
func ParseDType(name string) (DType, bool) {
	for _, d := range DTypes {
		if d.String() == name {
			return d, true
		}
	}
	return 0, false
}

// Promote returns the dtype both operands of a binary op are cast to:
// the later of the two in the order bool < uint8 < int32 < int64 < float16 < float32 < float64.
func Promote(a, b DType) DType {
	if a > b {
		return a
	}
	return b
}
