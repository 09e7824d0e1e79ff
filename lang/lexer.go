package lang

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types of the scanner, as participle sees them.
const (
	tIdent lexer.TokenType = iota + 1
	tKeyword
	tInt
	tFloat
	tString
	tPunct
	tSep   // a statement separator: a newline or ";"
	tTrail // a trailing comma: before a closing bracket or a separator
)

var symbols = map[string]lexer.TokenType{
	"EOF": lexer.EOF, "Ident": tIdent, "Keyword": tKeyword, "Int": tInt,
	"Float": tFloat, "String": tString, "Punct": tPunct, "Sep": tSep, "Trail": tTrail,
}

var keywords = map[string]bool{
	"fn": true, "return": true, "if": true, "else": true, "for": true, "in": true,
	"while": true, "break": true, "continue": true, "true": true, "false": true,
	"none": true, "and": true, "or": true, "not": true, "import": true, "as": true,
}

// puncts lists the operators and delimiters, longest first so that the
// scanner takes "**=" before "**" before "*".
var puncts = []string{
	"//=", "**=", "...",
	"**", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "@=",
	"+", "-", "*", "/", "%", "@", "<", ">", "=", "(", ")", "[", "]", "{", "}",
	",", ":", ".", ";",
}

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
	toks     []lexer.Token
	open     []bracket
	depth    int // an estimate of the parser's nesting; see nest
	topOps   int // nesting operators at the top level since the last separator
	sep      *lexer.Token
	err      *Error
	errOff   int  // offset of err
	atEOF    bool // err was caused by the input ending too early
	mismatch bool // a closing bracket did not match the open one
	end      lexer.Position
	strs     map[int]string // decoded string literals by offset
	nums     map[int]*Number
}

func newScanner(file, src string) *scanner {
	return &scanner{file: file, src: src, line: 1, col: 1,
		strs: map[int]string{}, nums: map[int]*Number{}}
}

func (s *scanner) pos() lexer.Position {
	return lexer.Position{Filename: s.file, Offset: s.off, Line: s.line, Column: s.col}
}

// advance moves past n bytes, counting lines and runes.
func (s *scanner) advance(n int) {
	for i := 0; i < n && s.off < len(s.src); i++ {
		c := s.src[s.off]
		s.off++
		if c == '\n' {
			s.line++
			s.col = 1
		} else if c&0xC0 != 0x80 {
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
func (s *scanner) fail(p lexer.Position, atEOF bool, msg string) {
	if s.err == nil {
		s.err = &Error{Pos: toPos(p), Msg: msg}
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
func (s *scanner) scan() []lexer.Token {
	for s.err == nil && s.off < len(s.src) {
		s.next()
	}
	eof := s.end
	if t := s.last(); t != nil && t.Type == tPunct && t.Value == "," {
		t.Type = tTrail
	}
	if len(s.toks) == 0 {
		eof = lexer.Position{Filename: s.file, Line: 1, Column: 1}
	}
	if s.err != nil && !s.atEOF {
		eof = fromPos(s.err.Pos, s.off)
	}
	s.toks = append(s.toks, lexer.EOFToken(eof))
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
			s.sep = &lexer.Token{Type: tSep, Value: string(c), Pos: p}
			s.separate()
		}
		s.advance(1)
	case isLetter(r):
		start, p := s.off, s.pos()
		for s.off < len(s.src) {
			r, size := utf8.DecodeRuneInString(s.src[s.off:])
			if !isLetter(r) && !unicode.IsDigit(r) {
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
	default:
		for _, p := range puncts {
			if strings.HasPrefix(s.src[s.off:], p) {
				pos := s.pos()
				s.advance(len(p))
				s.emit(tPunct, p, pos)
				return
			}
		}
		s.fail(s.pos(), false, "unexpected character "+quoteRune(r))
		s.advance(size)
	}
}

// emit appends a token, first flushing a pending separator when it is
// needed, and tracks the brackets.
func (s *scanner) emit(typ lexer.TokenType, val string, p lexer.Position) {
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
	s.toks = append(s.toks, lexer.Token{Type: typ, Value: val, Pos: p})
	s.end = s.pos()
	if typ == tPunct || typ == tKeyword {
		s.nest(val, prev, p)
	}
}

// maxDepth bounds the nesting of brackets and prefix, "**" and "else"
// chains, so that the recursive parser cannot exhaust the stack.
const maxDepth = 400

// bracket is an open bracket: '(', '[', 'd' (a dict's brace) or 'b' (a
// block's brace), with the nesting operators seen inside it.
type bracket struct {
	kind byte
	pos  lexer.Position
	ops  int
}

func (s *scanner) top() byte {
	if len(s.open) == 0 {
		return 0
	}
	return s.open[len(s.open)-1].kind
}

// nest tracks brackets and the depth estimate for a punctuation or keyword
// token.
func (s *scanner) nest(val string, prev *lexer.Token, p lexer.Position) {
	switch val {
	case "(", "[", "{":
		kind := val[0]
		if val == "{" {
			kind = 'd'
			if endsOperand(prev) {
				kind = 'b'
			}
		}
		s.open = append(s.open, bracket{kind: kind, pos: p})
		s.depth++
	case ")", "]", "}":
		// A mismatched closer is left for the parser to report.
		if n := len(s.open); n > 0 && matches(s.open[n-1].kind, val) {
			s.depth -= 1 + s.open[n-1].ops
			s.open = s.open[:n-1]
		} else {
			s.mismatch = true
		}
	case "-", "+", "not", "**", "else":
		if val != "**" && val != "else" && endsOperand(prev) {
			return // a binary operator
		}
		s.depth++
		if n := len(s.open); n > 0 {
			s.open[n-1].ops++
		} else {
			s.topOps++
		}
	default:
		return
	}
	if s.depth > maxDepth {
		s.fail(p, false, "program too deeply nested")
	}
}

// separate forgets the nesting operators of the statement just ended.
func (s *scanner) separate() {
	if n := len(s.open); n > 0 {
		s.depth -= s.open[n-1].ops
		s.open[n-1].ops = 0
	} else {
		s.depth -= s.topOps
		s.topOps = 0
	}
}

func (s *scanner) last() *lexer.Token {
	if len(s.toks) == 0 {
		return nil
	}
	return &s.toks[len(s.toks)-1]
}

// endsOperand reports whether t can end an operand or an if/for/while
// header, so that a "{" after it opens a block rather than a dict.
func endsOperand(t *lexer.Token) bool {
	if t == nil {
		return false
	}
	switch t.Type {
	case tIdent, tInt, tFloat, tString:
		return true
	case tKeyword:
		return t.Value == "else" || t.Value == "true" || t.Value == "false" || t.Value == "none"
	case tPunct:
		return t.Value == ")" || t.Value == "]" || t.Value == "}"
	}
	return false
}

func matches(open byte, close string) bool {
	switch close {
	case ")":
		return open == '('
	case "]":
		return open == '['
	}
	return open == 'd' || open == 'b'
}

func isLetter(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

func quoteRune(r rune) string {
	if r == utf8.RuneError {
		return "(invalid UTF-8)"
	}
	return strconv.Quote(string(r))
}
