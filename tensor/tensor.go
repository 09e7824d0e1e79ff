package tensor

import (
	"fmt"
	"strings"

	"tiny/codegen"
)

// DType is the element type of a tensor; it is codegen's DType.
type DType = codegen.DType

// The dtypes, re-exported from codegen.
const (
	Bool    = codegen.Bool
	Int8    = codegen.Int8
	Uint8   = codegen.Uint8
	Int16   = codegen.Int16
	Uint16  = codegen.Uint16
	Int32   = codegen.Int32
	Uint32  = codegen.Uint32
	Int64   = codegen.Int64
	Uint64  = codegen.Uint64
	Float16 = codegen.Float16
	Float32 = codegen.Float32
	Float64 = codegen.Float64
)

// Tensor is an immutable handle on a lazy node. Operations return new
// tensors at once; nothing is computed until a value is read or Realize is
// called. The zero value is not usable; tensors come from an Engine.
type Tensor struct {
	n *lazy
}

// Error is a user error raised by a tensor operation, such as shapes that do
// not broadcast. Methods panic with a *Error; callers that prefer values use
// Catch.
type Error struct {
	Msg string
	Err error // the cause, when there is one: context.Canceled for an interrupted kernel
}

// Error returns the message, e.g. "cannot broadcast shapes (2, 3) and (4,)".
func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// fail panics with a *Error built from a format.
func fail(format string, args ...any) {
	panic(&Error{Msg: fmt.Sprintf(format, args...)})
}

// Catch runs f and returns the *Error it panicked with, or nil. Other panics
// pass through.
func Catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

// Try calls f and returns its tensor, or the *Error it panicked with.
func Try(f func() *Tensor) (t *Tensor, err error) {
	err = Catch(func() { t = f() })
	return t, err
}

// FormatShape prints a shape in tuple form: (2, 3), (4,), ().
func FormatShape(s []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, d)
	}
	if len(s) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// Shape returns a copy of the tensor's shape.
func (t *Tensor) Shape() []int { return append([]int(nil), t.n.shape...) }

// DType returns the tensor's element type.
func (t *Tensor) DType() DType { return t.n.dtype }

// Ndim returns the tensor's rank (number of axes).
func (t *Tensor) Ndim() int { return len(t.n.shape) }

// Numel returns the number of elements.
func (t *Tensor) Numel() int { return prod(t.n.shape) }

// Engine returns the engine the tensor belongs to.
func (t *Tensor) Engine() *Engine { return t.n.eng }

// Device returns the name of the device the tensor lives on.
func (t *Tensor) Device() string { return t.n.eng.DeviceName() }

func prod(s []int) int {
	p := 1
	for _, d := range s {
		p *= d
	}
	return p
}

// normAxis resolves a possibly negative axis against rank n, naming op in the
// error it panics with when the axis is out of range.
func normAxis(op string, axis, n int) int {
	a := axis
	if a < 0 {
		a += n
	}
	if a < 0 || a >= n {
		if n == 0 {
			fail("%s: axis %d is out of range for a tensor of rank 0", op, axis)
		}
		fail("%s: axis %d is out of range [%d, %d]", op, axis, -n, n-1)
	}
	return a
}

// ParseDType returns the dtype with the given name ("float32", "int32", ...).
func ParseDType(name string) (DType, bool) { return codegen.ParseDType(name) }
