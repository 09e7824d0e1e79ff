package lang

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
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

// moreFramed is implemented by errors whose frames are a part of the
// stack: MoreFrames counts the frames left out.
type moreFramed interface {
	MoreFrames() int
}

// Format renders err as the contract prints it: the header line (err's
// Error method, up to its first newline), then, when err is Positioned and
// its line exists in src, the source line and a caret under the column, both
// indented four spaces, then one "  in fn name (file:line:col)" line per
// frame if err is Framed, and "  ... N more frames" when it left N out.
// Errors are looked for with errors.As, so wrapped
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
	var mf moreFramed
	if errors.As(err, &mf) && mf.MoreFrames() > 0 {
		lines = append(lines, fmt.Sprintf("  ... %d more frames", mf.MoreFrames()))
	}
	return strings.Join(lines, "\n")
}

// tabWidth is the number of columns a tab advances to in a snippet.
const tabWidth = 4

// maxSnippet is the widest line a snippet shows whole; a longer one is cut
// to a window of snippetContext columns on each side of the caret.
const (
	maxSnippet     = 160
	snippetContext = 70
)

// Snippet returns line p.Line of src and a caret under column p.Col, each
// indented four spaces, with tabs expanded and wide (East Asian) characters
// counted as two columns, so that the caret sits under its character in a
// terminal. A line longer than maxSnippet shows only a window around the
// caret, with "..." where it was cut. Snippet returns "" when the line does
// not exist.
func Snippet(src string, p Pos) string {
	line, ok := lineOf(src, p.Line)
	if !ok {
		return ""
	}
	runes := []rune(strings.TrimRight(line, "\r"))
	at := min(max(p.Col-1, 0), len(runes)) // the caret's rune index
	lo, hi := 0, len(runes)
	if len(runes) > maxSnippet {
		lo, hi = max(0, at-snippetContext), min(len(runes), at+snippetContext)
	}
	var text, caret strings.Builder
	width := 0
	if lo > 0 {
		text.WriteString("...")
		width = 3
	}
	for i := lo; i < hi; i++ {
		r := runes[i]
		w := runeWidth(r)
		if r == '\t' {
			w = tabWidth - width%tabWidth
			text.WriteString(strings.Repeat(" ", w))
		} else {
			text.WriteRune(r)
		}
		if i < at {
			caret.WriteString(strings.Repeat(" ", w))
		}
		width += w
	}
	if hi < len(runes) {
		text.WriteString("...")
	}
	pad := ""
	if lo > 0 {
		pad = "   "
	}
	return "    " + text.String() + "\n    " + pad + caret.String() + "^"
}

// lineOf returns line n (1-based) of src without splitting all of it.
func lineOf(src string, n int) (string, bool) {
	if n < 1 {
		return "", false
	}
	for ; n > 1; n-- {
		i := strings.IndexByte(src, '\n')
		if i < 0 {
			return "", false
		}
		src = src[i+1:]
	}
	if i := strings.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	return src, true
}

// runeWidth returns the columns r takes in a terminal: 2 for the wide and
// fullwidth characters of East Asian scripts and for emoji, 0 for combining
// marks, 1 otherwise.
func runeWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200B:
		return 0
	case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0x303E, r >= 0x3041 && r <= 0x33FF,
		r >= 0x3400 && r <= 0x4DBF, r >= 0x4E00 && r <= 0x9FFF, r >= 0xA000 && r <= 0xA4CF,
		r >= 0xAC00 && r <= 0xD7A3, r >= 0xF900 && r <= 0xFAFF, r >= 0xFE30 && r <= 0xFE4F,
		r >= 0xFF00 && r <= 0xFF60, r >= 0xFFE0 && r <= 0xFFE6, r >= 0x1F300 && r <= 0x1F64F,
		r >= 0x1F900 && r <= 0x1F9FF, r >= 0x20000 && r <= 0x3FFFD:
		return 2
	}
	return 1
}
