package tensor

// The tests run on the CPU device, and the differential ones on the
// reference device (devices/ref) and on CLANG too where a C compiler works
// (see engines).
import _ "tiny/devices/cpu"
