package lang

import "testing"

func TestSource(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"x = (a + b) * c - d", "x = (a + b) * c - d"},
		{"a - (b - c); (a - b) - c", "a - (b - c)\na - b - c"},
		{"(-2) ** 2; -2 ** 2; 2 ** 3 ** 2; (2 ** 3) ** 2", "(-2) ** 2\n-2 ** 2\n2 ** 3 ** 2\n(2 ** 3) ** 2"},
		{"(a < b) < c; not (a and b); (not a) == b", "(a < b) < c\nnot (a and b)\n(not a) == b"},
		{"(1).T; (fn (x) { return x })(1); f(1, k=2)[::2, none, ...].T",
			"(1).T\n(fn (x) { return x })(1)\nf(1, k=2)[::2, none, ...].T"},
		{`x, y = (1,), ("a\n\x01é\"",)`, `(x, y) = ((1,), ("a\n\x01é\"",))`},
		{"fn f(a, b=2) {\n x = {\"k\": [1, 2]}\n return\n}", `fn f(a, b=2) { x = {"k": [1, 2]}; return }`},
		{"if a {} else if b { c += 1 } else { d }", "if a {} else if b { c += 1 } else { d }"},
		{"for i, x in xs { while x { break; continue } }", "for i, x in xs { while x { break; continue } }"},
		{`import "a/b.tiny" as m`, `import "a/b.tiny" as m`},
	} {
		f, err := Parse("s", tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if got := Source(f); got != tc.want {
			t.Errorf("Source(%q)\n got %s\nwant %s", tc.src, got, tc.want)
		}
		checkSource(t, f)
	}
}
