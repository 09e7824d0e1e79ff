package lang

// This file defines the conversion of expressions, level by level.

func (c *converter) expr(g *gExpr) Expr { return c.or(g.Or) }

// binary folds x op y op z ... to the left.
func binary(x Expr, op string, opPos Pos, y Expr) Expr {
	return &Binary{Start: x.Pos(), OpPos: opPos, Op: op, X: x, Y: y}
}

func (c *converter) or(g *gOr) Expr {
	x := c.and(g.X)
	for _, r := range g.Rest {
		x = binary(x, r.Op, toPos(r.Pos), c.and(r.Y))
	}
	return x
}

func (c *converter) and(g *gAnd) Expr {
	x := c.not(g.X)
	for _, r := range g.Rest {
		x = binary(x, r.Op, toPos(r.Pos), c.not(r.Y))
	}
	return x
}

func (c *converter) not(g *gNot) Expr {
	if g.Not != nil {
		return &Unary{Start: toPos(g.Pos), Op: "not", X: c.not(g.Not)}
	}
	return c.cmp(g.Cmp)
}

func (c *converter) cmp(g *gCmp) Expr {
	x := c.add(g.X)
	for i, r := range g.Rest {
		if i > 0 {
			fail(toPos(r.Pos), "comparisons cannot be chained; write a < b and b < c")
		}
		x = binary(x, r.Op, toPos(r.Pos), c.add(r.Y))
	}
	return x
}

func (c *converter) add(g *gAdd) Expr {
	x := c.mul(g.X)
	for _, r := range g.Rest {
		x = binary(x, r.Op, toPos(r.Pos), c.mul(r.Y))
	}
	return x
}

func (c *converter) mul(g *gMul) Expr {
	x := c.unary(g.X)
	for _, r := range g.Rest {
		x = binary(x, r.Op, toPos(r.Pos), c.unary(r.Y))
	}
	return x
}

func (c *converter) unary(g *gUnary) Expr {
	if g.X != nil {
		return &Unary{Start: toPos(g.Pos), Op: g.Op, X: c.unary(g.X)}
	}
	x := c.postfix(g.Power.X)
	if e := g.Power.Exp; e != nil {
		return binary(x, "**", toPos(e.Pos), c.unary(e.Y))
	}
	return x
}

func (c *converter) postfix(g *gPostfix) Expr {
	x := c.primary(g.X)
	for _, s := range g.Suffixes {
		p := toPos(s.Pos)
		switch {
		case s.Call != nil:
			x = c.call(x, p, s.Call)
		case s.Index != nil:
			ix := &Index{Start: x.Pos(), Lbrack: p, X: x}
			for _, sub := range s.Index.Subs {
				ix.Indices = append(ix.Indices, c.sub(sub))
			}
			x = ix
		default:
			x = &Attr{Start: x.Pos(), NamePos: toPos(s.Attr.Pos), X: x, Name: s.Attr.Name}
		}
	}
	return x
}

func (c *converter) call(fn Expr, lparen Pos, g *gCall) *Call {
	call := &Call{Start: fn.Pos(), Lparen: lparen, Fn: fn}
	seen := map[string]bool{}
	for _, a := range g.Args {
		x := c.expr(a.X)
		if a.Value == nil {
			if len(call.Kwargs) > 0 {
				fail(x.Pos(), "positional argument follows keyword argument")
			}
			call.Args = append(call.Args, x)
			continue
		}
		name, ok := x.(*Ident)
		switch {
		case !ok:
			fail(x.Pos(), "keyword argument must be a name, as in f(axis=0)")
		case seen[name.Name]:
			fail(x.Pos(), "duplicate keyword argument %s", name.Name)
		}
		seen[name.Name] = true
		call.Kwargs = append(call.Kwargs, Kwarg{NamePos: x.Pos(), Name: name.Name, Value: c.expr(a.Value)})
	}
	return call
}

func (c *converter) sub(g *gSub) Expr {
	switch {
	case g.Ellipsis:
		return &Ellipsis{Start: toPos(g.Pos)}
	case g.Rest != nil:
		return c.slice(toPos(g.Pos), nil, g.Rest)
	case g.LoRest != nil:
		return c.slice(toPos(g.Pos), c.expr(g.Lo), g.LoRest)
	}
	return c.expr(g.Lo)
}

func (c *converter) slice(p Pos, lo Expr, g *gSliceRest) *Slice {
	s := &Slice{Start: p, Lo: lo}
	if g.Hi != nil {
		s.Hi = c.expr(g.Hi)
	}
	if g.Step != nil {
		s.Step = c.expr(g.Step)
	}
	return s
}

func (c *converter) primary(g *gPrimary) Expr {
	p := toPos(g.Pos)
	switch {
	case g.Int != "" || g.Float != "":
		n := *c.nums[g.Pos.Offset]
		n.Start = p
		return &n
	case g.Str != "":
		return &String{Start: p, Value: c.strs[g.Pos.Offset]}
	case g.Keyword == "none":
		return &None{Start: p}
	case g.Keyword != "":
		return &Bool{Start: p, Value: g.Keyword == "true"}
	case g.Ident != "":
		return &Ident{Start: p, Name: g.Ident}
	case g.Fn != nil:
		return c.fnLit(p, g.Fn.Params, g.Fn.Body)
	case g.Paren != nil:
		if len(g.Paren.Elems) == 1 && !g.Paren.Comma {
			return c.expr(g.Paren.Elems[0])
		}
		return &TupleLit{Start: p, Elems: c.exprs(g.Paren.Elems)}
	case g.List != nil:
		return &ListLit{Start: p, Elems: c.exprs(g.List.Elems)}
	}
	d := &DictLit{Start: p}
	for _, e := range g.Dict.Entries {
		d.Entries = append(d.Entries, DictEntry{Key: c.expr(e.Key), Value: c.expr(e.Value)})
	}
	return d
}

func (c *converter) exprs(gs []*gExpr) []Expr {
	out := make([]Expr, 0, len(gs))
	for _, g := range gs {
		out = append(out, c.expr(g))
	}
	return out
}
