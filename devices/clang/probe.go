package clang

// Probe reports the C compiler this device builds with, or why there is
// none that works; devices.Default uses it to choose CLANG over CPU.
func (d *Device) Probe() (string, error) {
	cc, err := Available()
	if err != nil {
		return "", err
	}
	return "C compiler " + cc, nil
}
