package lang

import (
	"fmt"
	"os"
	"strconv"
	"strings"
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

// benchParse parses src once per iteration and reports bytes per second.
func benchParse(b *testing.B, src string) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("big.tiny", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseLongSum parses a 10 MB line "x = 1 + 1 + ...": the parser
// folds a chain of operators in a loop, in linear time and memory.
func BenchmarkParseLongSum(b *testing.B) {
	benchParse(b, "x = 1"+strings.Repeat(" + 1", 2_500_000))
}

// BenchmarkParseLongList parses a list literal of 3 million numbers.
func BenchmarkParseLongList(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("x = [")
	for i := range 3_000_000 {
		sb.WriteString(strconv.Itoa(i))
		sb.WriteString(", ")
	}
	sb.WriteString("]")
	benchParse(b, sb.String())
}

// BenchmarkParseManyLines parses 200,000 short statements.
func BenchmarkParseManyLines(b *testing.B) {
	var sb strings.Builder
	for i := range 200_000 {
		fmt.Fprintf(&sb, "x%d = %d + 1\n", i%100, i)
	}
	benchParse(b, sb.String())
}
