package lang

import (
	"io"

	"github.com/alecthomas/participle/v2/lexer"
)

// This file defines the expression grammar, one struct per precedence level
// from the lowest (or) to the highest (postfix call, index and attribute),
// and the participle lexer definition over the scanner.

// Or = And { "or" And } .
type gOr struct {
	X    *gAnd    `parser:"@@"`
	Rest []*gOrOp `parser:"@@*"`
}

type gOrOp struct {
	Pos lexer.Position
	Op  string `parser:"@'or'"`
	Y   *gAnd  `parser:"@@"`
}

// And = Not { "and" Not } .
type gAnd struct {
	X    *gNot     `parser:"@@"`
	Rest []*gAndOp `parser:"@@*"`
}

type gAndOp struct {
	Pos lexer.Position
	Op  string `parser:"@'and'"`
	Y   *gNot  `parser:"@@"`
}

// Not = "not" Not | Cmp .
type gNot struct {
	Pos lexer.Position
	Not *gNot `parser:"  'not' @@"`
	Cmp *gCmp `parser:"| @@"`
}

// Cmp = Add { ( "==" | "!=" | "<" | "<=" | ">" | ">=" ) Add } .
// A chain such as a < b < c is rejected when converting.
type gCmp struct {
	X    *gAdd     `parser:"@@"`
	Rest []*gCmpOp `parser:"@@*"`
}

type gCmpOp struct {
	Pos lexer.Position
	Op  string `parser:"@( '==' | '!=' | '<=' | '>=' | '<' | '>' )"`
	Y   *gAdd  `parser:"@@"`
}

// Add = Mul { ( "+" | "-" ) Mul } .
type gAdd struct {
	X    *gMul     `parser:"@@"`
	Rest []*gAddOp `parser:"@@*"`
}

type gAddOp struct {
	Pos lexer.Position
	Op  string `parser:"@( '+' | '-' )"`
	Y   *gMul  `parser:"@@"`
}

// Mul = Unary { ( "*" | "/" | "//" | "%" | "@" ) Unary } .
type gMul struct {
	X    *gUnary   `parser:"@@"`
	Rest []*gMulOp `parser:"@@*"`
}

type gMulOp struct {
	Pos lexer.Position
	Op  string  `parser:"@( '*' | '/' | '//' | '%' | '@' )"`
	Y   *gUnary `parser:"@@"`
}

// Unary = ( "-" | "+" ) Unary | Power .
type gUnary struct {
	Pos   lexer.Position
	Op    string  `parser:"( @( '-' | '+' )"`
	X     *gUnary `parser:"  @@ )"`
	Power *gPower `parser:"| @@"`
}

// Power = Postfix [ "**" Unary ] .
// The exponent is a Unary, so ** is right associative, 2 ** -1 parses, and
// -2 ** 2 is -(2 ** 2) as in Python.
type gPower struct {
	X   *gPostfix `parser:"@@"`
	Exp *gPowOp   `parser:"@@?"`
}

type gPowOp struct {
	Pos lexer.Position
	Op  string  `parser:"@'**'"`
	Y   *gUnary `parser:"@@"`
}

// Postfix = Primary { Call | Index | "." Ident } .
type gPostfix struct {
	Pos      lexer.Position
	X        *gPrimary  `parser:"@@"`
	Suffixes []*gSuffix `parser:"@@*"`
}

type gSuffix struct {
	Pos   lexer.Position
	Call  *gCall  `parser:"  @@"`
	Index *gIndex `parser:"| @@"`
	Attr  *gName  `parser:"| '.' @@"`
}

// Call = "(" [ Arg { "," Arg } [ "," ] ] ")" .
// Arg = Expr [ "=" Expr ] .
// In k=v the converter checks that k is a name.
type gCall struct {
	Open string  `parser:"@'('"`
	Args []*gArg `parser:"( @@ ( ',':Punct @@ )* Trail? )? ')'"`
}

type gArg struct {
	Pos   lexer.Position
	X     *gExpr `parser:"@@"`
	Value *gExpr `parser:"( '=' @@ )?"`
}

// Index = "[" Sub { "," Sub } [ "," ] "]" .
type gIndex struct {
	Open string  `parser:"@'['"`
	Subs []*gSub `parser:"@@ ( ',':Punct @@ )* Trail? ']'"`
}

// Sub = "..." | ":" SliceRest | Expr [ SliceRest ] .
type gSub struct {
	Pos      lexer.Position
	Ellipsis bool        `parser:"  @'...'"`
	Lo       *gExpr      `parser:"| ( @@"`
	LoRest   *gSliceRest `parser:"    @@? )"`
	Rest     *gSliceRest `parser:"| @@"`
}

// SliceRest = ":" [ Expr ] [ ":" [ Expr ] ] .
type gSliceRest struct {
	Colon bool   `parser:"@':'"`
	Hi    *gExpr `parser:"@@?"`
	Step  *gExpr `parser:"( ':' @@? )?"`
}

// Primary = Int | Float | String | "true" | "false" | "none" | Ident
//
//	| FnLit | Paren | List | Dict .
type gPrimary struct {
	Pos     lexer.Position
	Ident   string  `parser:"  @Ident"`
	Int     string  `parser:"| @Int"`
	Float   string  `parser:"| @Float"`
	Str     string  `parser:"| @String"`
	Keyword string  `parser:"| @( 'true' | 'false' | 'none' )"`
	Paren   *gParen `parser:"| @@"`
	List    *gList  `parser:"| @@"`
	Fn      *gFnLit `parser:"| @@"`
	Dict    *gDict  `parser:"| @@"`
}

// FnLit = "fn" "(" Params ")" Block .
type gFnLit struct {
	Fn     string    `parser:"@'fn'"`
	Params []*gParam `parser:"'(' ( @@ ( ',':Punct @@ )* Trail? )? ')'"`
	Body   *gBlock   `parser:"@@"`
}

// Paren = "(" [ Expr { "," Expr } [ "," ] ] ")" .
// One expression without a comma is a parenthesized expression; anything
// else is a tuple.
type gParen struct {
	Open  string   `parser:"@'('"`
	Elems []*gExpr `parser:"( @@ ( ',':Punct @@ )*"`
	Comma bool     `parser:"  @Trail? )? ')'"`
}

// List = "[" [ Expr { "," Expr } [ "," ] ] "]" .
type gList struct {
	Open  string   `parser:"@'['"`
	Elems []*gExpr `parser:"( @@ ( ',':Punct @@ )* Trail? )? ']'"`
}

// Dict = "{" [ Entry { "," Entry } [ "," ] ] "}" .
// Entry = Expr ":" Expr .
type gDict struct {
	Open    string    `parser:"@'{'"`
	Entries []*gEntry `parser:"( @@ ( ',':Punct @@ )* Trail? )? '}'"`
}

type gEntry struct {
	Key   *gExpr `parser:"@@"`
	Value *gExpr `parser:"':' @@"`
}

// definition is the participle lexer definition: it runs the scanner.
type definition struct{}

func (definition) Symbols() map[string]lexer.TokenType { return symbols }

func (definition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	s := newScanner(filename, string(src))
	return &tokenLexer{toks: s.scan()}, nil
}

// tokenLexer hands out an already scanned token list.
type tokenLexer struct {
	toks []lexer.Token
}

func (l *tokenLexer) Next() (lexer.Token, error) {
	t := l.toks[0]
	if len(l.toks) > 1 {
		l.toks = l.toks[1:]
	}
	return t, nil
}
