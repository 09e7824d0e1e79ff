package lang

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Token types of the scanner.
const (
	tEOF tokenType = iota
	tIdent
	tKeyword
	tInt
	tFloat
	tString
	tPunct
	tSep   // a statement separator: a newline or ";"
	tTrail // a trailing comma: before a closing bracket or a separator
)

// checkEvery is how many tokens the scanner and the parser handle between
// two looks at their context.
const checkEvery = 1 << 14

// position is where a token begins: its byte offset, line and column
// (counting runes), both 1-based.
type position struct {
	Offset       int
	Line, Column int32
}

// token is one token of the scanner. Aux indexes the decoded value of a
// string literal in scanner.strs.
type token struct {
	Value string
	Pos   position
	Type  tokenType
	Aux   int32
}

// tokenType is the kind of a token.
type tokenType uint8

var keywords = map[string]bool{
	"fn": true, "return": true, "if": true, "else": true, "for": true, "in": true,
	"while": true, "break": true, "continue": true, "true": true, "false": true,
	"none": true, "and": true, "or": true, "not": true, "import": true, "as": true,
}

// IsName reports whether s is a name a program can write: an identifier
// (a letter or "_", then letters, digits and combining marks) that is not
// a keyword.
func IsName(s string) bool {
	if s == "" || keywords[s] {
		return false
	}
	for i, r := range s {
		if !isLetter(r) && (i == 0 || !unicode.IsDigit(r) && !unicode.In(r, unicode.Mn, unicode.Mc)) {
			return false
		}
	}
	return true
}

// Keywords returns the reserved words of the language, sorted, for
// example for tab completion.
func Keywords() []string {
	words := make([]string, 0, len(keywords))
	for w := range keywords {
		words = append(words, w)
	}
	sort.Strings(words)
	return words
}

// puncts lists the operators and delimiters, longest first so that the
// scanner takes "**=" before "**" before "*".
var puncts = []string{
	"//=", "**=", "<<=", ">>=", "...",
	"**", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "@=",
	"&=", "|=", "^=", "<<", ">>",
	"+", "-", "*", "/", "%", "@", "<", ">", "=", "(", ")", "[", "]", "{", "}",
	"&", "|", "^", "~",
	",", ":", ".", ";",
}

// punctsByByte lists the puncts by their first byte.
var punctsByByte = func() map[byte][]string {
	m := map[byte][]string{}
	for _, p := range puncts {
		m[p[0]] = append(m[p[0]], p)
	}
	return m
}()

// scanner turns source text into tokens. It tracks the open brackets: a
// newline is a statement separator only at the top level or directly inside
// a block's braces, never inside (), [] or a dict's {}. Runs of separators
// collapse into one, and a separator is dropped at the start of a block or
// file, before a "}" that closes a block, before "else" and at the end.
type scanner struct {
	file     string
	src      string
	off      int
	line     int
	col      int
	toks     []token
	open     []bracket
	sep      *token
	err      *Error
	errOff   int  // offset of err
	atEOF    bool // err was caused by the input ending too early
	mismatch bool // a closing bracket did not match the open one
	// topTernary counts the conditional expressions at the top level still
	// waiting for their else.
	topTernary  int
	ctx         context.Context // the scan stops when it is done
	interrupted bool            // err says the scan was interrupted
	end         position
	strs        []string // decoded string literals, by token Aux
}

func newScanner(file, src string) *scanner {
	s := &scanner{file: file, src: src, line: 1, col: 1}
	s.toks = make([]token, 0, len(src)/3+8)
	if strings.HasPrefix(src, "\ufeff") {
		s.off = len("\ufeff") // a byte order mark takes no column
	}
	return s
}

// at converts a token position.
func (s *scanner) at(p position) Pos {
	return Pos{File: s.file, Line: int(p.Line), Col: int(p.Column)}
}

func (s *scanner) pos() position {
	return position{Offset: s.off, Line: int32(s.line), Column: int32(s.col)}
}

// advance moves past n bytes, counting lines and runes; an invalid UTF-8
// byte counts as one rune.
func (s *scanner) advance(n int) {
	for end := min(s.off+n, len(s.src)); s.off < end; {
		c := s.src[s.off]
		switch {
		case c == '\n':
			s.off++
			s.line++
			s.col = 1
		case c < utf8.RuneSelf:
			s.off++
			s.col++
		default:
			_, size := utf8.DecodeRuneInString(s.src[s.off:])
			s.off += size
			s.col++
		}
	}
}

func (s *scanner) peekByte(k int) byte {
	if s.off+k < len(s.src) {
		return s.src[s.off+k]
	}
	return 0
}

// fail records the first error; the scan stops there.
func (s *scanner) fail(p position, atEOF bool, msg string) {
	if s.err == nil {
		s.err = &Error{Pos: s.at(p), Msg: msg}
		s.errOff = p.Offset
		s.atEOF = atEOF
	}
}

// significant reports whether a newline here separates statements.
func (s *scanner) significant() bool {
	return s.top() == 0 || s.top() == 'b'
}

