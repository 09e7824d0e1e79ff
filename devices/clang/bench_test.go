package clang

import (
	"testing"

	"tiny/codegen"
	kt "tiny/devices/internal/kerneltest"
)

// BenchmarkSuite times the rows of the tiny suite (internal/suite, as
// kernels: kerneltest.SuiteRows) on CLANG, each row's kernels with their
// output buffers reused: go test ./devices/clang -run '^$' -bench
// Suite/matmul1024.
func BenchmarkSuite(b *testing.B) {
	d := open(b, "", 0)
	for _, r := range kt.SuiteRows() {
		b.Run(r.Name, func(b *testing.B) { kt.BenchRow(b, d, codegen.Options{}, r) })
	}
}
