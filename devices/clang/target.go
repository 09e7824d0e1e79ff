package clang

import (
	"golang.org/x/sys/cpu"

	"tiny/codegen"
)

// Target shapes kernels for this machine's vectors: codegen.AVX512Target
// when the CPU (and the OS, which must save its registers) has AVX-512,
// codegen.DefaultTarget's AVX2 shape otherwise. Kernels are compiled with
// -march=native, so the compiler sees the same CPU; with a $CC that does not
// enable AVX-512 the wide vectors are split in two, still correct.
func (d *Device) Target() codegen.Target {
	if cpu.X86.HasAVX512F {
		return codegen.AVX512Target
	}
	return codegen.DefaultTarget
}
