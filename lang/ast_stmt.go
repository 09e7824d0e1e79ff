package lang

// This file defines the statement nodes of the syntax tree.

// Block is a braced list of statements: the body of a fn, if, while or for,
// or the else branch of an if.
type Block struct {
	Start Pos // the "{"
	End   Pos // the "}"
	Stmts []Stmt
}

// ExprStmt is an expression evaluated for its effect (a call) or, in the
// REPL, for its value.
type ExprStmt struct {
	X Expr
}

// AssignStmt is Target = Value. Target is an *Ident, an *Index, an *Attr,
// or a *TupleLit of targets (x, y = e unpacks e). A bare "a, b" on either
// side is a *TupleLit.
type AssignStmt struct {
	Start  Pos // where Target begins
	EqPos  Pos
	Target Expr
	Value  Expr
}

// AugAssign is Target op= Value, for example x += 1 (Op is "+"). Op is one of
// "+", "-", "*", "/", "//", "%", "@" and "**". Target is an *Ident, *Index or
// *Attr.
type AugAssign struct {
	Start  Pos
	OpPos  Pos
	Op     string
	Target Expr
	Value  Expr
}

// IfStmt is if Cond Then else Else. Else is nil, an *IfStmt (else if) or a
// *Block.
type IfStmt struct {
	Start Pos // the "if"
	Cond  Expr
	Then  *Block
	Else  Stmt
}

// WhileStmt is while Cond Body.
type WhileStmt struct {
	Start Pos
	Cond  Expr
	Body  *Block
}

// ForStmt is for Vars in Iter Body. With one variable each element is bound
// to it; with several ("for i, x in pairs") each element is unpacked into
// them as in a tuple assignment.
type ForStmt struct {
	Start Pos
	Vars  []*Ident
	Iter  Expr
	Body  *Block
}

// ReturnStmt is return, with Value nil when no value is given. "return a, b"
// returns a *TupleLit.
type ReturnStmt struct {
	Start Pos
	Value Expr
}

// BreakStmt is break.
type BreakStmt struct {
	Start Pos
}

// ContinueStmt is continue.
type ContinueStmt struct {
	Start Pos
}

// FnDecl is fn name(params) { body }: it binds Fn.Name to the function.
type FnDecl struct {
	Fn *FnLit
}

// ImportStmt is import "path" as Name.
type ImportStmt struct {
	Start   Pos
	Path    string
	PathPos Pos
	Name    string
	NamePos Pos
}

func (*Block) stmtNode()        {}
func (*ExprStmt) stmtNode()     {}
func (*AssignStmt) stmtNode()   {}
func (*AugAssign) stmtNode()    {}
func (*IfStmt) stmtNode()       {}
func (*WhileStmt) stmtNode()    {}
func (*ForStmt) stmtNode()      {}
func (*ReturnStmt) stmtNode()   {}
func (*BreakStmt) stmtNode()    {}
func (*ContinueStmt) stmtNode() {}
func (*FnDecl) stmtNode()       {}
func (*ImportStmt) stmtNode()   {}

// Pos returns the statement's start.
func (s *Block) Pos() Pos        { return s.Start }
func (s *ExprStmt) Pos() Pos     { return s.X.Pos() }
func (s *AssignStmt) Pos() Pos   { return s.Start }
func (s *AugAssign) Pos() Pos    { return s.Start }
func (s *IfStmt) Pos() Pos       { return s.Start }
func (s *WhileStmt) Pos() Pos    { return s.Start }
func (s *ForStmt) Pos() Pos      { return s.Start }
func (s *ReturnStmt) Pos() Pos   { return s.Start }
func (s *BreakStmt) Pos() Pos    { return s.Start }
func (s *ContinueStmt) Pos() Pos { return s.Start }
func (s *FnDecl) Pos() Pos       { return s.Fn.Start }
func (s *ImportStmt) Pos() Pos   { return s.Start }
