package lang

// This file defines how the scanner tracks brackets: which braces open a
// block and which a dict, and which closers match.

// maxDepth bounds the nesting of brackets, blocks, prefix operators, "**"
// exponents, conditional expressions and else-if chains, so that the
// recursive parser (and the evaluator after it) cannot exhaust the stack.
// A sequence (a long list, a chain of a + b + c) is not nesting.
const maxDepth = 400

// bracket is an open bracket: '(', '[', 'd' (a dict's brace) or 'b' (a
// block's brace).
type bracket struct {
	kind    byte
	pos     position
	ternary int // "if"s of conditional expressions still waiting for their else
}

func (s *scanner) top() byte {
	if len(s.open) == 0 {
		return 0
	}
	return s.open[len(s.open)-1].kind
}

// nest tracks the open brackets for a punctuation or keyword token.
func (s *scanner) nest(val string, prev *token, p position) {
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
	case "if":
		// After an operand, "if" is a conditional expression's; its "else"
		// is then not a statement's, and a "{" after it opens a dict.
		if endsOperand(prev) && prev.Value != "else" {
			*s.ternaries()++
		}
	case "else":
		if n := s.ternaries(); *n > 0 {
			*n--
			s.last().Aux = ternaryElse
		}
	case ")", "]", "}":
		// A mismatched closer is left for the parser to report.
		if n := len(s.open); n > 0 && matches(s.open[n-1].kind, val) {
			s.open = s.open[:n-1]
		} else {
			s.mismatch = true
		}
	}
}

// ternaryElse marks (in Aux) the else of a conditional expression.
const ternaryElse = 1

// ternaries returns the count of open conditional expressions at the
// current bracket level.
func (s *scanner) ternaries() *int {
	if n := len(s.open); n > 0 {
		return &s.open[n-1].ternary
	}
	return &s.topTernary
}

// endsOperand reports whether t can end an operand or an if/for/while
// header, so that a "{" after it opens a block rather than a dict.
func endsOperand(t *token) bool {
	if t == nil {
		return false
	}
	switch t.Type {
	case tIdent, tInt, tFloat, tString:
		return true
	case tKeyword:
		return t.Value == "else" && t.Aux != ternaryElse || t.Value == "true" || t.Value == "false" || t.Value == "none"
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
