package interp_test

import (
	"context"
	"os"
	"testing"

	"tiny/interp"
)

func BenchmarkScript(b *testing.B) {
	src, err := os.ReadFile(os.Getenv("TINY_BENCH"))
	if err != nil {
		b.Skip("TINY_BENCH not set")
	}
	for i := 0; i < b.N; i++ {
		it, _ := interp.New(interp.Options{})
		if err := it.ExecFile(context.Background(), "bench.tiny", src); err != nil {
			b.Fatal(err)
		}
	}
}
