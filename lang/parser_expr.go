package lang

// This file defines the parsing of expressions: one loop per level of
// binary operators, from the lowest precedence to the highest, then the
// prefix operators, "**", the postfix call, index and attribute, and the
// primaries with their comprehensions.

// Binary operator levels, from the loosest to the tightest. The "not"
// prefix sits between and and the comparisons.
const (
	lvlOr = iota
	lvlAnd
	lvlNot
	lvlCmp
	lvlBitOr
	lvlBitXor
	lvlBitAnd
	lvlShift
	lvlAdd
	lvlMul
	lvlUnary
)

// binaryOps lists the operators of each binary level.
var binaryOps = [lvlUnary][]string{
	lvlOr:     {"or"},
	lvlAnd:    {"and"},
	lvlCmp:    {"==", "!=", "<", "<=", ">", ">=", "in"}, // and "not in"
	lvlBitOr:  {"|"},
	lvlBitXor: {"^"},
	lvlBitAnd: {"&"},
	lvlShift:  {"<<", ">>"},
	lvlAdd:    {"+", "-"},
	lvlMul:    {"*", "/", "//", "%", "@"},
}

// expr parses Expr = Or [ "if" Or "else" Expr ], the conditional
// expression a if c else b, which binds loosest as in Python.
func (p *parser) expr() Expr {
	x := p.binary(lvlOr)
	if !p.is("if") {
		return x
	}
	p.advance()
	p.enter()
	defer p.leave()
	cond := p.binary(lvlOr)
	p.expect("else")
	return &CondExpr{Start: x.Pos(), Then: x, Cond: cond, Else: p.expr()}
}

// binaryOp returns the operator of level lvl at the current token, with
// the number of tokens it takes ("not in" takes two).
func (p *parser) binaryOp(lvl int) (string, int) {
	t := p.tok()
	if t.Type != tPunct && t.Type != tKeyword {
		return "", 0
	}
	if lvl == lvlCmp && t.Value == "not" {
		if n := &p.toks[min(p.i+1, len(p.toks)-1)]; n.Type == tKeyword && n.Value == "in" {
			return "not in", 2
		}
		return "", 0
	}
	for _, op := range binaryOps[lvl] {
		if t.Value == op {
			return op, 1
		}
	}
	return "", 0
}

// binary parses one level of left-associative binary operators, Level =
// Next { op Next }; comparisons do not chain (a < b < c is an error).
func (p *parser) binary(lvl int) Expr {
	switch lvl {
	case lvlUnary:
		return p.unary()
	case lvlNot:
		if !p.is("not") {
			return p.binary(lvlCmp)
		}
		start := p.pos()
		p.advance()
		p.enter()
		defer p.leave()
		return &Unary{Start: start, Op: "not", X: p.binary(lvlNot)}
	}
	x := p.binary(lvl + 1)
	for n := 0; ; n++ {
		op, width := p.binaryOp(lvl)
		if width == 0 {
			return x
		}
		opPos := p.pos()
		if lvl == lvlCmp && n > 0 {
			fail(opPos, "comparisons cannot be chained; write a < b and b < c")
		}
		p.i += width - 1
		p.advance()
		y := p.binary(lvl + 1)
		x = &Binary{Start: x.Pos(), OpPos: opPos, Op: op, X: x, Y: y}
	}
}

// unary parses Unary = ( "-" | "+" | "~" ) Unary | Power, and
// Power = Postfix [ "**" Unary ]: so "**" is right associative, 2 ** -1
// parses, and -2 ** 2 is -(2 ** 2) as in Python.
func (p *parser) unary() Expr {
	if p.is("-") || p.is("+") || p.is("~") {
		start, op := p.pos(), p.tok().Value
		p.advance()
		p.enter()
		defer p.leave()
		return &Unary{Start: start, Op: op, X: p.unary()}
	}
	x := p.postfix()
	if !p.is("**") {
		return x
	}
	opPos := p.pos()
	p.advance()
	p.enter()
	defer p.leave()
	return &Binary{Start: x.Pos(), OpPos: opPos, Op: "**", X: x, Y: p.unary()}
}

// postfix parses Postfix = Primary { Call | Index | "." Ident } .
func (p *parser) postfix() Expr {
	x := p.primary()
	for {
		at := p.pos()
		switch {
		case p.is("("):
			x = p.call(x)
		case p.is("["):
			p.advance()
			p.enter()
			ix := &Index{Start: x.Pos(), Lbrack: at, X: x}
			for {
				ix.Indices = append(ix.Indices, p.sub())
				if !p.more("]") {
					break
				}
			}
			p.expect("]")
			p.leave()
			x = ix
		case p.is("."):
			p.advance()
			name, namePos := p.name("name")
			x = &Attr{Start: x.Pos(), NamePos: namePos, X: x, Name: name}
		default:
			return x
		}
	}
}

// call parses Call = "(" [ Arg { "," Arg } [ "," ] ] ")" with
// Arg = "*" Expr | [ Ident "=" ] Expr; keyword arguments follow positional ones and
// are not repeated.
func (p *parser) call(fn Expr) *Call {
	c := &Call{Start: fn.Pos(), Lparen: p.pos(), Fn: fn}
	p.advance()
	p.enter()
	defer p.leave()
	seen := map[string]bool{}
	for !p.is(")") {
		if p.is("*") {
			// f(*xs): the elements of xs as positional arguments, a
			// Unary "*" that only a call's arguments hold.
			star := p.pos()
			p.advance()
			if len(c.Kwargs) > 0 {
				fail(star, "iterable argument unpacking follows keyword argument")
			}
			c.Args = append(c.Args, &Unary{Start: star, Op: "*", X: p.expr()})
			if !p.more(")") {
				break
			}
			continue
		}
		x := p.expr()
		if !p.is("=") {
			if len(c.Kwargs) > 0 {
				fail(x.Pos(), "positional argument follows keyword argument")
			}
			c.Args = append(c.Args, x)
		} else {
			p.advance()
			name, ok := x.(*Ident)
			switch {
			case !ok:
				fail(x.Pos(), "keyword argument must be a name, as in f(axis=0)")
			case seen[name.Name]:
				fail(x.Pos(), "duplicate keyword argument %s", name.Name)
			}
			seen[name.Name] = true
			c.Kwargs = append(c.Kwargs, Kwarg{NamePos: x.Pos(), Name: name.Name, Value: p.expr()})
		}
		if !p.more(")") {
			break
		}
	}
	p.expect(")")
	return c
}

