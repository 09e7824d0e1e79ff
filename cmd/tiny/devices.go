package main

// Devices register themselves in init, without probing anything (CLANG
// looks for its compiler on first use); the command links the ones it
// offers, and DEVICE=, CPU=1 or CLANG=1 picks one.
import (
	_ "tiny/devices/clang"
	_ "tiny/devices/cpu"
)
