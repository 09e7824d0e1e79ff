package kerneltest

import (
	"fmt"

	"tiny/codegen"
	"tiny/devices"
	"tiny/devices/ref"
)

// Reference runs p on the reference device (devices/ref), one uop at a
// time, over bufs' inputs, and returns its output in a new buffer; bufs[0]
// is not touched.
func Reference(p *codegen.Program, bufs []*devices.Buffer) (*devices.Buffer, error) {
	dev, _ := ref.Open(devices.Options{})
	r, err := dev.Compile(p)
	if err != nil {
		return nil, err
	}
	out := devices.Alloc(bufs[0].DType, bufs[0].Len)
	out.Zero()
	if err := r.Run(append([]*devices.Buffer{out}, bufs[1:]...), nil); err != nil {
		return nil, err
	}
	return out, nil
}

// Diff returns an error naming the first element of got that is not Close
// to want's, or nil when every element is.
func Diff(got, want *devices.Buffer) error {
	if got.Len != want.Len || got.DType != want.DType {
		return fmt.Errorf("got %s[%d], want %s[%d]", got.DType, got.Len, want.DType, want.Len)
	}
	for i := range want.Len {
		g, w := Get(got, i), Get(want, i)
		if !Close(g, w, want.DType) {
			return fmt.Errorf("element %d = %v, want %v", i, g, w)
		}
	}
	return nil
}
