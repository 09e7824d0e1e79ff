package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// This file defines the participle grammar: the parse tree that convert.go
// turns into the syntax tree. The EBNF above each struct is the rule it
// parses. Sep is a statement separator (newline or ";"); the scanner has
// already dropped the ones that carry no meaning. A "," written in EBNF
// before a closing bracket is a Trail token: the scanner gives a comma that
// type when a closing bracket or a separator follows it, and the other
// commas are matched as ',':Punct.

// File = [ Stmt { Sep Stmt } ] .
type gFile struct {
	Stmts []*gStmt `parser:"( @@ ( Sep @@ )* )?"`
}

// Block = "{" [ Stmt { Sep Stmt } ] "}" .
type gBlock struct {
	Pos   lexer.Position
	Stmts []*gStmt `parser:"'{' ( @@ ( Sep @@ )* )?"`
	Close *gTok    `parser:"@@"`
}

// gTok is a closing brace with its position.
type gTok struct {
	Pos lexer.Position
	Tok string `parser:"@'}'"`
}

// Stmt = FnDecl | If | While | For | Return | "break" | "continue" | Import | Simple .
type gStmt struct {
	Pos      lexer.Position
	FnDecl   *gFnDecl `parser:"  @@"`
	If       *gIf     `parser:"| @@"`
	While    *gWhile  `parser:"| @@"`
	For      *gFor    `parser:"| @@"`
	Return   *gReturn `parser:"| @@"`
	Break    bool     `parser:"| @'break'"`
	Continue bool     `parser:"| @'continue'"`
	Import   *gImport `parser:"| @@"`
	Simple   *gSimple `parser:"| @@"`
}

// FnDecl = "fn" [ Ident ] "(" Params ")" Block .
// Without a name it is an anonymous fn standing alone as a statement: the
// grammar needs one token of lookahead at most, so the "fn" commits.
type gFnDecl struct {
	Pos    lexer.Position
	Name   *gName    `parser:"'fn' @@?"`
	Params []*gParam `parser:"'(' ( @@ ( ',':Punct @@ )* Trail? )? ')'"`
	Body   *gBlock   `parser:"@@"`
}

// Param = Ident [ "=" Expr ] .
type gParam struct {
	Pos     lexer.Position
	Name    string `parser:"@Ident"`
	Default *gExpr `parser:"( '=' @@ )?"`
}

// If = "if" Expr Block [ "else" ( If | Block ) ] .
type gIf struct {
	Pos    lexer.Position
	Cond   *gExpr  `parser:"'if' @@"`
	Then   *gBlock `parser:"@@"`
	ElseIf *gIf    `parser:"( 'else' ( @@"`
	Else   *gBlock `parser:"         | @@ ) )?"`
}

// While = "while" Expr Block .
type gWhile struct {
	Pos  lexer.Position
	Cond *gExpr  `parser:"'while' @@"`
	Body *gBlock `parser:"@@"`
}

// For = "for" Ident { "," Ident } "in" Expr Block .
type gFor struct {
	Pos  lexer.Position
	Vars []*gName `parser:"'for' @@ ( ',':Punct @@ )*"`
	Iter *gExpr   `parser:"'in' @@"`
	Body *gBlock  `parser:"@@"`
}

// gString is a string literal with its position.
type gString struct {
	Pos lexer.Position
	Lit string `parser:"@String"`
}

// gName is an identifier with its position.
type gName struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

// Return = "return" [ ExprList ] .
type gReturn struct {
	Pos   lexer.Position
	Value *gExprList `parser:"'return' @@?"`
}

// Import = "import" String "as" Ident .
type gImport struct {
	Pos  lexer.Position
	Path *gString `parser:"'import' @@"`
	Name *gName   `parser:"'as' @@"`
}

// Simple = ExprList [ AssignOp ExprList ] .
// AssignOp = "=" | "+=" | "-=" | "*=" | "/=" | "//=" | "%=" | "@=" | "**=" .
type gSimple struct {
	Pos   lexer.Position
	Left  *gExprList `parser:"@@"`
	Op    *gAssignOp `parser:"( @@"`
	Right *gExprList `parser:"  @@ )?"`
}

// gAssignOp is an assignment operator with its position.
type gAssignOp struct {
	Pos lexer.Position
	Op  string `parser:"@( '=' | '+=' | '-=' | '*=' | '/=' | '//=' | '%=' | '@=' | '**=' )"`
}

// ExprList = Expr { "," Expr } [ "," ] .
type gExprList struct {
	Pos      lexer.Position
	Exprs    []*gExpr `parser:"@@ ( ',':Punct @@ )*"`
	Trailing bool     `parser:"@Trail?"`
}

// gExpr is the root of an expression: Expr = Or .
type gExpr struct {
	Or *gOr `parser:"@@"`
}

// newParser builds the participle parser. The grammar is LL(1): with no
// extra lookahead a rule that has consumed a token commits to it, so errors
// are reported where they happen rather than where a backtracking parser
// gave up. The scanner marks a comma before a closing bracket (or ending a
// statement) as a Trail token so that list rules need no lookahead either.
func newParser() *participle.Parser[gFile] {
	return participle.MustBuild[gFile](
		participle.Lexer(definition{}),
		participle.UseLookahead(0),
	)
}
