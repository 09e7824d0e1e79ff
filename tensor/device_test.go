package tensor

// The tests run on the CPU device, the reference implementation of tiny's
// device contract, and the differential ones on CLANG too where a C
// compiler works (see engines).
import _ "tiny/devices/cpu"
