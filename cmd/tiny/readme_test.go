package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"tiny/interp"
)

// TestReadmeTour replays every REPL session of README.md (the lines after
// ">>> " in its code blocks, one interpreter per block) and checks that each
// input prints what the README shows after it, on the CPU device and on the
// default one.
func TestReadmeTour(t *testing.T) {
	src, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(src), "```")
	sessions := 0
	for _, device := range []string{"CPU", ""} {
		for i := 1; i < len(blocks); i += 2 {
			lines := strings.Split(strings.Trim(blocks[i], "\n"), "\n")
			if !strings.HasPrefix(lines[0], ">>> ") {
				continue
			}
			sessions++
			var out bytes.Buffer
			it, err := interp.New(interp.Options{Stdout: &out, Stderr: &out, Device: device})
			if err != nil {
				t.Fatal(err)
			}
			for j := 0; j < len(lines); {
				in := strings.TrimPrefix(lines[j], ">>> ")
				j++
				var want []string
				for ; j < len(lines) && !strings.HasPrefix(lines[j], ">>> "); j++ {
					want = append(want, lines[j])
				}
				out.Reset()
				if err := it.Exec(context.Background(), "<stdin>", in, true); err != nil {
					out.WriteString(it.FormatError(err))
				}
				got := strings.TrimRight(out.String(), "\n")
				if w := strings.Join(want, "\n"); got != w {
					t.Errorf("device %q, README block at %q:\n>>> %s\ngot:\n%s\nwant:\n%s", device, lines[0], in, got, w)
				}
			}
		}
	}
	if sessions < 2 {
		t.Fatalf("found %d REPL sessions in README.md", sessions)
	}
}
