package lang

import (
	"os"
	"testing"
)

// BenchmarkParseNN parses the standard library's nn module (77 lines).
func BenchmarkParseNN(b *testing.B) {
	src, err := os.ReadFile("../stdlib/nn.tiny")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Parse("nn.tiny", string(src)); err != nil {
			b.Fatal(err)
		}
	}
}
