package symbolic

import (
	"fmt"
	"strconv"
	"strings"
)

// infix holds the operator each binary op prints with, as tinygrad prints it.
// NOTE: "//" means C's truncating division here, not Python's floor division.
var infix = map[Op]string{OpAdd: "+", OpMul: "*", OpDiv: "//", OpMod: "%", OpLt: "<", OpAnd: "&", OpNe: "!="}

// Render returns n in tinygrad's notation: every binary node is parenthesized,
// ((ridx0*2)+ridx1), constants print as numbers (negative ones as -4, so a sum
// reads (x+-4)) or True/False, and variables by name.
func (n *Node) Render() string {
	var b strings.Builder
	n.render(&b)
	return b.String()
}

// String returns Render().
func (n *Node) String() string { return n.Render() }

func (n *Node) render(b *strings.Builder) {
	switch n.Op {
	case OpConst:
		if n.IsBool {
			b.WriteString(map[bool]string{true: "True", false: "False"}[n.Val != 0])
			return
		}
		b.WriteString(strconv.FormatInt(n.Val, 10))
	case OpVar:
		b.WriteString(n.Name)
	default:
		op, ok := infix[n.Op]
		if !ok || len(n.Src) != 2 {
			panic(fmt.Sprintf("internal error: symbolic: cannot render %v", n.Op))
		}
		b.WriteByte('(')
		n.Src[0].render(b)
		b.WriteString(op)
		n.Src[1].render(b)
		b.WriteByte(')')
	}
}
