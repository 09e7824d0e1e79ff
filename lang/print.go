package lang

import (
	"strconv"
	"strings"
)

// This file defines the S-expression form of the nodes, used by tests and
// debugging: (+ a (* b c)), (call f x (kw axis 0)), (index a (slice 1 _ _)).

// sexp writes "(head parts...)", printing nil nodes as "_".
func sexp(head string, parts ...any) string {
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(head)
	for _, p := range parts {
		b.WriteString(" ")
		switch p := p.(type) {
		case nil:
			b.WriteString("_")
		case string:
			b.WriteString(p)
		case Node:
			if isNil(p) {
				b.WriteString("_")
			} else {
				b.WriteString(p.String())
			}
		}
	}
	b.WriteString(")")
	return b.String()
}

// isNil reports whether n is nil or a typed nil pointer.
func isNil(n Node) bool {
	switch n := n.(type) {
	case nil:
		return true
	case *Block:
		return n == nil
	case *File:
		return n == nil
	}
	return false
}

func exprs[E Node](xs []E) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func (n *Ident) String() string    { return n.Name }
func (n *Number) String() string   { return n.Lit }
func (n *String) String() string   { return strconv.Quote(n.Value) }
func (n *Bool) String() string     { return strconv.FormatBool(n.Value) }
func (n *None) String() string     { return "none" }
func (n *Ellipsis) String() string { return "..." }
func (n *ListLit) String() string  { return sexp("list", exprs(n.Elems)...) }
func (n *TupleLit) String() string { return sexp("tuple", exprs(n.Elems)...) }
func (n *Unary) String() string    { return sexp(n.Op, n.X) }
func (n *Binary) String() string   { return sexp(n.Op, n.X, n.Y) }
func (n *Slice) String() string    { return sexp("slice", n.Lo, n.Hi, n.Step) }
func (n *Attr) String() string     { return sexp(".", n.X, n.Name) }

func (n *DictLit) String() string {
	parts := make([]any, len(n.Entries))
	for i, e := range n.Entries {
		parts[i] = sexp(":", e.Key, e.Value)
	}
	return sexp("dict", parts...)
}

func (n *Call) String() string {
	parts := append([]any{n.Fn}, exprs(n.Args)...)
	for _, kw := range n.Kwargs {
		parts = append(parts, sexp("kw", kw.Name, kw.Value))
	}
	return sexp("call", parts...)
}

func (n *CondExpr) String() string { return sexp("if", n.Cond, n.Then, n.Else) }

func (n *Comprehension) String() string {
	parts := []any{n.Elem}
	head := "listcomp"
	if n.Key != nil {
		head, parts = "dictcomp", []any{sexp(":", n.Key, n.Elem)}
	}
	for _, c := range n.Clauses {
		if c.Vars != nil {
			parts = append(parts, sexp("for", sexp("vars", exprs(c.Vars)...), c.Iter))
		} else {
			parts = append(parts, sexp("if", c.Cond))
		}
	}
	return sexp(head, parts...)
}

func (n *Index) String() string {
	return sexp("index", append([]any{n.X}, exprs(n.Indices)...)...)
}

func (n *FnLit) String() string {
	params := make([]any, len(n.Params))
	for i, p := range n.Params {
		if p.Default == nil {
			params[i] = p.Name
		} else {
			params[i] = sexp(p.Name, p.Default)
		}
	}
	head := "fn"
	if n.Name != "" {
		head = "fn " + n.Name
	}
	return sexp(head, sexp("params", params...), n.Body)
}

func (s *Block) String() string      { return sexp("block", exprs(s.Stmts)...) }
func (s *ExprStmt) String() string   { return s.X.String() }
func (s *AssignStmt) String() string { return sexp("=", s.Target, s.Value) }
func (s *AugAssign) String() string  { return sexp(s.Op+"=", s.Target, s.Value) }
func (s *WhileStmt) String() string  { return sexp("while", s.Cond, s.Body) }
func (s *ReturnStmt) String() string {
	if s.Value == nil {
		return "(return)"
	}
	return sexp("return", s.Value)
}
func (s *BreakStmt) String() string    { return "(break)" }
func (s *ContinueStmt) String() string { return "(continue)" }
func (s *FnDecl) String() string       { return s.Fn.String() }

func (s *IfStmt) String() string {
	if s.Else == nil {
		return sexp("if", s.Cond, s.Then)
	}
	return sexp("if", s.Cond, s.Then, s.Else)
}

func (s *ForStmt) String() string {
	return sexp("for", sexp("vars", exprs(s.Vars)...), s.Iter, s.Body)
}

func (s *ImportStmt) String() string {
	return sexp("import", strconv.Quote(s.Path), s.Name)
}

// String returns the file's statements, one S-expression per line.
func (f *File) String() string {
	lines := make([]string, len(f.Stmts))
	for i, s := range f.Stmts {
		lines[i] = s.String()
	}
	return strings.Join(lines, "\n")
}
