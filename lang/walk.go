package lang

// Inspect walks the tree under n in depth-first order, calling f for each
// node before its children. When f returns false, Inspect skips the node's
// children. Children are visited in source order; absent parts (a slice's
// omitted bounds, an if without else) are skipped.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || isNil(n) || !f(n) {
		return
	}
	for _, c := range children(n) {
		if c != nil && !isNil(c) {
			Inspect(c, f)
		}
	}
}

// children returns the direct children of n, with nil for absent parts
// (a nil Expr or Stmt converts to a nil Node).
func children(n Node) []Node {
	switch n := n.(type) {
	case *File:
		return nodes(n.Stmts)
	case *ListLit:
		return nodes(n.Elems)
	case *TupleLit:
		return nodes(n.Elems)
	case *DictLit:
		var out []Node
		for _, e := range n.Entries {
			out = append(out, e.Key, e.Value)
		}
		return out
	case *Unary:
		return []Node{n.X}
	case *Binary:
		return []Node{n.X, n.Y}
	case *CondExpr:
		return []Node{n.Then, n.Cond, n.Else}
	case *Comprehension:
		out := []Node{n.Key, n.Elem}
		for _, c := range n.Clauses {
			out = append(append(out, nodes(c.Vars)...), c.Iter, c.Cond)
		}
		return out
	case *Call:
		out := append([]Node{n.Fn}, nodes(n.Args)...)
		for _, kw := range n.Kwargs {
			out = append(out, kw.Value)
		}
		return out
	case *Index:
		return append([]Node{n.X}, nodes(n.Indices)...)
	case *Slice:
		return []Node{n.Lo, n.Hi, n.Step}
	case *Attr:
		return []Node{n.X}
	case *FnLit:
		var out []Node
		for _, p := range n.Params {
			out = append(out, p.Default)
		}
		return append(out, n.Body)
	case *Block:
		return nodes(n.Stmts)
	case *ExprStmt:
		return []Node{n.X}
	case *AssignStmt:
		return []Node{n.Target, n.Value}
	case *AugAssign:
		return []Node{n.Target, n.Value}
	case *IfStmt:
		return []Node{n.Cond, n.Then, n.Else}
	case *WhileStmt:
		return []Node{n.Cond, n.Body}
	case *ForStmt:
		return append(nodes(n.Vars), n.Iter, n.Body)
	case *ReturnStmt:
		return []Node{n.Value}
	case *FnDecl:
		return []Node{n.Fn}
	}
	return nil // leaves: Ident, Number, String, Bool, None, Ellipsis, Break, Continue, Import
}

func nodes[N Node](xs []N) []Node {
	out := make([]Node, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
