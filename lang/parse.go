package lang

import (
	"context"
	"fmt"
	"strings"
)

// Parse parses a source file. filename is used only in positions. On
// failure it returns a nil *File and an *Error; it never panics. Parse is
// safe for concurrent use, and takes time and memory linear in len(src).
func Parse(filename, src string) (f *File, err error) {
	return ParseContext(context.Background(), filename, src)
}

// ParseContext is Parse that stops with an "interrupted" error once ctx is
// done; it looks at ctx every few thousand tokens.
func ParseContext(ctx context.Context, filename, src string) (f *File, err error) {
	s := newScanner(filename, src)
	s.ctx = ctx
	toks := s.scan()
	if s.interrupted {
		return nil, s.err
	}
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, s.choose(r, filename)
		}
	}()
	p := &parser{s: s, toks: toks, ctx: ctx}
	f = p.file(filename)
	if s.err != nil {
		return nil, s.err
	}
	return f, nil
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

// choose picks the error to report from what the parser panicked with: the
// scanner's error unless the parser failed on an earlier token.
func (s *scanner) choose(r any, filename string) *Error {
	switch e := r.(type) {
	case *syntaxErr:
		if s.err != nil && (e.tok.Type == tEOF || e.tok.Pos.Offset >= s.errOff) {
			return s.err
		}
		if e := s.unclosed(e); e != nil {
			return e
		}
		return s.words(e)
	case *Error:
		if s.err != nil {
			return s.err
		}
		return e
	}
	return &Error{Pos: Pos{File: filename, Line: 1, Col: 1}, Msg: fmt.Sprintf("internal error: %v", r)}
}

// unclosed reports a bracket left open when the parser ran out of input.
func (s *scanner) unclosed(e *syntaxErr) *Error {
	if len(s.open) == 0 || e.tok.Type != tEOF {
		return nil
	}
	b := s.open[len(s.open)-1]
	open := string(b.kind)
	if b.kind == 'd' || b.kind == 'b' {
		open = "{"
	}
	return &Error{Pos: s.at(b.pos), Msg: fmt.Sprintf("%q is never closed", open)}
}

// words words a syntax error: `unexpected "}"`, `unexpected newline,
// expected expression`, `unexpected name y at end of statement`.
func (s *scanner) words(e *syntaxErr) *Error {
	tok := e.tok
	msg := "unexpected " + describeToken(tok)
	hint := e.hint
	if hint == "" {
		hint = expectHint(e.prev)
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
	return &Error{Pos: s.at(tok.Pos), Msg: msg}
}

func describeToken(t token) string {
	switch t.Type {
	case tEOF:
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

// endOfBlock marks the hint when a block's closing brace was expected:
// before a token that can start a statement, a separator is missing.
const endOfBlock = "end of block"

// startsStmt reports whether t could begin a statement, so that after a
// complete statement it most likely lacks a separator before it.
func startsStmt(t token) bool {
	switch t.Type {
	case tIdent, tInt, tFloat, tString, tKeyword:
		return true
	}
	return false
}

// operandOps lists the tokens that must be followed by an expression.
var operandOps = map[string]bool{
	"or": true, "and": true, "not": true, "if": true, "while": true, "in": true, "else": true,
	"|": true, "^": true, "&": true, "<<": true, ">>": true, "~": true,
	"&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true,
	"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true,
	"+": true, "-": true, "*": true, "/": true, "//": true, "%": true, "@": true, "**": true,
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "//=": true, "%=": true,
	"@=": true, "**=": true,
}

// expectHint says what should have followed prev, where that is clear.
func expectHint(prev *token) string {
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
