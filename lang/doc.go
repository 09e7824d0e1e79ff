// Package lang is the front end of the tiny language: the scanner, the
// grammar, the syntax tree with positions, and the error format.
//
// Parse turns source text into a *File of statements; every node records
// where it begins (Pos: file, line, and column counting runes, all
// 1-based). The evaluator in package interp walks that tree. The parser is
// hand-written recursive descent over the scanner's tokens: it takes time
// and memory linear in the input, and recurses only for nesting.
//
// # Lexical structure
//
// Comments run from # to the end of the line. Newlines and ";" end
// statements, except inside (), [] and dict braces, where a newline is white
// space; the braces of a fn, if, else, while or for body hold statements. A
// "{" opens a body when it follows an operand or ")" / "]" / "}" / else, and
// a dict otherwise. A "\" at the end of a line joins it to the next; a
// newline before "else" is ignored, so "}" and "else" may sit on separate
// lines. Numbers are 12, 1_000, 0x1f, 0b101, 0o17, 1.5, .5, 1e-3; strings
// are "..." or '...' with the escapes \n \t \r \0 \\ \" \' \xHH \uHHHH and
// may span lines.
//
// # Grammar
//
// The statements, with Sep a newline or ";":
//
//	File     = [ Stmt { Sep Stmt } ] .
//	Block    = "{" [ Stmt { Sep Stmt } ] "}" .
//	Stmt     = FnDecl | If | While | For | Return | "break" | "continue" | Import | Simple .
//	FnDecl   = "fn" [ Ident ] "(" [ Param { "," Param } [ "," ] ] ")" Block .
//	Param    = Ident [ "=" Expr ] .
//	If       = "if" Expr Block [ "else" ( If | Block ) ] .
//	While    = "while" Expr Block .
//	For      = "for" Ident { "," Ident } "in" Expr Block .
//	Return   = "return" [ ExprList ] .
//	Import   = "import" String "as" Ident .
//	Simple   = ExprList [ AssignOp ExprList ] .
//	AssignOp = "=" | "+=" | "-=" | "*=" | "/=" | "//=" | "%=" | "@=" | "**="
//	         | "&=" | "|=" | "^=" | "<<=" | ">>=" .
//	ExprList = Expr { "," Expr } [ "," ] .
//
// The expressions, from the lowest precedence to the highest:
//
//	Expr     = Or [ "if" Or "else" Expr ] .
//	Or       = And { "or" And } .
//	And      = Not { "and" Not } .
//	Not      = "not" Not | Cmp .
//	Cmp      = BitOr [ ( "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in" ) BitOr ] .
//	BitOr    = BitXor { "|" BitXor } .
//	BitXor   = BitAnd { "^" BitAnd } .
//	BitAnd   = Shift { "&" Shift } .
//	Shift    = Add { ( "<<" | ">>" ) Add } .
//	Add      = Mul { ( "+" | "-" ) Mul } .
//	Mul      = Unary { ( "*" | "/" | "//" | "%" | "@" ) Unary } .
//	Unary    = ( "-" | "+" | "~" ) Unary | Power .
//	Power    = Postfix [ "**" Unary ] .
//	Postfix  = Primary { "(" Args ")" | "[" Sub { "," Sub } [ "," ] "]" | "." Ident } .
//	Args     = [ Arg { "," Arg } [ "," ] ] .
//	Arg      = "*" Expr | [ Ident "=" ] Expr .
//	Sub      = "..." | [ Expr ] ":" [ Expr ] [ ":" [ Expr ] ] | Expr .
//	Primary  = Int | Float | String | "true" | "false" | "none" | Ident
//	         | "fn" "(" Params ")" Block
//	         | "(" [ Expr { "," Expr } [ "," ] ] ")"
//	         | "[" [ Expr ( Comp | { "," Expr } [ "," ] ) ] "]"
//	         | "{" [ Entry ( Comp | { "," Entry } [ "," ] ) ] "}" .
//	Entry    = Expr ":" Expr .
//	Comp     = CompFor { CompFor | "if" Or } .
//	CompFor  = "for" Ident { "," Ident } "in" Or .
//
// The precedence is Python's: "a if c else b" binds loosest, the bitwise
// operators sit between the comparisons and "+", with "|" loosest and the
// shifts tightest, and "x not in s" is not (x in s). A comprehension's
// clauses nest left to right, and its loop variables are its own.
//
// So "-2 ** 2" is -(2 ** 2) and "2 ** 3 ** 2" is 2 ** (3 ** 2), as in
// Python. Binary operators are left associative; comparisons do not chain
// (a < b < c is an error). A parenthesized single expression is that
// expression; "(a,)", "()" and "a, b" are tuples. A statement that starts
// with "fn" is a function declaration, or an anonymous fn standing alone: to
// call an anonymous fn at once, wrap it in parentheses, (fn (x) { ... })(1).
//
// Checks beyond the grammar, done while building the tree: assignment
// targets are names, index or attribute expressions, or tuples of them;
// keyword arguments follow positional ones and are not repeated; parameters
// with defaults come last; break and continue sit in a loop and return in a
// function. So that no input can exhaust the stack, nesting (brackets,
// blocks, prefix operators, "**", conditional expressions and else-if
// chains together) is limited to 400 levels; a sequence (a list of many
// elements, a long chain a + b + c) is not nesting.
//
// # Errors
//
// Every failure is an *Error whose Error method is the one-line header
// "file:line:col: error: msg". Format adds the source line and a caret, and
// for runtime errors that implement Framed the call frames:
//
//	model.tiny:7:7: error: cannot broadcast shapes (2, 3) and (4,)
//	    c = a + b.sum(axis=0)
//	          ^
//	  in fn step (model.tiny:15:3)
//
// Complete tells the REPL whether an input is finished or still has an open
// bracket, brace or string.
//
// # Tools
//
// Inspect walks a tree; Source prints one back as source text that parses
// to the same tree (FuzzParse checks this round trip); each node's String
// method gives a compact S-expression, (+ a (* b c)), for tests.
package lang