// scan tokenizes the whole input, stopping at the first error. The token
// list always ends with an EOF token.
func (s *scanner) scan() []token {
	for n := 0; s.err == nil && s.off < len(s.src); n++ {
		if n%checkEvery == 0 && s.ctx != nil && s.ctx.Err() != nil {
			s.fail(s.pos(), false, "interrupted")
			s.interrupted = true
			break
		}
		s.next()
	}
	eof := s.end
	if t := s.last(); t != nil && t.Type == tPunct && t.Value == "," {
		t.Type = tTrail
	}
	if len(s.toks) == 0 {
		eof = position{Line: 1, Column: 1}
	}
	if s.err != nil && !s.atEOF {
		eof = position{Offset: s.errOff, Line: int32(s.err.Pos.Line), Column: int32(s.err.Pos.Col)}
	}
	s.toks = append(s.toks, token{Type: tEOF, Pos: eof})
	return s.toks
}

// next scans one token or skips one run of white space or a comment.
func (s *scanner) next() {
	c := s.src[s.off]
	r, size := utf8.DecodeRuneInString(s.src[s.off:])
	switch {
	case c == ' ' || c == '\t' || c == '\r':
		s.advance(1)
	case c == '\\' && (s.peekByte(1) == '\n' || s.peekByte(1) == '\r' && s.peekByte(2) == '\n'):
		s.advance(2)
		if s.src[s.off-1] == '\r' {
			s.advance(1)
		}
	case c == '\\' && s.off+1 == len(s.src):
		s.fail(s.pos(), true, "unexpected end of input after \\")
	case c == '#':
		for s.off < len(s.src) && s.src[s.off] != '\n' {
			s.advance(1)
		}
	case c == '\n' || c == ';' && s.significant():
		if s.significant() && s.sep == nil {
			// A newline is reported just after the line's last token.
			p := s.pos()
			if c == '\n' && len(s.toks) > 0 {
				p = s.end
			}
			s.sep = &token{Type: tSep, Value: string(c), Pos: p}
		}
		s.advance(1)
	case isLetter(r):
		start, p := s.off, s.pos()
		for s.off < len(s.src) {
			r, size := utf8.DecodeRuneInString(s.src[s.off:])
			if !isLetter(r) && !unicode.IsDigit(r) && !unicode.In(r, unicode.Mn, unicode.Mc) {
				break
			}
			s.advance(size)
		}
		word := s.src[start:s.off]
		if keywords[word] {
			s.emit(tKeyword, word, p)
		} else {
			s.emit(tIdent, word, p)
		}
	case isDigit(c) || c == '.' && isDigit(s.peekByte(1)) && (s.sep != nil || !endsOperand(s.last())):
		s.scanNumber()
	case c == '"' || c == '\'':
		s.scanString()
	case (c == '&' || c == '|') && s.peekByte(1) == c:
		s.fail(s.pos(), false, fmt.Sprintf("%q is not an operator; use %s", s.src[s.off:s.off+2], map[byte]string{'&': "and", '|': "or"}[c]))
		s.advance(2)
	default:
		for _, p := range punctsByByte[c] {
			if strings.HasPrefix(s.src[s.off:], p) {
				pos := s.pos()
				s.advance(len(p))
				s.emit(tPunct, p, pos)
				return
			}
		}
		msg := "unexpected character " + quoteRune(r)
		if alt := pythonisms[r]; alt != "" {
			msg += "; use " + alt
		}
		s.fail(s.pos(), false, msg)
		s.advance(size)
	}
}

// emit appends a token, first flushing a pending separator when it is
// needed, and tracks the brackets.
func (s *scanner) emit(typ tokenType, val string, p position) {
	prev := s.last()
	if prev != nil && prev.Type == tPunct && prev.Value == "," && (s.sep != nil || val == ")" || val == "]" || val == "}") {
		prev.Type = tTrail
	}
	if s.sep != nil {
		closesBlock := val == "}" && s.top() == 'b'
		startOfBlock := prev == nil || prev.Type == tSep || prev.Type == tPunct && prev.Value == "{"
		if !startOfBlock && !closesBlock && !(typ == tKeyword && val == "else") {
			s.toks = append(s.toks, *s.sep)
		}
		s.sep = nil
		prev = s.last()
	}
	s.toks = append(s.toks, token{Type: typ, Value: val, Pos: p})
	s.end = s.pos()
	if typ == tPunct || typ == tKeyword {
		s.nest(val, prev, p)
	}
}

func (s *scanner) last() *token {
	if len(s.toks) == 0 {
		return nil
	}
	return &s.toks[len(s.toks)-1]
}

// pythonisms suggests the spelling of operators borrowed from C.
var pythonisms = map[rune]string{'!': "not"}

func isLetter(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

func quoteRune(r rune) string {
	if r == utf8.RuneError {
		return "(invalid UTF-8)"
	}
	return strconv.Quote(string(r))
}