// sub parses Sub = "..." | [ Expr ] ":" [ Expr ] [ ":" [ Expr ] ] | Expr .
func (p *parser) sub() Expr {
	start := p.pos()
	if p.is("...") {
		p.advance()
		return &Ellipsis{Start: start}
	}
	var lo Expr
	if !p.is(":") {
		lo = p.expr()
		if !p.is(":") {
			return lo
		}
	}
	p.advance()
	s := &Slice{Start: start, Lo: lo}
	if startsExpr(p.tok()) {
		s.Hi = p.expr()
	}
	if p.is(":") {
		p.advance()
		if startsExpr(p.tok()) {
			s.Step = p.expr()
		}
	}
	return s
}

// primary parses Primary = Int | Float | String | "true" | "false" | "none"
// | Ident | FnLit | Paren | List | Dict .
func (p *parser) primary() Expr {
	t := p.tok()
	at := p.at(t.Pos)
	switch t.Type {
	case tIdent:
		p.advance()
		return &Ident{Start: at, Name: t.Value}
	case tInt, tFloat:
		p.advance()
		n := number(t)
		n.Start = at
		return &n
	case tString:
		p.advance()
		return &String{Start: at, Value: p.s.strs[t.Aux]}
	case tKeyword:
		switch t.Value {
		case "true", "false":
			p.advance()
			return &Bool{Start: at, Value: t.Value == "true"}
		case "none":
			p.advance()
			return &None{Start: at}
		case "fn":
			p.advance()
			if !p.is("(") {
				p.unexpected(`"("`)
			}
			return p.fnRest(at)
		}
	case tPunct:
		switch t.Value {
		case "(":
			return p.paren()
		case "[":
			return p.list()
		case "{":
			return p.dict()
		}
	}
	p.unexpected("expression")
	return nil
}

// paren parses Paren = "(" [ Expr { "," Expr } [ "," ] ] ")": one
// expression without a comma is that expression; anything else a tuple.
func (p *parser) paren() Expr {
	start := p.pos()
	p.advance()
	p.enter()
	defer p.leave()
	if p.is(")") {
		p.advance()
		return &TupleLit{Start: start}
	}
	x := p.expr()
	if !p.isComma() {
		p.expect(")")
		return x
	}
	elems := p.elems(x, ")")
	return &TupleLit{Start: start, Elems: elems}
}

// elems parses the rest of a comma-separated list whose first element is
// first and which the closer ends: { "," Expr } [ "," ] closer.
func (p *parser) elems(first Expr, closer string) []Expr {
	out := []Expr{first}
	for p.more(closer) {
		out = append(out, p.expr())
	}
	p.expect(closer)
	return out
}

// list parses List = "[" [ Expr ( Comp | { "," Expr } [ "," ] ) ] "]" .
func (p *parser) list() Expr {
	start := p.pos()
	p.advance()
	p.enter()
	defer p.leave()
	if p.is("]") {
		p.advance()
		return &ListLit{Start: start}
	}
	x := p.expr()
	if p.is("for") {
		c := &Comprehension{Start: start, Elem: x, Clauses: p.compClauses()}
		p.expect("]")
		return c
	}
	return &ListLit{Start: start, Elems: p.elems(x, "]")}
}

// compClauses parses Comp = "for" Ident { "," Ident } "in" Or { CompFor |
// "if" Or }, the clauses of a comprehension, outermost first.
func (p *parser) compClauses() []CompClause {
	var cs []CompClause
	for {
		at := p.pos()
		switch {
		case p.is("for"):
			p.advance()
			vars := p.loopVars()
			cs = append(cs, CompClause{Start: at, Vars: vars, Iter: p.binary(lvlOr)})
		case p.is("if"):
			p.advance()
			cs = append(cs, CompClause{Start: at, Cond: p.binary(lvlOr)})
		default:
			return cs
		}
	}
}

// dict parses Dict = "{" [ Entry ( Comp | { "," Entry } [ "," ] ) ] "}"
// with Entry = Expr ":" Expr .
func (p *parser) dict() Expr {
	start := p.pos()
	p.advance()
	p.enter()
	defer p.leave()
	d := &DictLit{Start: start}
	for !p.is("}") {
		k := p.expr()
		p.expect(":")
		v := p.expr()
		if len(d.Entries) == 0 && p.is("for") {
			c := &Comprehension{Start: start, Key: k, Elem: v, Clauses: p.compClauses()}
			p.expect("}")
			return c
		}
		d.Entries = append(d.Entries, DictEntry{Key: k, Value: v})
		if !p.more("}") {
			break
		}
	}
	p.expect("}")
	return d
}

// startsExpr reports whether t can begin an expression.
func startsExpr(t *token) bool {
	switch t.Type {
	case tIdent, tInt, tFloat, tString:
		return true
	case tKeyword:
		switch t.Value {
		case "true", "false", "none", "fn", "not":
			return true
		}
	case tPunct:
		switch t.Value {
		case "(", "[", "{", "-", "+", "~":
			return true
		}
	}
	return false
}
