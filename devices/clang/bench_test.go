package clang

import (
	"testing"

	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
)

// BenchmarkSuite times the rows of the tiny suite (internal/suite, as
// kernels: kerneltest.SuiteRows) on CLANG, each row's kernels with their
// output buffers reused, lowered for the device's target (AVX512Target on
// a CPU with AVX-512): go test ./devices/clang -run '^$' -bench
// Suite/matmul1024.
func BenchmarkSuite(b *testing.B) {
	d := open(b, "", 0)
	for _, r := range kt.SuiteRows() {
		b.Run(r.Name, func(b *testing.B) { kt.BenchRow(b, d, devices.LowerOptions(d), r) })
	}
}
