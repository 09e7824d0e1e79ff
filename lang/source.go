package lang

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file defines Source, which prints a tree back as tiny source text
// with the fewest parentheses that keep its meaning.

// Source returns tiny source text for n (a *File, statement or expression)
// that parses back to the same tree. Blocks are written on one line, with
// statements separated by "; ".
func Source(n Node) string {
	var b strings.Builder
	if f, ok := n.(*File); ok {
		for i, s := range f.Stmts {
			if i > 0 {
				b.WriteString("\n")
			}
			writeNode(&b, s)
		}
		return b.String()
	}
	writeNode(&b, n)
	return b.String()
}

// Precedence levels, from the loosest binding to the tightest.
const (
	precCond = iota + 1
	precOr
	precAnd
	precNot
	precCmp
	precBitOr
	precBitXor
	precBitAnd
	precShift
	precAdd
	precMul
	precUnary
	precPower
	precPostfix
)

var binaryPrec = map[string]int{
	"or": precOr, "and": precAnd,
	"==": precCmp, "!=": precCmp, "<": precCmp, "<=": precCmp, ">": precCmp, ">=": precCmp,
	"in": precCmp, "not in": precCmp, "|": precBitOr, "^": precBitXor, "&": precBitAnd,
	"<<": precShift, ">>": precShift,
	"+": precAdd, "-": precAdd, "*": precMul, "/": precMul, "//": precMul, "%": precMul, "@": precMul,
	"**": precPower,
}

// prec returns how tightly e binds.
func prec(e Expr) int {
	switch e := e.(type) {
	case *Binary:
		return binaryPrec[e.Op]
	case *Unary:
		if e.Op == "not" {
			return precNot
		}
		return precUnary
	case *CondExpr:
		return precCond
	case *Number, *FnLit:
		return precPostfix // they need parentheses before "." or "("
	}
	return precPostfix + 1
}

// writeExpr writes e, in parentheses unless it binds at least as tightly
// as min.
func writeExpr(b *strings.Builder, e Expr, min int) {
	if prec(e) < min {
		b.WriteString("(")
		writeNode(b, e)
		b.WriteString(")")
		return
	}
	writeNode(b, e)
}

func writeList[E Expr](b *strings.Builder, open, close string, xs []E) {
	b.WriteString(open)
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		writeNode(b, x)
	}
	b.WriteString(close)
}

func writeNode(b *strings.Builder, n Node) {
	switch n := n.(type) {
	case *Ident:
		b.WriteString(n.Name)
	case *Number:
		b.WriteString(n.Lit)
	case *String:
		b.WriteString(quote(n.Value))
	case *Bool, *None, *Ellipsis:
		b.WriteString(n.String())
	case *ListLit:
		writeList(b, "[", "]", n.Elems)
	case *TupleLit:
		if len(n.Elems) == 1 {
			writeList(b, "(", ",)", n.Elems)
		} else {
			writeList(b, "(", ")", n.Elems)
		}
	case *DictLit:
		b.WriteString("{")
		for i, e := range n.Entries {
			if i > 0 {
				b.WriteString(", ")
			}
			writeNode(b, e.Key)
			b.WriteString(": ")
			writeNode(b, e.Value)
		}
		b.WriteString("}")
	case *Unary:
		b.WriteString(n.Op)
		if n.Op == "not" {
			b.WriteString(" ")
		}
		writeExpr(b, n.X, prec(n))
	case *Binary:
		writeBinary(b, n)
	case *Call:
		writeExpr(b, n.Fn, precPostfix+1)
		b.WriteString("(")
		writeList(b, "", "", n.Args)
		for i, kw := range n.Kwargs {
			if i > 0 || len(n.Args) > 0 {
				b.WriteString(", ")
			}
			b.WriteString(kw.Name + "=")
			writeNode(b, kw.Value)
		}
		b.WriteString(")")
	case *Index:
		writeExpr(b, n.X, precPostfix+1)
		writeList(b, "[", "]", n.Indices)
	case *Slice:
		writeOpt(b, n.Lo, "")
		writeOpt(b, n.Hi, ":")
		writeOpt(b, n.Step, ":")
	case *Attr:
		writeExpr(b, n.X, precPostfix+1)
		b.WriteString("." + n.Name)
	case *CondExpr:
		writeExpr(b, n.Then, precOr)
		b.WriteString(" if ")
		writeExpr(b, n.Cond, precOr)
		b.WriteString(" else ")
		writeExpr(b, n.Else, precCond)
	case *Comprehension:
		writeComp(b, n)
	case *FnLit:
		writeFn(b, n)
	default:
		writeStmt(b, n)
	}
}

