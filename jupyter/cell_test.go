package jupyter

import (
	"fmt"
	"testing"
)

func TestNextIndent(t *testing.T) {
	for code, want := range map[string]string{
		"fn f(a) {":                  "  ",
		"fn f(a) {\n  if a {":        "    ",
		"fn f(a) {\n  x = 1":         "  ",
		"fn f(a) {\n  x = [1,\n":     "    ",
		"x = \"{\" + (":              "  ",
		"fn f() { # {\n  g(1) # (\n": "  ",
	} {
		if got := nextIndent(code); got != want {
			t.Errorf("nextIndent(%q) = %q, want %q", code, got, want)
		}
	}
}

func TestCellNames(t *testing.T) {
	got := fmt.Sprint(cellNames("alpha = 1\nbeta, gamma = 2, 3\nfn delta(eps, zeta=2) {\n  for eta, theta in x {}\n}\nimport \"nn\" as iota\nkappa += 1\nx == y\n"))
	want := "[alpha beta gamma kappa delta eps zeta eta theta iota]"
	if got != want {
		t.Errorf("cellNames = %s, want %s", got, want)
	}
	if m := fmt.Sprint(mergeNames([]string{"argmax", "args"}, []string{"argh", "args", "zz"}, "arg")); m != "[argh argmax args]" {
		t.Errorf("mergeNames = %s", m)
	}
}

func TestChainAt(t *testing.T) {
	for _, c := range []struct {
		code   string
		cursor int
		want   string
	}{
		{"nn.linear(x)", 5, "nn.linear"}, {"nn.linear(", 10, "nn.linear"}, {"y = t.sum", 9, "t.sum"},
		{"print(x)", 2, "print"}, {"1.5", 3, ""}, {"", 0, ""}, {"f( ", 3, ""},
	} {
		if got := chainAt(c.code, c.cursor); got != c.want {
			t.Errorf("chainAt(%q, %d) = %q, want %q", c.code, c.cursor, got, c.want)
		}
	}
}
