package lang

import (
	"fmt"
	"testing"
)

// TestPositions checks the positions each node records, as line:col.
func TestPositions(t *testing.T) {
	src := "c = a + b.sum(axis=0)\n" + // 1
		"fn f(x, y=2) {\n" + // 2
		"  return x[1:2, none]\n" + // 3
		"}\n" + // 4
		"é, d = -x ** 2, {\"k\": 'v'}\n" + // 5
		"import \"m.tiny\" as m\n" + // 6
		"for i, v in xs { q += 1 }\n" // 7
	f, err := Parse("p.tiny", src)
	if err != nil {
		t.Fatal(err)
	}
	at := func(p Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }
	as := f.Stmts[0].(*AssignStmt)
	bin := as.Value.(*Binary)
	call := bin.Y.(*Call)
	attr := call.Fn.(*Attr)
	fn := f.Stmts[1].(*FnDecl).Fn
	ret := fn.Body.Stmts[0].(*ReturnStmt)
	ix := ret.Value.(*Index)
	tup := f.Stmts[2].(*AssignStmt)
	neg := tup.Value.(*TupleLit).Elems[0].(*Unary)
	imp := f.Stmts[3].(*ImportStmt)
	loop := f.Stmts[4].(*ForStmt)
	aug := loop.Body.Stmts[0].(*AugAssign)
	for _, tc := range []struct {
		name string
		got  Pos
		want string
	}{
		{"assign", as.Pos(), "1:1"},
		{"assign =", as.EqPos, "1:3"},
		{"binary start", bin.Pos(), "1:5"},
		{"binary op", bin.OpPos, "1:7"},
		{"call", call.Pos(), "1:9"},
		{"call (", call.Lparen, "1:14"},
		{"attr", attr.Pos(), "1:9"},
		{"attr name", attr.NamePos, "1:11"},
		{"kwarg", call.Kwargs[0].NamePos, "1:15"},
		{"kwarg value", call.Kwargs[0].Value.Pos(), "1:20"},
		{"fn", fn.Pos(), "2:1"},
		{"fn name", fn.NamePos, "2:4"},
		{"param", fn.Params[1].Start, "2:9"},
		{"default", fn.Params[1].Default.Pos(), "2:11"},
		{"block {", fn.Body.Start, "2:14"},
		{"block }", fn.Body.End, "4:1"},
		{"return", ret.Pos(), "3:3"},
		{"index", ix.Pos(), "3:10"},
		{"index [", ix.Lbrack, "3:11"},
		{"slice", ix.Indices[0].Pos(), "3:12"},
		{"none", ix.Indices[1].Pos(), "3:17"},
		{"tuple target", tup.Target.Pos(), "5:1"},
		{"rune column", tup.Target.(*TupleLit).Elems[1].Pos(), "5:4"},
		{"unary", neg.Pos(), "5:8"},
		{"power op", neg.X.(*Binary).OpPos, "5:11"},
		{"dict", tup.Value.(*TupleLit).Elems[1].Pos(), "5:17"},
		{"import", imp.Pos(), "6:1"},
		{"import path", imp.PathPos, "6:8"},
		{"import name", imp.NamePos, "6:20"},
		{"for var", loop.Vars[1].Pos(), "7:8"},
		{"aug", aug.Pos(), "7:18"},
		{"aug op", aug.OpPos, "7:20"},
	} {
		if at(tc.got) != tc.want || tc.got.File != "p.tiny" {
			t.Errorf("%s: got %s:%s, want p.tiny:%s", tc.name, tc.got.File, at(tc.got), tc.want)
		}
	}
}
