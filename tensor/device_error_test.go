package tensor

import (
	"errors"
	"strings"
	"testing"

	"tiny/codegen"
	"tiny/devices"
)

// brokenDevice fails every compile, as CLANG does on a machine whose C
// compiler disappeared after the device was chosen.
type brokenDevice struct{}

func (brokenDevice) Name() string { return "BROKEN" }
func (brokenDevice) Compile(*codegen.Program) (devices.Runner, error) {
	return nil, errors.New("no C compiler found")
}

func init() {
	devices.Register("BROKEN", func(devices.Options) (devices.Device, error) { return brokenDevice{}, nil })
}

// TestDeviceErrorIsUserError checks that a device failure reaches the
// caller as a *tensor.Error naming the device and kernel, which the
// interpreter reports with a position, not as an internal error.
func TestDeviceErrorIsUserError(t *testing.T) {
	e, err := NewEngine(Options{Device: "BROKEN"})
	if err != nil {
		t.Fatal(err)
	}
	err = Catch(func() { e.FromData([]int{1, 2}).Add(1).Realize() })
	want := "BROKEN device cannot compile kernel E_2: no C compiler found"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
	if strings.Contains(err.Error(), "internal") {
		t.Errorf("a device failure is reported as internal: %v", err)
	}
}
