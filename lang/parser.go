package lang

import (
	"context"
	"fmt"
)

// This file defines the parser: recursive descent over the scanner's tokens,
// one function per statement form, with the checks the grammar cannot
// express (assignment targets, parameter order, break/continue/return
// placement). The grammar is LL(1), so a rule commits once it has consumed a
// token and an error is reported where it happens. Sequences (statements,
// operands of a left-associative operator, list elements) are collected in
// loops, so time and memory are linear in the input and recursion follows
// only nesting, which is bounded by maxDepth.

// parser holds the token list and the nesting state.
type parser struct {
	s     *scanner
	ctx   context.Context
	toks  []token
	i     int
	depth int // current nesting; see enter
	loops int // enclosing loops of the current function
	fns   int // enclosing functions
}

// syntaxErr is a parse failure at a token: what was found and, when it is
// clear, what was expected. Parse words it (see syntaxError).
type syntaxErr struct {
	tok  token
	hint string
	prev *token
}

// at converts a token position.
func (p *parser) at(q position) Pos { return p.s.at(q) }

// fail stops the parse with an error at p.
func fail(p Pos, format string, args ...any) {
	panic(&Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) tok() *token { return &p.toks[p.i] }

func (p *parser) pos() Pos { return p.at(p.toks[p.i].Pos) }

// advance moves to the next token; the EOF token stays.
func (p *parser) advance() {
	if p.i < len(p.toks)-1 {
		p.i++
		if p.i%checkEvery == 0 && p.ctx.Err() != nil {
			fail(p.pos(), "interrupted")
		}
	}
}

// is reports whether the current token is the operator or keyword v.
func (p *parser) is(v string) bool {
	t := &p.toks[p.i]
	return (t.Type == tPunct || t.Type == tKeyword) && t.Value == v
}

// isComma reports whether the current token is a comma (trailing or not).
func (p *parser) isComma() bool {
	t := &p.toks[p.i]
	return t.Type == tTrail || t.Type == tPunct && t.Value == ","
}

// more consumes the comma between two elements of a bracketed list and
// reports whether another element follows: not after a trailing comma (one
// the scanner saw before a closing bracket or a separator) nor before the
// closer.
func (p *parser) more(closer string) bool {
	if !p.isComma() {
		return false
	}
	trail := p.tok().Type == tTrail
	p.advance()
	return !trail && !p.is(closer)
}

// unexpected stops the parse at the current token.
func (p *parser) unexpected(hint string) {
	var prev *token
	if p.i > 0 {
		prev = &p.toks[p.i-1]
	}
	panic(&syntaxErr{tok: p.toks[p.i], hint: hint, prev: prev})
}

// expect consumes the operator or keyword v, or fails saying it was expected.
func (p *parser) expect(v string) Pos {
	if !p.is(v) {
		p.unexpected(`"` + v + `"`)
	}
	at := p.pos()
	p.advance()
	return at
}

// name consumes an identifier.
func (p *parser) name(hint string) (string, Pos) {
	t := p.tok()
	if t.Type != tIdent {
		p.unexpected(hint)
	}
	p.advance()
	return t.Value, p.at(t.Pos)
}

// enter counts one level of nesting and fails past maxDepth, so that no
// input can exhaust the stack; leave undoes it.
func (p *parser) enter() {
	if p.depth++; p.depth > maxDepth {
		fail(p.pos(), "program too deeply nested")
	}
}

func (p *parser) leave() { p.depth-- }

// file parses File = [ Stmt { Sep Stmt } ] .
func (p *parser) file(name string) *File {
	f := &File{Name: name}
	for p.tok().Type != tEOF {
		f.Stmts = append(f.Stmts, p.stmt())
		switch p.tok().Type {
		case tSep:
			p.advance()
		case tEOF:
		default:
			p.unexpected("")
		}
	}
	return f
}

// block parses Block = "{" [ Stmt { Sep Stmt } ] "}" .
func (p *parser) block() *Block {
	start := p.expect("{")
	p.enter()
	defer p.leave()
	b := &Block{Start: start}
	for !p.is("}") {
		b.Stmts = append(b.Stmts, p.stmt())
		if p.tok().Type == tSep {
			p.advance()
		} else if !p.is("}") {
			p.unexpected(endOfBlock)
		}
	}
	b.End = p.pos()
	p.advance()
	return b
}

// stmt parses Stmt = FnDecl | If | While | For | Return | "break" | "continue" | Import | Simple .
func (p *parser) stmt() Stmt {
	start := p.pos()
	if p.tok().Type == tKeyword {
		switch p.tok().Value {
		case "fn":
			return p.fnDecl()
		case "if":
			return p.ifStmt()
		case "while":
			p.advance()
			cond := p.expr()
			return &WhileStmt{Start: start, Cond: cond, Body: p.loopBody()}
		case "for":
			return p.forStmt()
		case "return":
			p.advance()
			if p.fns == 0 {
				fail(start, "return outside a function")
			}
			s := &ReturnStmt{Start: start}
			if startsExpr(p.tok()) {
				s.Value = p.exprList()
			}
			return s
		case "break":
			p.advance()
			if p.loops == 0 {
				fail(start, "break outside a loop")
			}
			return &BreakStmt{Start: start}
		case "continue":
			p.advance()
			if p.loops == 0 {
				fail(start, "continue outside a loop")
			}
			return &ContinueStmt{Start: start}
		case "import":
			p.advance()
			t := p.tok()
			if t.Type != tString {
				p.unexpected("path string")
			}
			p.advance()
			s := &ImportStmt{Start: start, Path: p.s.strs[t.Aux], PathPos: p.at(t.Pos)}
			p.expect("as")
			s.Name, s.NamePos = p.name("name")
			return s
		}
	}
	return p.simple()
}

// fnDecl parses FnDecl = "fn" [ Ident ] "(" Params ")" Block . Without a
// name it is an anonymous fn standing alone as a statement.
func (p *parser) fnDecl() Stmt {
	start := p.pos()
	p.advance()
	if p.tok().Type != tIdent {
		if !p.is("(") {
			p.unexpected("function name or parameters")
		}
		return &ExprStmt{X: p.fnRest(start)}
	}
	name, namePos := p.name("")
	fn := p.fnRest(start)
	fn.Name, fn.NamePos = name, namePos
	return &FnDecl{Fn: fn}
}

// fnRest parses "(" [ Param { "," Param } [ "," ] ] ")" Block after "fn",
// with Param = Ident [ "=" Expr ].
func (p *parser) fnRest(start Pos) *FnLit {
	fn := &FnLit{Start: start}
	p.expect("(")
	seen := map[string]bool{}
	for !p.is(")") {
		name, at := p.name("parameter name")
		if seen[name] {
			fail(at, "duplicate parameter %s", name)
		}
		seen[name] = true
		param := Param{Start: at, Name: name}
		if p.is("=") {
			p.advance()
			param.Default = p.expr()
		} else if n := len(fn.Params); n > 0 && fn.Params[n-1].Default != nil {
			fail(at, "parameter %s without a default follows one with a default", name)
		}
		fn.Params = append(fn.Params, param)
		if !p.more(")") {
			break
		}
	}
	p.expect(")")
	loops := p.loops
	p.loops = 0
	p.fns++
	fn.Body = p.block()
	p.loops = loops
	p.fns--
	return fn
}

// ifStmt parses If = "if" Expr Block [ "else" ( If | Block ) ] .
func (p *parser) ifStmt() *IfStmt {
	s := &IfStmt{Start: p.pos()}
	p.advance()
	s.Cond = p.expr()
	s.Then = p.block()
	if !p.is("else") {
		return s
	}
	p.advance()
	switch {
	case p.is("if"):
		p.enter()
		s.Else = p.ifStmt()
		p.leave()
	case p.is("{"):
		s.Else = p.block()
	default:
		p.unexpected(`"if" or "{"`)
	}
	return s
}

// forStmt parses For = "for" Ident { "," Ident } "in" Expr Block .
func (p *parser) forStmt() *ForStmt {
	s := &ForStmt{Start: p.pos()}
	p.advance()
	s.Vars = p.loopVars()
	s.Iter = p.expr()
	s.Body = p.loopBody()
	return s
}

// loopVars parses Ident { "," Ident } "in", the targets of a for loop or a
// comprehension.
func (p *parser) loopVars() []*Ident {
	var vars []*Ident
	seen := map[string]bool{}
	for {
		name, at := p.name("name")
		if seen[name] {
			fail(at, "duplicate loop variable %s", name)
		}
		seen[name] = true
		vars = append(vars, &Ident{Start: at, Name: name})
		if !p.isComma() {
			break
		}
		p.advance()
	}
	p.expect("in")
	return vars
}

func (p *parser) loopBody() *Block {
	p.loops++
	defer func() { p.loops-- }()
	return p.block()
}

// assignOps are the assignment operators of Simple.
var assignOps = map[string]bool{
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "//=": true, "%=": true,
	"@=": true, "**=": true, "&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true,
}

// simple parses Simple = ExprList [ AssignOp ExprList ] .
func (p *parser) simple() Stmt {
	if !startsExpr(p.tok()) {
		p.unexpected("")
	}
	left := p.exprList()
	t := p.tok()
	if t.Type != tPunct || !assignOps[t.Value] {
		return &ExprStmt{X: left}
	}
	op, opPos := t.Value, p.at(t.Pos)
	p.advance()
	right := p.exprList()
	if op == "=" {
		checkTarget(left, true)
		return &AssignStmt{Start: left.Pos(), EqPos: opPos, Target: left, Value: right}
	}
	checkTarget(left, false)
	return &AugAssign{Start: left.Pos(), OpPos: opPos, Op: op[:len(op)-1], Target: left, Value: right}
}

// exprList parses ExprList = Expr { "," Expr } [ "," ]: "a" is a, and
// "a, b" or "a," a tuple.
func (p *parser) exprList() Expr {
	start := p.pos()
	x := p.expr()
	if !p.isComma() {
		return x
	}
	t := &TupleLit{Start: start, Elems: []Expr{x}}
	for p.isComma() {
		p.advance()
		if !startsExpr(p.tok()) {
			break
		}
		t.Elems = append(t.Elems, p.expr())
	}
	return t
}

// checkTarget fails unless e can be assigned to.
func checkTarget(e Expr, tupleOK bool) {
	switch e := e.(type) {
	case *Ident, *Index, *Attr:
		return
	case *TupleLit:
		if !tupleOK {
			fail(e.Pos(), "cannot use an augmented assignment with several targets")
		}
		if len(e.Elems) == 0 {
			fail(e.Pos(), "cannot assign to ()")
		}
		for _, x := range e.Elems {
			checkTarget(x, true)
		}
		return
	}
	fail(e.Pos(), "cannot assign to %s", describe(e))
}

// describe names the kind of an expression for error messages.
func describe(e Expr) string {
	switch e.(type) {
	case *Call:
		return "a function call"
	case *Number, *String, *Bool, *None, *ListLit, *DictLit, *Ellipsis:
		return "a literal"
	case *Binary, *Unary, *CondExpr:
		return "an operator expression"
	case *Comprehension:
		return "a comprehension"
	case *FnLit:
		return "a function"
	}
	return "this expression"
}
