package lang

import "fmt"

// Pos is a position in a source file. Line and Col are 1-based and Col
// counts runes, not bytes. The zero Pos means "no position".
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a real place in a file.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns p as "file:line:col", or "line:col" when File is empty.
func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Node is implemented by every syntax tree node.
type Node interface {
	// Pos returns where the node's first token begins.
	Pos() Pos
	// String returns the node as a compact S-expression, for tests and debugging.
	String() string
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// File is a parsed source file: its statements in order.
type File struct {
	Name  string
	Stmts []Stmt
}

// Pos returns the start of the file.
func (f *File) Pos() Pos { return Pos{File: f.Name, Line: 1, Col: 1} }

// Ident is a name: a variable, function or builtin.
type Ident struct {
	Start Pos
	Name  string
}

// Number is an integer or floating-point literal. IsFloat keeps the
// literal's kind: "2" is an int, "2.0" and "1e3" are floats.
type Number struct {
	Start   Pos
	Lit     string // the literal as written, e.g. "1_000" or "0x1f"
	IsFloat bool
	IsUint  bool    // an int past int64 (up to 2**64-1): Int holds its uint64 bits
	Int     int64   // the value when !IsFloat
	Float   float64 // the value when IsFloat
}

// String is a string literal with its escapes decoded.
type String struct {
	Start Pos
	Value string
}

// Bool is true or false.
type Bool struct {
	Start Pos
	Value bool
}

// None is the none literal. Inside an index it means a new axis.
type None struct {
	Start Pos
}

// Ellipsis is "..." inside an index: all the axes not otherwise named.
type Ellipsis struct {
	Start Pos
}

// ListLit is a bracket literal [a, b, ...]. The evaluator decides whether it
// is a tensor or a list.
type ListLit struct {
	Start Pos // the "["
	Elems []Expr
}

// TupleLit is a tuple: (a, b), (a,), () or a bare a, b where a tuple is allowed.
type TupleLit struct {
	Start Pos
	Elems []Expr
}

// DictEntry is one key: value pair of a DictLit.
type DictEntry struct {
	Key   Expr
	Value Expr
}

// DictLit is a dict literal {"k": v, ...}.
type DictLit struct {
	Start   Pos // the "{"
	Entries []DictEntry
}

// Unary is a prefix operation: Op is "-", "+", "~" or "not", or "*" for an
// argument unpacked into a call's positional arguments (f(*xs)).
type Unary struct {
	Start Pos // the operator
	Op    string
	X     Expr
}

// Binary is an infix operation. Op is one of "or", "and", "==", "!=", "<",
// "<=", ">", ">=", "in", "not in", "|", "^", "&", "<<", ">>", "+", "-", "*",
// "/", "//", "%", "@" and "**".
// Start is where X begins and OpPos is the operator itself; the contract's
// error caret points at OpPos.
type Binary struct {
	Start Pos
	OpPos Pos
	Op    string
	X, Y  Expr
}

// CondExpr is the conditional expression Then if Cond else Else.
type CondExpr struct {
	Start            Pos // where Then begins
	Then, Cond, Else Expr
}

// CompClause is one clause of a comprehension: "for Vars in Iter" when
// Vars is set, "if Cond" otherwise.
type CompClause struct {
	Start Pos // the "for" or "if"
	Vars  []*Ident
	Iter  Expr
	Cond  Expr
}

// Comprehension is [Elem for ... if ...] or, when Key is set, the dict
// comprehension {Key: Elem for ...}. Clauses run left to right, the first
// outermost, as in Python; the loop variables are local to it.
type Comprehension struct {
	Start   Pos // the "[" or "{"
	Key     Expr
	Elem    Expr
	Clauses []CompClause
}

// Kwarg is a keyword argument name=value of a Call.
type Kwarg struct {
	NamePos Pos
	Name    string
	Value   Expr
}

// Call is a call Fn(Args..., Kwargs...). Keyword arguments may only follow
// positional ones.
type Call struct {
	Start  Pos // where Fn begins
	Lparen Pos
	Fn     Expr
	Args   []Expr
	Kwargs []Kwarg
}

// Index is X[Indices...]. Each index is an expression, a *Slice, a *None
// (a new axis) or an *Ellipsis.
type Index struct {
	Start   Pos // where X begins
	Lbrack  Pos
	X       Expr
	Indices []Expr
}

// Slice is lo:hi:step inside an index; each part is nil when omitted.
type Slice struct {
	Start        Pos
	Lo, Hi, Step Expr
}

// Attr is X.Name, an attribute or method.
type Attr struct {
	Start   Pos // where X begins
	NamePos Pos
	X       Expr
	Name    string
}

// Param is a function parameter with an optional default value.
type Param struct {
	Start   Pos
	Name    string
	Default Expr // nil when the parameter is required
}

// FnLit is a function: anonymous "fn (x) { ... }" as an expression, or the
// function of a FnDecl, in which case Name is set.
type FnLit struct {
	Start   Pos // the "fn"
	Name    string
	NamePos Pos
	Params  []Param
	Body    *Block
}

func (*Ident) exprNode()         {}
func (*Number) exprNode()        {}
func (*String) exprNode()        {}
func (*Bool) exprNode()          {}
func (*None) exprNode()          {}
func (*Ellipsis) exprNode()      {}
func (*ListLit) exprNode()       {}
func (*TupleLit) exprNode()      {}
func (*DictLit) exprNode()       {}
func (*Unary) exprNode()         {}
func (*Binary) exprNode()        {}
func (*CondExpr) exprNode()      {}
func (*Comprehension) exprNode() {}
func (*Call) exprNode()          {}
func (*Index) exprNode()         {}
func (*Slice) exprNode()         {}
func (*Attr) exprNode()          {}
func (*FnLit) exprNode()         {}

// Pos returns the node's start.
func (n *Ident) Pos() Pos         { return n.Start }
func (n *Number) Pos() Pos        { return n.Start }
func (n *String) Pos() Pos        { return n.Start }
func (n *Bool) Pos() Pos          { return n.Start }
func (n *None) Pos() Pos          { return n.Start }
func (n *Ellipsis) Pos() Pos      { return n.Start }
func (n *ListLit) Pos() Pos       { return n.Start }
func (n *TupleLit) Pos() Pos      { return n.Start }
func (n *DictLit) Pos() Pos       { return n.Start }
func (n *Unary) Pos() Pos         { return n.Start }
func (n *Binary) Pos() Pos        { return n.Start }
func (n *CondExpr) Pos() Pos      { return n.Start }
func (n *Comprehension) Pos() Pos { return n.Start }
func (n *Call) Pos() Pos          { return n.Start }
func (n *Index) Pos() Pos         { return n.Start }
func (n *Slice) Pos() Pos         { return n.Start }
func (n *Attr) Pos() Pos          { return n.Start }
func (n *FnLit) Pos() Pos         { return n.Start }
