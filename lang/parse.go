package lang

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// parser is built on first use, so that programs that never parse start fast.
var parser = sync.OnceValue(newParser)

// Parse parses a source file. filename is used only in positions. On
// failure it returns a nil *File and an *Error; it never panics. Parse is
// safe for concurrent use.
func Parse(filename, src string) (f *File, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				e = &Error{Pos: Pos{File: filename, Line: 1, Col: 1}, Msg: fmt.Sprintf("internal error: %v", r)}
			}
			f, err = nil, e
		}
	}()
	s := newScanner(filename, src)
	toks := s.scan()
	peek, perr := lexer.Upgrade(&tokenLexer{toks: toks})
	var g *gFile
	if perr == nil {
		g, perr = parser().ParseFromLexer(peek)
	}
	if e := s.choose(perr, toks); e != nil {
		return nil, e
	}
	c := &converter{strs: s.strs, nums: s.nums}
	return c.file(filename, g), nil
}

// ParseExpr parses src as a single expression.
func ParseExpr(filename, src string) (Expr, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	if len(f.Stmts) == 1 {
		if s, ok := f.Stmts[0].(*ExprStmt); ok {
			return s.X, nil
		}
	}
	p := Pos{File: filename, Line: 1, Col: 1}
	if len(f.Stmts) > 0 {
		p = f.Stmts[0].Pos()
	}
	return nil, &Error{Pos: p, Msg: "expected an expression"}
}

// choose picks the error to report: the scanner's unless the parser failed
// on an earlier token.
func (s *scanner) choose(perr error, toks []lexer.Token) *Error {
	if perr == nil {
		return s.err
	}
	var ute *participle.UnexpectedTokenError
	if s.err != nil && !(errors.As(perr, &ute) && ute.Unexpected.Type != lexer.EOF && ute.Unexpected.Pos.Offset < s.errOff) {
		return s.err
	}
	if e := s.unclosed(perr); e != nil {
		return e
	}
	return syntaxError(perr, toks)
}

// unclosed reports a bracket left open when the parser ran out of input.
func (s *scanner) unclosed(perr error) *Error {
	var ute *participle.UnexpectedTokenError
	if len(s.open) == 0 || !errors.As(perr, &ute) || ute.Unexpected.Type != lexer.EOF {
		return nil
	}
	b := s.open[len(s.open)-1]
	open := string(b.kind)
	if b.kind == 'd' || b.kind == 'b' {
		open = "{"
	}
	return &Error{Pos: toPos(b.pos), Msg: fmt.Sprintf("%q is never closed", open)}
}

// syntaxError words a participle error without its grammar terms:
// `unexpected "}"`, `unexpected newline, expected expression`.
func syntaxError(perr error, toks []lexer.Token) *Error {
	var ute *participle.UnexpectedTokenError
	if !errors.As(perr, &ute) {
		var pe participle.Error
		p := toks[len(toks)-1].Pos
		if errors.As(perr, &pe) {
			p = pe.Position()
		}
		return &Error{Pos: toPos(p), Msg: "syntax error"}
	}
	tok := ute.Unexpected
	msg := "unexpected " + describeToken(tok)
	hint := expected(ute.Message())
	if hint == "" {
		hint = expectHint(prevToken(toks, tok))
	}
	switch {
	case tok.Type == tIdent && tok.Value == "elif":
		msg += `; write "else if"`
	case (hint == "" || hint == endOfBlock) && startsStmt(tok):
		msg += " at end of statement"
	case hint == endOfBlock:
		msg += `, expected "}"`
	case hint != "":
		msg += ", expected " + hint
	}
	return &Error{Pos: toPos(tok.Pos), Msg: msg}
}

func describeToken(t lexer.Token) string {
	switch t.Type {
	case lexer.EOF:
		return "end of input"
	case tSep:
		if t.Value == "\n" {
			return "newline"
		}
		return `";"`
	case tIdent:
		return "name " + t.Value
	case tInt, tFloat:
		return "number " + t.Value
	case tString:
		v := t.Value
		if len(v) > 20 {
			v = strings.ToValidUTF8(v[:16], "") + "..." + v[len(v)-1:]
		}
		return "string " + v
	case tKeyword:
		return "keyword " + t.Value
	case tTrail:
		return `","`
	}
	return fmt.Sprintf("%q", t.Value)
}

// grammarNames words the grammar's rule names for error messages.
var grammarNames = map[string]string{
	"GBlock": `"{"`, "GExpr": "expression", "GExprList": "expression", "GName": "name",
	"GParam": "parameter name", "GString": "path string", "GCall": `"("`,
	"GIf": `"if" or "{"`, "GTok": endOfBlock,
}

// endOfBlock marks the hint when a block's closing brace was expected:
// before a token that can start a statement, a separator is missing.
const endOfBlock = "end of block"

// startsStmt reports whether t could begin a statement, so that after a
// complete statement it most likely lacks a separator before it.
func startsStmt(t lexer.Token) bool {
	switch t.Type {
	case tIdent, tInt, tFloat, tString, tKeyword:
		return true
	}
	return false
}

// expected returns what participle's message says it expected, when that is
// a single token or a rule with a user-facing name.
func expected(msg string) string {
	_, want, ok := strings.Cut(msg, "(expected ")
	if !ok {
		return ""
	}
	if strings.HasPrefix(want, "(GIf | GBlock)") {
		return grammarNames["GIf"] // the only group whose alternatives we name
	}
	if strings.HasPrefix(want, `"`) {
		if end := strings.Index(want[1:], `"`); end >= 0 {
			return want[:end+2]
		}
		return ""
	}
	name := want
	if i := strings.IndexAny(want, " ()|*?"); i >= 0 {
		name = want[:i]
	}
	return grammarNames[name]
}

// prevToken returns the token before t in toks, or nil.
func prevToken(toks []lexer.Token, t lexer.Token) *lexer.Token {
	for i := 1; i < len(toks); i++ {
		if toks[i].Pos.Offset == t.Pos.Offset && toks[i].Type == t.Type {
			return &toks[i-1]
		}
	}
	return nil
}

// operandOps lists the tokens that must be followed by an expression.
var operandOps = map[string]bool{
	"or": true, "and": true, "not": true, "if": true, "while": true, "in": true,
	"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true,
	"+": true, "-": true, "*": true, "/": true, "//": true, "%": true, "@": true, "**": true,
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "//=": true, "%=": true,
	"@=": true, "**=": true,
}

// expectHint says what should have followed prev, where that is clear.
func expectHint(prev *lexer.Token) string {
	if prev == nil || prev.Type != tPunct && prev.Type != tKeyword {
		return ""
	}
	switch v := prev.Value; {
	case operandOps[v]:
		return "expression"
	case v == ".":
		return "attribute name"
	case v == "fn":
		return "function name or parameters"
	case v == "for":
		return "loop variable"
	case v == "import":
		return "path string"
	case v == "as":
		return "name"
	}
	return ""
}
