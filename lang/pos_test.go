package lang

import (
	"fmt"
	"strings"
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

// TestLiterals checks the values of number and string literals.
func TestLiterals(t *testing.T) {
	for _, tc := range []struct {
		src     string
		isFloat bool
		i       int64
		f       float64
	}{
		{"12", false, 12, 0},
		{"1_000", false, 1000, 0},
		{"0x1f", false, 31, 0},
		{"0X1F", false, 31, 0},
		{"0b101", false, 5, 0},
		{"0o17", false, 15, 0},
		{"0", false, 0, 0},
		{"00", false, 0, 0},
		{"9223372036854775807", false, 9223372036854775807, 0},
		{"1.5", true, 0, 1.5},
		{".5", true, 0, 0.5},
		{"1.", true, 0, 1},
		{"1e-3", true, 0, 0.001},
		{"1.e2", true, 0, 100},
		{"2E+1_0", true, 0, 2e10},
		{"1_0.2_5", true, 0, 10.25},
	} {
		e, err := ParseExpr("n", tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		n, ok := e.(*Number)
		if !ok || n.IsFloat != tc.isFloat || n.Int != tc.i || n.Float != tc.f || n.Lit != tc.src {
			t.Errorf("%s: got %#v", tc.src, e)
		}
	}
	for src, want := range map[string]string{
		`"a\n\t\r\0\\\"\'b"`:  "a\n\t\r\x00\\\"'b",
		`'x"y'`:               `x"y`,
		`"\x41\u00e9é"`:       "Aéé",
		"\"two\nlines\"":      "two\nlines",
		"\"joined \\\nline\"": "joined line",
		`""`:                  "",
	} {
		e, err := ParseExpr("s", src)
		if s, ok := e.(*String); err != nil || !ok || s.Value != want {
			t.Errorf("%s: got %v, %v; want %q", src, e, err, want)
		}
	}
	if _, err := ParseExpr("e", "x = 1"); err == nil || err.Error() != "e:1:1: error: expected an expression" {
		t.Errorf("ParseExpr of a statement: %v", err)
	}
}

// TestInspect visits every node of a file in source order.
func TestInspect(t *testing.T) {
	f, err := Parse("w", "fn f(a, b=1) { return a[1:b] }\nfor x in f(k=2) { y += -x }\nif c {} else if d {} else { e.g = {z: 1} }")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	Inspect(f, func(n Node) bool {
		if id, ok := n.(*Ident); ok {
			got = append(got, id.Name)
		}
		if n, ok := n.(*Number); ok {
			got = append(got, n.Lit)
		}
		return true
	})
	if want := "1 a 1 b x f 2 y x c d e z 1"; strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}
