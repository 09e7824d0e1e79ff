package tensor

import "tiny/devices"

// FromBytes returns a tensor of dtype d and shape shp whose values are
// data read as little-endian elements of d, row-major (the layout of .npy
// and safetensors files). It panics with a *Error when the size does not
// match.
func (e *Engine) FromBytes(data []byte, shp []int, d DType) *Tensor {
	checkShape("tensor", shp)
	checkDType("tensor", d)
	if len(data) != prod(shp)*d.Size() {
		fail("tensor: %d bytes cannot fill shape %s of %s", len(data), FormatShape(shp), d)
	}
	b := alloc("tensor", d, prod(shp))
	copy(b.Data, data)
	return &Tensor{newBuffer(e, b, append([]int(nil), shp...))}
}

// Bytes returns t's values as little-endian elements of its dtype,
// row-major (bools one byte each). It realizes t.
func (t *Tensor) Bytes() []byte {
	out := make([]byte, prod(t.n.shape)*t.n.dtype.Size())
	if len(out) == 0 {
		return out
	}
	t.withData(func(b *devices.Buffer) { b.Sync(); copy(out, b.Data) })
	return out
}
