package tensor

// The tests run on the CPU device, the reference implementation of tiny's
// device contract.
import _ "tiny/devices/cpu"
