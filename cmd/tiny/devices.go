package main

// Devices register themselves in init, without probing anything (CLANG
// looks for its compiler on first use); the command links the ones it
// offers, and DEVICE=, CPU=1, CLANG=1 or GPU=1 picks one. GPU (OpenCL)
// looks for a platform on first use and is never the default; neither is
// REF, the reference interpreter, there to tell a device's bug from a
// codegen bug.
import (
	_ "tiny/devices/clang"
	_ "tiny/devices/cpu"
	_ "tiny/devices/opencl"
	_ "tiny/devices/ref"
)