// writeOpt writes prefix and e, or only prefix when e is nil (and prefix
// is not the slice's last colon).
func writeOpt(b *strings.Builder, e Expr, prefix string) {
	b.WriteString(prefix)
	if e != nil {
		writeNode(b, e)
	}
}

func writeBinary(b *strings.Builder, n *Binary) {
	p := binaryPrec[n.Op]
	left, right := p, p+1 // left associative
	switch {
	case p == precCmp:
		left = p + 1 // comparisons do not chain
	case n.Op == "**":
		left, right = precPostfix, precUnary
	}
	writeExpr(b, n.X, left)
	b.WriteString(" " + n.Op + " ")
	writeExpr(b, n.Y, right)
}

func writeComp(b *strings.Builder, n *Comprehension) {
	if n.Key != nil {
		b.WriteString("{")
		writeNode(b, n.Key)
		b.WriteString(": ")
	} else {
		b.WriteString("[")
	}
	writeNode(b, n.Elem)
	for _, c := range n.Clauses {
		if c.Vars != nil {
			writeList(b, " for ", " in ", c.Vars)
			writeExpr(b, c.Iter, precOr)
		} else {
			b.WriteString(" if ")
			writeExpr(b, c.Cond, precOr)
		}
	}
	if n.Key != nil {
		b.WriteString("}")
	} else {
		b.WriteString("]")
	}
}

func writeFn(b *strings.Builder, n *FnLit) {
	b.WriteString("fn ")
	b.WriteString(n.Name)
	b.WriteString("(")
	for i, p := range n.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Name)
		if p.Default != nil {
			b.WriteString("=")
			writeNode(b, p.Default)
		}
	}
	b.WriteString(") ")
	writeNode(b, n.Body)
}

// quote writes s as a string literal using only tiny's escapes.
func quote(s string) string {
	var b strings.Builder
	b.WriteString(`"`)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case 0x80 <= r && r < 0xa0:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size]) // printable, or a raw invalid byte
		}
		i += size
	}
	b.WriteString(`"`)
	return b.String()
}

func writeStmt(b *strings.Builder, n Node) {
	switch n := n.(type) {
	case *Block:
		if len(n.Stmts) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{ ")
		for i, s := range n.Stmts {
			if i > 0 {
				b.WriteString("; ")
			}
			writeNode(b, s)
		}
		b.WriteString(" }")
	case *ExprStmt:
		writeNode(b, n.X)
	case *AssignStmt:
		writeNode(b, n.Target)
		b.WriteString(" = ")
		writeNode(b, n.Value)
	case *AugAssign:
		writeNode(b, n.Target)
		b.WriteString(" " + n.Op + "= ")
		writeNode(b, n.Value)
	case *IfStmt:
		b.WriteString("if ")
		writeNode(b, n.Cond)
		b.WriteString(" ")
		writeNode(b, n.Then)
		if n.Else != nil {
			b.WriteString(" else ")
			writeNode(b, n.Else)
		}
	case *WhileStmt:
		b.WriteString("while ")
		writeNode(b, n.Cond)
		b.WriteString(" ")
		writeNode(b, n.Body)
	case *ForStmt:
		writeList(b, "for ", " in ", n.Vars)
		writeNode(b, n.Iter)
		b.WriteString(" ")
		writeNode(b, n.Body)
	case *ReturnStmt:
		b.WriteString("return")
		if n.Value != nil {
			b.WriteString(" ")
			writeNode(b, n.Value)
		}
	case *BreakStmt:
		b.WriteString("break")
	case *ContinueStmt:
		b.WriteString("continue")
	case *FnDecl:
		writeFn(b, n.Fn)
	case *ImportStmt:
		b.WriteString("import " + quote(n.Path) + " as " + n.Name)
	}
}
