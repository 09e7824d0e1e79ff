package lang

import "github.com/alecthomas/participle/v2/lexer"

// This file defines how the scanner tracks brackets: which braces open a
// block and which a dict, which closers match, and how deeply the parser
// will recurse.

// maxDepth bounds the nesting of brackets and prefix, "**" and "else"
// chains, so that the recursive parser cannot exhaust the stack.
const maxDepth = 400

// bracket is an open bracket: '(', '[', 'd' (a dict's brace) or 'b' (a
// block's brace), with the nesting operators seen inside it.
type bracket struct {
	kind byte
	pos  lexer.Position
	ops  int
}

func (s *scanner) top() byte {
	if len(s.open) == 0 {
		return 0
	}
	return s.open[len(s.open)-1].kind
}

// nest tracks brackets and the depth estimate for a punctuation or keyword
// token.
func (s *scanner) nest(val string, prev *lexer.Token, p lexer.Position) {
	switch val {
	case "(", "[", "{":
		kind := val[0]
		if val == "{" {
			kind = 'd'
			if endsOperand(prev) {
				kind = 'b'
			}
		}
		s.open = append(s.open, bracket{kind: kind, pos: p})
		s.depth++
	case ")", "]", "}":
		// A mismatched closer is left for the parser to report.
		if n := len(s.open); n > 0 && matches(s.open[n-1].kind, val) {
			s.depth -= 1 + s.open[n-1].ops
			s.open = s.open[:n-1]
		} else {
			s.mismatch = true
		}
	case "-", "+", "not", "**", "else":
		if val != "**" && val != "else" && endsOperand(prev) {
			return // a binary operator
		}
		s.depth++
		if n := len(s.open); n > 0 {
			s.open[n-1].ops++
		} else {
			s.topOps++
		}
	default:
		return
	}
	if s.depth > maxDepth {
		s.fail(p, false, "program too deeply nested")
	}
}

// separate forgets the nesting operators of the statement just ended.
func (s *scanner) separate() {
	if n := len(s.open); n > 0 {
		s.depth -= s.open[n-1].ops
		s.open[n-1].ops = 0
	} else {
		s.depth -= s.topOps
		s.topOps = 0
	}
}

// endsOperand reports whether t can end an operand or an if/for/while
// header, so that a "{" after it opens a block rather than a dict.
func endsOperand(t *lexer.Token) bool {
	if t == nil {
		return false
	}
	switch t.Type {
	case tIdent, tInt, tFloat, tString:
		return true
	case tKeyword:
		return t.Value == "else" || t.Value == "true" || t.Value == "false" || t.Value == "none"
	case tPunct:
		return t.Value == ")" || t.Value == "]" || t.Value == "}"
	}
	return false
}

func matches(open byte, close string) bool {
	switch close {
	case ")":
		return open == '('
	case "]":
		return open == '['
	}
	return open == 'd' || open == 'b'
}
