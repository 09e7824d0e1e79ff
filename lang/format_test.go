package lang

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// runtimeError stands in for the evaluator's errors: a position and frames.
type runtimeError struct {
	pos    Pos
	msg    string
	frames []Frame
}

func (e *runtimeError) Error() string   { return Header(e.pos, e.msg) }
func (e *runtimeError) Position() Pos   { return e.pos }
func (e *runtimeError) Frames() []Frame { return e.frames }

func TestFormatContract(t *testing.T) {
	err := &runtimeError{
		pos:    Pos{File: "model.tiny", Line: 7, Col: 7},
		msg:    "cannot broadcast shapes (2, 3) and (4,)",
		frames: []Frame{{Name: "step", Pos: Pos{File: "model.tiny", Line: 15, Col: 3}}},
	}
	want := "model.tiny:7:7: error: cannot broadcast shapes (2, 3) and (4,)\n" +
		"    c = a + b.sum(axis=0)\n" +
		"          ^\n" +
		"  in fn step (model.tiny:15:3)"
	src := "a = 1\nb = 2\n\nfn step() {\n  x = 1\n  y = 2\nc = a + b.sum(axis=0)\n}\n"
	if got := Format(fmt.Errorf("wrapped: %w", err), src); got != "wrapped: "+want {
		t.Errorf("got\n%s\nwant\n%s", got, "wrapped: "+want)
	}
	if got := Format(err, src); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"x = (1 + )", "t.tiny:1:10: error: unexpected \")\", expected expression\n    x = (1 + )\n             ^"},
		{"\tx = $", "t.tiny:1:6: error: unexpected character \"$\"\n        x = $\n            ^"},
		{"é = $", "t.tiny:1:5: error: unexpected character \"$\"\n    é = $\n        ^"},
		{"x = 1\r\ny = )\r\n", "t.tiny:2:5: error: unexpected \")\", expected expression\n    y = )\n        ^"},
		{"x = [1,", "t.tiny:1:5: error: \"[\" is never closed\n    x = [1,\n        ^"},
		{"f(\n", "t.tiny:1:2: error: \"(\" is never closed\n    f(\n     ^"},
		// wide characters take two columns, combining marks none
		{"x = \"日本語\" $", "t.tiny:1:11: error: unexpected character \"$\"\n    x = \"日本語\" $\n                 ^"},
		{"ｘ = $", "t.tiny:1:5: error: unexpected character \"$\"\n    ｘ = $\n         ^"},
		{"e\u0301 = $", "t.tiny:1:6: error: unexpected character \"$\"\n    e\u0301 = $\n        ^"},
		// a very long line shows a window around the caret
		{"x = " + strings.Repeat("1 + ", 1000) + "$ + 1", "t.tiny:1:4005: error: unexpected character \"$\"\n    ...+ 1" +
			strings.Repeat(" + 1", 16) + " + $ + 1\n       " + strings.Repeat(" ", 70) + "^"},
	} {
		_, err := Parse("t.tiny", tc.src)
		if got := Format(err, tc.src); got != tc.want {
			t.Errorf("Format(%q)\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
	if got := Format(errors.New("plain"), "x"); got != "plain" {
		t.Errorf("plain error: got %q", got)
	}
	if got := Format(nil, "x"); got != "" {
		t.Errorf("nil error: got %q", got)
	}
	// A position past the source shows the header only.
	e := &Error{Pos: Pos{File: "f", Line: 9, Col: 1}, Msg: "m"}
	if got := Format(e, "x\n"); got != "f:9:1: error: m" {
		t.Errorf("got %q", got)
	}
}

func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"", true},
		{"x = 1", true},
		{"x = (1,", false},
		{"x = [1,\n 2", false},
		{"f(1)\n", true},
		{"fn f() {", false},
		{"fn f() {\n  return 1\n}", true},
		{"if x {\n  y = {", false},
		{"x = \"abc", false},
		{"x = 'a\\", false},
		{"x = 1 + \\", false},
		{"x = 1 +", true}, // an error: report it
		{"f(1]", true},    // a mismatch cannot be fixed by more input
		{"x = $ (", true}, // neither can a bad character
		{"x = 012 (", true},
		{"# (", true},
		{"'('", true},
	} {
		if got := Complete(tc.src); got != tc.want {
			t.Errorf("Complete(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}
