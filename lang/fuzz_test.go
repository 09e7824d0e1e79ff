package lang

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that no input makes Parse or Complete panic, and that
// every error names a position inside the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"x = 1 + 2 * 3",
		"a = [[1, 2, 3], [4, 5, 6]]\nb = a.permute(1, 0).reshape(2, 3)\nprint(b.sum(axis=1))",
		"fn relu(x) { return x.maximum(0) }\nfor i in range(3) { print(i, relu(w[i]).sum().item()) }",
		"x = a[1:3, ::2, none, ..., -1]; y = -2**2",
		"d = {\"a\": 1,\n \"b\": [2, 3],}\nif d.a == 1 { x = 1 } else if y { x = 2 } else { x = 3 }",
		"x, y = (1,), ()\nwhile x < 3 { x += 1; if x { break } else { continue } }",
		"f = fn (x, y=2) { return x, y }\nimport \"lib/nn.tiny\" as nn",
		"x = 0x1f + 1_000 + .5 + 1e-3 + 'a\\n\\t\\\\'",
		"x = (1 + \n", "\"abc", "f(1]", "x = 1 \\\n + 2", "é = $",
		"x = a | b ^ c & d << 2 >> 1; y = ~x; x &= 3; x |= 4; x ^= 5; x <<= 1; x >>= 1",
		"ok = a in b and c not in d; y = a if ok else -b if not ok else [1, 2]",
		"ys = [x * 2 for x in xs if x > 0]; zs = [(i, j) for i in range(3) for j in range(i) if i != j]",
		"d = {k: v for k, v in items}; e = [[-1, -2, -3], [-4, -5, -6]]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		Complete(src)
		file, err := Parse("f.tiny", src)
		if err == nil {
			Inspect(file, func(n Node) bool {
				checkPos(t, src, n.Pos())
				return true
			})
			checkSource(t, file)
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		if strings.HasPrefix(e.Msg, "internal error") {
			t.Fatalf("%v", err)
		}
		quoted := strings.HasPrefix(e.Msg, "unexpected string ") // may hold ", expected "
		if i := strings.LastIndex(e.Msg, ", expected "); i >= 0 && !quoted && !hints.MatchString(e.Msg[i+11:]) {
			t.Fatalf("unknown hint in %v", err)
		}
		checkPos(t, src, e.Pos)
	})
}

// hints matches what an error may say was expected, so that no grammar
// term reaches users.
var hints = regexp.MustCompile(`^(expression|name|parameter name|path string|attribute name|` +
	`function name or parameters|loop variable|"[^"]+"( or "[^"]+")?)$`)

// checkPos fails unless p is a line of src and a column of that line or
// just past its end.
func checkPos(t *testing.T, src string, p Pos) {
	lines := strings.Split(src, "\n")
	if p.File != "f.tiny" || p.Line < 1 || p.Line > len(lines) {
		t.Fatalf("position %v outside %d lines", p, len(lines))
	}
	if n := utf8.RuneCountInString(lines[p.Line-1]); p.Col < 1 || p.Col > n+1 {
		t.Fatalf("position %v outside line %q", p, lines[p.Line-1])
	}
}

// checkSource fails unless Source prints file as text that parses back to
// the same tree.
func checkSource(t *testing.T, file *File) {
	text := Source(file)
	again, err := Parse("f.tiny", text)
	if err != nil {
		t.Fatalf("Source gave %q: %v", text, err)
	}
	if want, got := file.String(), again.String(); got != want {
		t.Fatalf("Source gave %q\n got %s\nwant %s", text, got, want)
	}
}
