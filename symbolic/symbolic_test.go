package symbolic

import (
	"testing"
)

var (
	x  = Var("x", 0, 10)
	y  = Var("y", 0, 3)
	a  = Var("a", -5, 5)
	k  = Var("k", 1, 100)
	r  = Range("r", 0, 2)
	r2 = Range("r2", 1, 5)
)

func TestTable(t *testing.T) {
	tests := []struct {
		name     string
		n        *Node
		min, max int64
		render   string
	}{
		{"const", C(7), 7, 7, "7"},
		{"negative const", C(-4), -4, -4, "-4"},
		{"true", Bool(true), 1, 1, "True"},
		{"var", x, 0, 10, "x"},
		{"x+0", Add(x, C(0)), 0, 10, "x"},
		{"0+x", Add(C(0), x), 0, 10, "x"},
		{"x*1", Mul(x, C(1)), 0, 10, "x"},
		{"x*0", Mul(x, C(0)), 0, 0, "0"},
		{"const on the right", Add(C(3), x), 3, 13, "(x+3)"},
		{"negative offset", Add(x, C(-4)), -4, 6, "(x+-4)"},
		{"consts fold", Add(Add(x, C(3)), C(4)), 7, 17, "(x+7)"},
		{"mul consts fold", Mul(Mul(x, C(3)), C(4)), 0, 120, "(x*12)"},
		{"x+x", Add(x, x), 0, 20, "(x*2)"},
		{"like terms", Add(Mul(x, C(2)), Mul(x, C(3))), 0, 50, "(x*5)"},
		{"x+x*c", Add(x, Mul(x, C(3))), 0, 40, "(x*4)"},
		{"variables sort first", Add(Mul(x, C(4)), y), 0, 43, "(y+(x*4))"},
		{"ranges sort last", Add(r, Mul(r2, C(4))), 0, 22, "((r2*4)+r)"},
		{"const moves last", Add(Add(x, C(3)), y), 3, 16, "((x+y)+3)"},
		{"div by bounds", Div(Add(Mul(x, C(4)), y), C(4)), 0, 10, "x"},
		{"mod by bounds", Mod(Add(Mul(x, C(4)), y), C(4)), 0, 3, "y"},
		{"mod small", Mod(y, C(5)), 0, 3, "y"},
		{"div small", Div(y, C(4)), 0, 0, "0"},
		{"div of div", Div(Div(x, C(2)), C(3)), 0, 1, "(x//6)"},
		{"mod kept", Mod(x, C(4)), 0, 3, "(x%4)"},
		{"div kept", Div(x, C(4)), 0, 2, "(x//4)"},
		{"C div of constants", Div(C(-7), C(2)), -3, -3, "-3"},
		{"C mod of constants", Mod(C(-7), C(2)), -1, -1, "-1"},
		{"C div bounds", Div(a, C(2)), -2, 2, "(a//2)"},
		{"C mod bounds", Mod(a, C(3)), -2, 2, "(a%3)"},
		{"lt decided", Lt(x, C(11)), 1, 1, "True"},
		{"lt false", Lt(x, C(0)), 0, 0, "False"},
		{"lt kept", Lt(x, C(3)), 0, 1, "(x<3)"},
		{"ge", Ge(x, C(3)), 0, 1, "((x<3)!=True)"},
		{"ge decided", Ge(x, C(0)), 1, 1, "True"},
		{"and", And(Lt(x, C(2)), Lt(y, C(2))), 0, 1, "((x<2)&(y<2))"},
		{"and true", And(Bool(true), Lt(x, C(2))), 0, 1, "(x<2)"},
		{"and false", And(Lt(x, C(2)), Bool(false)), 0, 0, "False"},
		{"lt of product", Lt(Mul(x, C(3)), C(7)), 0, 1, "(x<3)"},
		{"lt of negated product", Lt(Mul(x, C(-2)), C(-3)), 0, 1, "((x*-1)<-1)"},
		{"lt of shifted", Lt(Add(x, C(3)), C(5)), 0, 1, "(x<2)"},
		{"lt of quotient", Lt(Div(x, C(4)), C(2)), 0, 1, "(x<8)"},
		{"lt folding", Lt(Add(Mul(x, C(4)), y), C(8)), 0, 1, "(x<2)"},
		{"mod two views", Mod(Add(Mul(r, C(2)), C(1)), C(3)), 0, 2, "(((r*2)+1)%3)"},
		{"C-safe div", Div(Add(Mul(r, C(-1)), C(2)), C(2)), 0, 1, "(((r*-1)+2)//2)"},
		{"sum", Sum(C(0), Mul(r, C(2)), r2), 0, 9, "((r*2)+r2)"},
		{"empty sum", Sum(), 0, 0, "0"},
		{"empty ands", Ands(), 1, 1, "True"},
		{"symbolic dim", Mul(k, C(3)), 3, 300, "(k*3)"},
		{"range after var", Add(r, k), 1, 102, "(k+r)"},
	}
	for _, tt := range tests {
		s := Simplify(tt.n)
		if s.Min() != tt.min || s.Max() != tt.max || s.Render() != tt.render {
			t.Errorf("%s: got %s [%d, %d], want %s [%d, %d]", tt.name, s.Render(), s.Min(), s.Max(), tt.render, tt.min, tt.max)
		}
	}
}

