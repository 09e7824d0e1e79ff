package lang

import (
	"context"
	"strings"
	"testing"
)

// TestParse checks the tree of each construct in its S-expression form.
func TestParse(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		// precedence, low to high
		{"a or b and c", "(or a (and b c))"},
		{"a and b or c", "(or (and a b) c)"},
		{"not a and b", "(and (not a) b)"},
		{"not a == b", "(not (== a b))"},
		{"a == b + c", "(== a (+ b c))"},
		{"a < b", "(< a b)"},
		{"a + b * c", "(+ a (* b c))"},
		{"a - b - c", "(- (- a b) c)"},
		{"a * b // c % d @ e / f", "(/ (@ (% (// (* a b) c) d) e) f)"},
		{"-a * b", "(* (- a) b)"},
		{"-2**2", "(- (** 2 2))"},
		{"2**3**2", "(** 2 (** 3 2))"},
		{"2**-1", "(** 2 (- 1))"},
		{"-a.b(c)[d]", "(- (index (call (. a b) c) d))"},
		{"a.b ** 2", "(** (. a b) 2)"},
		{"+x", "(+ x)"},
		{"not not x", "(not (not x))"},
		{"(a + b) * c", "(* (+ a b) c)"},
		// bitwise operators, with Python's precedence: | < ^ < & < shifts < + -
		{"a | b ^ c & d << e + f", "(| a (^ b (& c (<< d (+ e f)))))"},
		{"a & b | c ^ d", "(| (& a b) (^ c d))"},
		{"a << b >> c", "(>> (<< a b) c)"},
		{"a == b | c", "(== a (| b c))"},
		{"~a ** 2; -~a; ~-a", "(~ (** a 2))\n(- (~ a))\n(~ (- a))"},
		{"x &= 1; x |= 2; x ^= 3; x <<= 4; x >>= 5", "(&= x 1)\n(|= x 2)\n(^= x 3)\n(<<= x 4)\n(>>= x 5)"},
		// membership, conditional expressions, comprehensions
		{"a in b; a not in b", "(in a b)\n(not in a b)"},
		{"not a in b", "(not (in a b))"},
		{"a + 1 in b and c", "(and (in (+ a 1) b) c)"},
		{"a if c else b", "(if c a b)"},
		{"a if c else b if d else e", "(if c a (if d b e))"},
		{"x = a or b if c and d else e", "(= x (if (and c d) (or a b) e))"},
		{"f(a if c else b, k=1 if c else 2)", "(call f (if c a b) (kw k (if c 1 2)))"},
		{"[x * 2 for x in xs]", "(listcomp (* x 2) (for (vars x) xs))"},
		{"[x for x in xs if x > 0]", "(listcomp x (for (vars x) xs) (if (> x 0)))"},
		{"[(i, j) for i in a for j in b if i != j]", "(listcomp (tuple i j) (for (vars i) a) (for (vars j) b) (if (!= i j)))"},
		{"[a if c else b for k, v in d]", "(listcomp (if c a b) (for (vars k v) d))"},
		{"[x for x in a if b if c]", "(listcomp x (for (vars x) a) (if b) (if c))"},
		{"{k: v * 2 for k, v in d}", "(dictcomp (: k (* v 2)) (for (vars k v) d))"},
		{"[\n  x\n  for x in xs\n]", "(listcomp x (for (vars x) xs))"},
		{"x = a if c else {\n  \"k\": 1,\n  \"j\": 2\n}", `(= x (if c a (dict (: "k" 1) (: "j" 2))))`},
		{"f(a if c else {\n\"k\": 1\n}, b if d else {})", `(call f (if c a (dict (: "k" 1))) (if d b (dict)))`},
		{"if a if b else c { x }\nelse { y }", "(if (if b a c) (block x) (block y))"},
		// literals
		{"12; 1_000; 0x1f; 0b101; 0o17", "12\n1_000\n0x1f\n0b101\n0o17"},
		{"1.5; .5; 1e-3; 1.; 2E+10", "1.5\n.5\n1e-3\n1.\n2E+10"},
		{`"a\n\t\\\"'"; 'x\'y'`, `"a\n\t\\\"'"` + "\n" + `"x'y"`},
		{`"\x41\u00e9"`, `"Aé"`},
		{"true; false; none", "true\nfalse\nnone"},
		{"[]; [1]; [1, 2,]", "(list)\n(list 1)\n(list 1 2)"},
		{"(); (1,); (1, 2); (1)", "(tuple)\n(tuple 1)\n(tuple 1 2)\n1"},
		{`{}; {"a": 1, "b": [2],}`, `(dict)` + "\n" + `(dict (: "a" 1) (: "b" (list 2)))`},
		// postfix
		{"f()", "(call f)"},
		{"f(x, k=v,)", "(call f x (kw k v))"},
		{"f(a=1, b=x == y)", "(call f (kw a 1) (kw b (== x y)))"},
		{"a[i, 1:3, ::2, none, ...]", "(index a i (slice 1 3 _) (slice _ _ 2) none ...)"},
		{"a[:]; a[::]; a[1:]; a[:2]; a[::-1]; a[1:2:3]",
			"(index a (slice _ _ _))\n(index a (slice _ _ _))\n(index a (slice 1 _ _))\n(index a (slice _ 2 _))\n(index a (slice _ _ (- 1)))\n(index a (slice 1 2 3))"},
		{"a.T.shape", "(. (. a T) shape)"},
		{"(fn (x) { return x })(1)", "(call (fn (params x) (block (return x))) 1)"},
		{"fn (x) { return x }", "(fn (params x) (block (return x)))"},
		// statements
		{"x = 1", "(= x 1)"},
		{"x, y = y, x", "(= (tuple x y) (tuple y x))"},
		{"(x, y) = t", "(= (tuple x y) t)"},
		{"x = 1,", "(= x (tuple 1))"},
		{"a[0] = 1; d.k = 2", "(= (index a 0) 1)\n(= (. d k) 2)"},
		{"x += 1; x -= 1; x *= 2; x /= 2; x //= 2; x %= 2; x @= w; x **= 2",
			"(+= x 1)\n(-= x 1)\n(*= x 2)\n(/= x 2)\n(//= x 2)\n(%= x 2)\n(@= x w)\n(**= x 2)"},
		{"fn f(a, b=2) { return a + b }", "(fn f (params a (b 2)) (block (return (+ a b))))"},
		{"fn f() { return }", "(fn f (params) (block (return)))"},
		{"fn f() { return 1, 2 }", "(fn f (params) (block (return (tuple 1 2))))"},
		{"if a { b }", "(if a (block b))"},
		{"if a { b } else { c }", "(if a (block b) (block c))"},
		{"if a { b } else if c { d } else { e }", "(if a (block b) (if c (block d) (block e)))"},
		{"if a {\n  b\n}\nelse {\n  c\n}", "(if a (block b) (block c))"},
		{"while x < 3 { x += 1 }", "(while (< x 3) (block (+= x 1)))"},
		{"for x in xs { continue }", "(for (vars x) xs (block (continue)))"},
		{"for i, x in xs { break }", "(for (vars i x) xs (block (break)))"},
		{`import "lib/nn.tiny" as nn`, `(import "lib/nn.tiny" nn)`},
		// separators, comments, newlines in brackets
		{"\n\n# c\nx = 1 # c\n\n;; y = 2;\n", "(= x 1)\n(= y 2)"},
		{"f(1,\n  2)", "(call f 1 2)"},
		{"x = [\n  1,\n  2,\n]", "(= x (list 1 2))"},
		{"d = {\n  \"a\": 1,\n}", `(= d (dict (: "a" 1)))`},
		{"fn f() {\n  x = 1\n\n  return x\n}", "(fn f (params) (block (= x 1) (return x)))"},
		{"f(fn (x) {\n  y = x\n  return y\n})", "(call f (fn (params x) (block (= y x) (return y))))"},
		{"x = 1 + \\\n  2", "(= x (+ 1 2))"},
		{"if d == {} { x }", "(if (== d (dict)) (block x))"},
		{"for k in {\"a\": 1} { k }", `(for (vars k) (dict (: "a" 1)) (block k))`},
		{"", ""},
		{"\ufeffx = 1", "(= x 1)"},
		{"#!/usr/bin/env tiny\nx", "x"},
	} {
		f, err := Parse("t.tiny", tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		if got := f.String(); got != tc.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// TestContractTaste parses the opening example of LANGUAGE.md.
func TestContractTaste(t *testing.T) {
	src := `# tensors are lazy: nothing runs until a value is printed or read
a = [[1, 2, 3], [4, 5, 6]]          # a bracket literal of numbers is a tensor (int32)
b = a.permute(1, 0).reshape(2, 3)   # movement ops only change the view
c = (b * 2 + 1).sum(axis=1)         # elementwise ops fuse into the reduce
print(c)                            # realizes: schedule -> codegen -> device
print(c.tolist())                   # [17, 31]  (Python-list form)

fn relu(x) { return x.maximum(0) }
w = randn(3, 4, seed=1)
for i in range(3) { print(i, relu(w[i]).sum().item()) }

st = shapetracker((3, 2)).permute(1, 0).reshape(3, 2)
print(st)            # ShapeTracker(views=(View(shape=(2, 3), strides=(1, 2), ...), View(...)))
print(st.render())   # ("(((((ridx0*2)+ridx1)%3)*2)+(((ridx0*2)+ridx1)//3))", "True")
k = var("k", 1, 100); shapetracker((k, 3))
`
	f, err := Parse("taste.tiny", src)
	if err != nil {
		t.Fatal(Format(err, src))
	}
	if len(f.Stmts) != 13 {
		t.Errorf("got %d statements, want 13:\n%s", len(f.Stmts), f)
	}
	want := "(= c (call (. (+ (* b 2) 1) sum) (kw axis 1)))"
	if got := f.Stmts[2].String(); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestParseConcurrent parses from several goroutines; run it with -race.
func TestParseConcurrent(t *testing.T) {
	done := make(chan string)
	for i := 0; i < 4; i++ {
		go func() {
			f, err := Parse("c.tiny", "fn f(a, b=2) { return a[1:, none] + b }\nx = f(1)")
			if err != nil {
				done <- err.Error()
				return
			}
			done <- f.String()
		}()
	}
	for i := 0; i < 4; i++ {
		if got := <-done; got != "(fn f (params a (b 2)) (block (return (+ (index a (slice 1 _ _) none) b))))\n(= x (call f 1))" {
			t.Error(got)
		}
	}
}

// TestDeepNesting checks that nesting deep enough to exhaust the stack is
// an error, and that ordinary deep nesting parses.
func TestDeepNesting(t *testing.T) {
	rep := strings.Repeat
	for _, src := range []string{
		rep("(", 300) + "1" + rep(")", 300),
		rep("-", 300) + "1",
		"x = " + rep("[", 100) + rep("]", 100),
		rep("if a {} else ", 300) + "{}",
		"x = [" + rep("-1, ", 1000) + "]",
		"x = f(" + rep("-1, ", 1000) + ")",
		"x = " + rep("-1 + ", 1000) + "1",
		"x = 1" + rep("\nx = -x", 1000),
		"x = " + rep("0 if a else ", 300) + "1",
	} {
		if _, err := Parse("d", src); err != nil {
			t.Errorf("%.20s... (%d bytes): %v", src, len(src), err)
		}
	}
	for _, src := range []string{
		rep("(", 100000) + "1" + rep(")", 100000),
		rep("-", 100000) + "1",
		rep("not ", 100000) + "1",
		rep("2 ** ", 100000) + "1",
		rep("a if b else ", 100000) + "1",
		rep("[", 100000),
		rep("~", 100000) + "1",
		rep("if a {} else ", 100000) + "{}",
		"if a {\n}" + rep("\nelse if a {\n}", 100000),
		rep("fn f() {\n", 100000),
		rep("f(fn () { x = [{\"a\": ", 10000),
	} {
		_, err := Parse("d", src)
		if err == nil || !strings.Contains(err.Error(), "too deeply nested") {
			t.Errorf("%.20s... (%d bytes): got %v", src, len(src), err)
		}
	}
}

// TestParseContext: a parse stops with "interrupted" once its context is
// done, in the scanner and in the parser alike.
func TestParseContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := "x = 1" + strings.Repeat(" + 1", 100000)
	if _, err := ParseContext(ctx, "c.tiny", src); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("cancelled: got %v", err)
	}
	if _, err := ParseContext(context.Background(), "c.tiny", src); err != nil {
		t.Error(err)
	}
	// Cancelled between the scan and the parse: the parser notices.
	s := newScanner("c.tiny", src)
	toks := s.scan()
	func() {
		defer func() {
			if e, ok := recover().(*Error); !ok || e.Msg != "interrupted" {
				t.Errorf("parser: got %v", e)
			}
		}()
		(&parser{s: s, toks: toks, ctx: ctx}).file("c.tiny")
	}()
}
