package lang

import (
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// chunk is one program of a chunked test file, padded with blank lines so
// that its line numbers are the file's.
type chunk struct {
	src   string
	line  int    // the line of the ### expectation, or 0
	col   int    // its column, or 0 when any
	want  string // its regexp
	first int    // the chunk's first line in the file
}

var expectRE = regexp.MustCompile("###\\s*(?:col (\\d+):\\s*)?`(.*)`")

// readChunks splits a file at "---" lines, in the format of starlark's
// chunkedfile: the expected error sits on the line it names.
func readChunks(t *testing.T, path string) []chunk {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var chunks []chunk
	var cur []string
	start := 1
	flush := func(next int) {
		c := chunk{src: strings.Repeat("\n", start-1) + strings.Join(cur, "\n"), first: start}
		for i, l := range cur {
			m := expectRE.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			if c.line != 0 {
				t.Fatalf("%s:%d: two expectations in one chunk", path, start+i)
			}
			c.line, c.want = start+i, m[2]
			c.col, _ = strconv.Atoi(m[1])
		}
		chunks = append(chunks, c)
		cur, start = nil, next
	}
	for i, l := range strings.Split(string(data), "\n") {
		if l == "---" {
			flush(i + 2)
			continue
		}
		cur = append(cur, l)
	}
	flush(0)
	return chunks
}

// TestErrors runs testdata/errors.tiny.
func TestErrors(t *testing.T) {
	const path = "testdata/errors.tiny"
	for _, c := range readChunks(t, path) {
		_, err := Parse(path, c.src)
		if c.line == 0 {
			if err != nil {
				t.Errorf("chunk at line %d: unexpected error %v", c.first, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s:%d: got %v, want an error matching %q", path, c.line, err, c.want)
			continue
		}
		if e.Pos.Line != c.line || c.col != 0 && e.Pos.Col != c.col || !regexp.MustCompile(c.want).MatchString(e.Msg) {
			want := strconv.Itoa(c.line)
			if c.col != 0 {
				want += ":" + strconv.Itoa(c.col)
			}
			t.Errorf("got  %v\nwant %s:%s: error matching %q", err, path, want, c.want)
		}
	}
}
