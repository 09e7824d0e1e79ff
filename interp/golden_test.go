package interp_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	_ "tiny/devices/clang"
	_ "tiny/devices/cpu"
	_ "tiny/devices/opencl"
	_ "tiny/devices/ref"
	"tiny/interp"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/*.tiny")

// A golden file holds examples in ivy's transcript format: input lines,
// then the expected output (stdout, then any error as FormatError prints
// it) indented by a tab; a tab-indented "#" is an expected blank line, and a
// blank line ends an example. All examples of a file run in order in one
// interpreter; each runs with its lines at their real line numbers, so error
// positions are those of the file.
type example struct {
	line  int // 1-based line of the first input line
	input []string
	want  []string
}

func parseGolden(t *testing.T, src string) []example {
	var exs []example
	var cur *example
	for i, l := range strings.Split(src, "\n") {
		switch {
		case l == "":
			cur = nil
		case strings.HasPrefix(l, "\t"):
			if cur == nil {
				t.Fatalf("line %d: output without input", i+1)
			}
			if l == "\t#" {
				l = "\t"
			}
			cur.want = append(cur.want, l[1:])
		default:
			if cur == nil || len(cur.want) > 0 {
				exs = append(exs, example{line: i + 1})
				cur = &exs[len(exs)-1]
			}
			cur.input = append(cur.input, l)
		}
	}
	return exs
}

// testImports are the files the import golden may import.
var testImports = fstest.MapFS{
	"lib/util.tiny":   {Data: []byte("scale = 3\nfn triple(x) { return x * scale }\nprint(\"loading util\")\n")},
	"lib/broken.tiny": {Data: []byte("x = 1\ny = x + \"a\"\n")},
	"lib/syntax.tiny": {Data: []byte("x = (1\n")},
}

func runGolden(t *testing.T, file string, exs []example) [][]string {
	var out bytes.Buffer
	// TINY_DEVICE=CLANG runs the transcripts on another device.
	it, err := interp.New(interp.Options{Stdout: &out, Stderr: &out, Imports: testImports, Args: []string{"a", "b"},
		Device: os.Getenv("TINY_DEVICE")})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, ex := range exs {
		out.Reset()
		src := strings.Repeat("\n", ex.line-1) + strings.Join(ex.input, "\n") + "\n"
		if err := it.Exec(context.Background(), file, src, true); err != nil {
			out.WriteString(it.FormatError(err) + "\n")
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if out.Len() == 0 {
			lines = nil
		}
		got = append(got, lines)
	}
	return got
}

func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.tiny")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			exs := parseGolden(t, string(data))
			got := runGolden(t, filepath.Base(path), exs)
			if *update {
				writeGolden(t, path, string(data), exs, got)
				return
			}
			for i, ex := range exs {
				if strings.Join(got[i], "\n") != strings.Join(ex.want, "\n") {
					t.Errorf("%s:%d:\n%s\ngot:\n%s\nwant:\n%s", path, ex.line, strings.Join(ex.input, "\n"),
						strings.Join(got[i], "\n"), strings.Join(ex.want, "\n"))
				}
			}
		})
	}
}

// writeGolden replaces each example's expected block with got. Error
// positions of later examples shift when a block changes length, so run
// -update until the file no longer changes.
func writeGolden(t *testing.T, path string, src string, exs []example, got [][]string) {
	lines := strings.Split(src, "\n")
	var out []string
	next := 0
	for i, ex := range exs {
		start := ex.line - 1 + len(ex.input)
		out = append(out, lines[next:start]...)
		for _, l := range got[i] {
			if l == "" {
				l = "#"
			}
			out = append(out, "\t"+l)
		}
		next = start + len(ex.want)
	}
	out = append(out, lines[next:]...)
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}
