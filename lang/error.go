package lang

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Error is a syntax error at a position. Its Error method returns the
// one-line header "file:line:col: error: msg"; Format adds the source line
// and a caret.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return Header(e.Pos, e.Msg) }

// Position returns where the error is, for Format.
func (e *Error) Position() Pos { return e.Pos }

// Header returns the first line of an error report, "file:line:col: error: msg".
// Runtime errors use it too so that every error reads the same.
func Header(p Pos, msg string) string {
	return p.String() + ": error: " + msg
}

// Frame is one call on the stack of a runtime error: the function's name and
// the position of the call.
type Frame struct {
	Name string
	Pos  Pos
}

// Positioned is implemented by errors that know where they happened, such
// as *Error and the evaluator's runtime errors.
type Positioned interface {
	error
	Position() Pos
}

// Framed is implemented by errors that carry the call frames active when
// they happened, innermost first.
type Framed interface {
	Frames() []Frame
}

// Format renders err as the contract prints it: the header line (err's
// Error method, up to its first newline), then, when err is Positioned and
// its line exists in src, the source line and a caret under the column, both
// indented four spaces, then one "  in fn name (file:line:col)" line per
// frame if err is Framed. Errors are looked for with errors.As, so wrapped
// errors work. Format returns a string ending without a newline. It takes
// src to be the text of the error's file; FormatWith handles errors that
// may come from other (imported) files.
func Format(err error, src string) string {
	return FormatWith(err, func(string) string { return src })
}

// FormatWith is Format with the source looked up by file name, for errors
// in imported files. source returns "" for an unknown file.
func FormatWith(err error, source func(file string) string) string {
	if err == nil {
		return ""
	}
	header, _, _ := strings.Cut(err.Error(), "\n")
	lines := []string{header}
	var pe Positioned
	if errors.As(err, &pe) {
		if snippet := Snippet(source(pe.Position().File), pe.Position()); snippet != "" {
			lines = append(lines, snippet)
		}
	}
	var fe Framed
	if errors.As(err, &fe) {
		for _, f := range fe.Frames() {
			lines = append(lines, fmt.Sprintf("  in fn %s (%s)", f.Name, f.Pos))
		}
	}
	return strings.Join(lines, "\n")
}

// tabWidth is the number of columns a tab advances to in a snippet.
const tabWidth = 4

// Snippet returns line p.Line of src and a caret under column p.Col, each
// indented four spaces, with tabs expanded. It returns "" when the line does
// not exist.
func Snippet(src string, p Pos) string {
	if p.Line < 1 {
		return ""
	}
	lines := strings.Split(src, "\n")
	if p.Line > len(lines) {
		return ""
	}
	line := strings.TrimRight(lines[p.Line-1], "\r")
	var text, caret strings.Builder
	col := 1
	for _, r := range line {
		w := 1
		if r == '\t' {
			w = tabWidth - utf8.RuneCountInString(text.String())%tabWidth
			text.WriteString(strings.Repeat(" ", w))
		} else {
			text.WriteRune(r)
		}
		if col < p.Col {
			caret.WriteString(strings.Repeat(" ", w))
		}
		col++
	}
	return "    " + text.String() + "\n    " + caret.String() + "^"
}
