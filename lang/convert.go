package lang

import (
	"fmt"

	"github.com/alecthomas/participle/v2/lexer"
)

// This file defines the conversion of the participle parse tree into the
// syntax tree, and the checks the grammar cannot express: assignment
// targets, argument and parameter order, chained comparisons, and break,
// continue and return outside their loop or function. A failed check panics
// with an *Error that Parse recovers.

// converter holds the scanner's decoded literals and the nesting state.
type converter struct {
	strs  map[int]string
	nums  map[int]*Number
	loops int // enclosing loops of the current function
	fns   int // enclosing functions
}

// toPos converts a participle position.
func toPos(p lexer.Position) Pos {
	return Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

// fail stops the conversion with an error at p.
func fail(p Pos, format string, args ...any) {
	panic(&Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

func (c *converter) file(name string, g *gFile) *File {
	return &File{Name: name, Stmts: c.stmts(g.Stmts)}
}

func (c *converter) stmts(gs []*gStmt) []Stmt {
	out := make([]Stmt, 0, len(gs))
	for _, g := range gs {
		out = append(out, c.stmt(g))
	}
	return out
}

func (c *converter) block(g *gBlock) *Block {
	return &Block{Start: toPos(g.Pos), End: toPos(g.Close.Pos), Stmts: c.stmts(g.Stmts)}
}

func (c *converter) stmt(g *gStmt) Stmt {
	p := toPos(g.Pos)
	switch {
	case g.FnDecl != nil:
		d := g.FnDecl
		fn := c.fnLit(toPos(d.Pos), d.Params, d.Body)
		if d.Name == nil {
			return &ExprStmt{X: fn}
		}
		fn.Name, fn.NamePos = d.Name.Name, toPos(d.Name.Pos)
		return &FnDecl{Fn: fn}
	case g.If != nil:
		return c.ifStmt(g.If)
	case g.While != nil:
		cond := c.expr(g.While.Cond)
		return &WhileStmt{Start: p, Cond: cond, Body: c.loopBody(g.While.Body)}
	case g.For != nil:
		return c.forStmt(g.For)
	case g.Return != nil:
		if c.fns == 0 {
			fail(p, "return outside a function")
		}
		s := &ReturnStmt{Start: p}
		if g.Return.Value != nil {
			s.Value = c.exprList(g.Return.Value)
		}
		return s
	case g.Break:
		if c.loops == 0 {
			fail(p, "break outside a loop")
		}
		return &BreakStmt{Start: p}
	case g.Continue:
		if c.loops == 0 {
			fail(p, "continue outside a loop")
		}
		return &ContinueStmt{Start: p}
	case g.Import != nil:
		path := g.Import.Path
		return &ImportStmt{Start: p, Path: c.strs[path.Pos.Offset], PathPos: toPos(path.Pos),
			Name: g.Import.Name.Name, NamePos: toPos(g.Import.Name.Pos)}
	}
	return c.simple(g.Simple)
}

func (c *converter) ifStmt(g *gIf) *IfStmt {
	s := &IfStmt{Start: toPos(g.Pos), Cond: c.expr(g.Cond), Then: c.block(g.Then)}
	if g.ElseIf != nil {
		s.Else = c.ifStmt(g.ElseIf)
	} else if g.Else != nil {
		s.Else = c.block(g.Else)
	}
	return s
}

func (c *converter) forStmt(g *gFor) *ForStmt {
	s := &ForStmt{Start: toPos(g.Pos), Iter: c.expr(g.Iter)}
	seen := map[string]bool{}
	for _, v := range g.Vars {
		if seen[v.Name] {
			fail(toPos(v.Pos), "duplicate loop variable %s", v.Name)
		}
		seen[v.Name] = true
		s.Vars = append(s.Vars, &Ident{Start: toPos(v.Pos), Name: v.Name})
	}
	s.Body = c.loopBody(g.Body)
	return s
}

func (c *converter) loopBody(g *gBlock) *Block {
	c.loops++
	defer func() { c.loops-- }()
	return c.block(g)
}

// simple converts an expression statement or an assignment.
func (c *converter) simple(g *gSimple) Stmt {
	left := c.exprList(g.Left)
	if g.Op == nil {
		return &ExprStmt{X: left}
	}
	right := c.exprList(g.Right)
	opPos := toPos(g.Op.Pos)
	if g.Op.Op == "=" {
		checkTarget(left, true)
		return &AssignStmt{Start: left.Pos(), EqPos: opPos, Target: left, Value: right}
	}
	checkTarget(left, false)
	op := g.Op.Op[:len(g.Op.Op)-1]
	return &AugAssign{Start: left.Pos(), OpPos: opPos, Op: op, Target: left, Value: right}
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
	case *Binary, *Unary:
		return "an operator expression"
	case *FnLit:
		return "a function"
	}
	return "this expression"
}

// fnLit converts a function's parameters and body.
func (c *converter) fnLit(p Pos, params []*gParam, body *gBlock) *FnLit {
	fn := &FnLit{Start: p}
	seen := map[string]bool{}
	for _, gp := range params {
		pp := toPos(gp.Pos)
		if seen[gp.Name] {
			fail(pp, "duplicate parameter %s", gp.Name)
		}
		seen[gp.Name] = true
		param := Param{Start: pp, Name: gp.Name}
		if gp.Default != nil {
			param.Default = c.expr(gp.Default)
		} else if n := len(fn.Params); n > 0 && fn.Params[n-1].Default != nil {
			fail(pp, "parameter %s without a default follows one with a default", gp.Name)
		}
		fn.Params = append(fn.Params, param)
	}
	loops := c.loops
	c.loops = 0
	c.fns++
	fn.Body = c.block(body)
	c.loops = loops
	c.fns--
	return fn
}

// exprList converts "a" to a, and "a, b" or "a," to a tuple.
func (c *converter) exprList(g *gExprList) Expr {
	if len(g.Exprs) == 1 && !g.Trailing {
		return c.expr(g.Exprs[0])
	}
	t := &TupleLit{Start: toPos(g.Pos)}
	for _, e := range g.Exprs {
		t.Elems = append(t.Elems, c.expr(e))
	}
	return t
}