func TestRawRender(t *testing.T) {
	n := Add(Add(C(0), Mul(x, C(2))), Mul(y, C(1)))
	if got := n.Render(); got != "((0+(x*2))+(y*1))" {
		t.Errorf("raw render %s", got)
	}
	if got := Div(x, C(3)).Render(); got != "(x//3)" {
		t.Errorf("div render %s", got)
	}
}

func TestEvalAndSubstitute(t *testing.T) {
	n := Add(Mul(x, C(3)), Div(a, C(2)))
	if got := n.Eval(map[string]int64{"x": 2, "a": -3}); got != 5 {
		t.Errorf("eval: got %d, want 5 (C division)", got)
	}
	if got := Mod(a, C(4)).Eval(map[string]int64{"a": -5}); got != -1 {
		t.Errorf("C modulo: got %d, want -1", got)
	}
	s := Substitute(n, map[string]*Node{"x": C(1), "a": Var("b", 0, 9)})
	if got := Simplify(s).Render(); got != "((b//2)+3)" {
		t.Errorf("substitute: got %s", got)
	}
	if got := Simplify(Ge(x, C(3))).Eval(map[string]int64{"x": 4}); got != 1 {
		t.Errorf("ge eval: got %d", got)
	}
}

func TestCompareOrder(t *testing.T) {
	// tinygrad's order: variables, add, mul, div, mod, lt, ne, and, ranges, constants.
	order := []*Node{k, Add(x, y), Mul(x, C(2)), Div(x, C(2)), Mod(x, C(2)), Lt(x, y), Ne(x, y), And(Lt(x, y), Lt(y, x)), r, C(-1), C(3)}
	for i := range order {
		for j := range order {
			want := cmpInt(int64(i), int64(j))
			if got := Compare(order[i], order[j]); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", order[i], order[j], got, want)
			}
		}
	}
}

// TestSharedConstants checks that the small constants views are made of
// are shared, not allocated on every call, and that the shared ones and
// the others are the same constants.
func TestSharedConstants(t *testing.T) {
	if C(7) != C(7) || C(-64) != C(-64) || C(4096) != C(4096) {
		t.Error("C of a small constant made a new node")
	}
	if allocs := testing.AllocsPerRun(100, func() { C(1024) }); allocs != 0 {
		t.Errorf("C(1024) allocated %v times a call, want 0", allocs)
	}
	for _, v := range []int64{-65, -64, 0, 1, 4096, 4097, 1 << 40} {
		n := C(v)
		if n.Op != OpConst || n.Val != v || n.Min() != v || n.Max() != v || n.IsBool {
			t.Errorf("C(%d) = %+v", v, n)
		}
	}
}
