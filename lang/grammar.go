package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// This file defines the participle grammar: the parse tree that convert.go
// turns into the syntax tree. The EBNF above each struct is the rule it
// parses. Sep is a statement separator (newline or ";"); the scanner has
// already dropped the ones that carry no meaning.

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

// FnDecl = "fn" Ident "(" Params ")" Block .
type gFnDecl struct {
	Pos    lexer.Position
	Name   *gName    `parser:"'fn' @@"`
	Params []*gParam `parser:"'(' ( @@ ( ',' @@ )* ','? )? ')'"`
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
	Vars []*gName `parser:"'for' @@ ( ',' @@ )*"`
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
	Exprs    []*gExpr `parser:"@@ ( ',' @@ )*"`
	Trailing bool     `parser:"@','?"`
}

// gExpr is the root of an expression: Expr = Or .
type gExpr struct {
	Or *gOr `parser:"@@"`
}

// newParser builds the participle parser. Two tokens of lookahead tell a
// keyword argument (k=v) from an expression and a FnDecl from an anonymous
// fn at the start of a statement.
func newParser() *participle.Parser[gFile] {
	return participle.MustBuild[gFile](
		participle.Lexer(definition{}),
		participle.UseLookahead(2),
	)
}
