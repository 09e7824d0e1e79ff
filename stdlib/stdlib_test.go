package stdlib

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	for _, name := range []string{"nn", "nn.tiny"} {
		if src, ok := Lookup(name); !ok || !strings.Contains(string(src), "fn linear(") {
			t.Errorf("Lookup(%q) = %d bytes, %v", name, len(src), ok)
		}
	}
	for _, name := range []string{"", "nope", "../nn", "x/nn.tiny"} {
		if _, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) found a module", name)
		}
	}
	if got := Modules(); len(got) == 0 || got[0] != "nn" {
		t.Errorf("Modules() = %v", got)
	}
}

func TestDocs(t *testing.T) {
	docs, ok := Docs("nn")
	if !ok {
		t.Fatal("no docs for nn")
	}
	if !strings.HasPrefix(docs[0].Text, "nn: ") {
		t.Errorf("module doc = %q", docs[0].Text)
	}
	want := []string{"linear", "relu", "gelu", "softmax", "log_softmax", "cross_entropy", "layernorm", "mlp_init", "mlp_forward"}
	byName := map[string]Doc{}
	for _, d := range docs[1:] {
		byName[d.Name] = d
	}
	for _, name := range want {
		d, ok := byName[name]
		if !ok {
			t.Errorf("no doc for %s", name)
			continue
		}
		if !strings.HasPrefix(d.Text, name+"(") {
			t.Errorf("%s: doc %q does not start with its call", name, d.Text)
		}
	}
	if d := byName["layernorm"]; d.Signature != "layernorm(x, eps=1e-5, axis=-1)" {
		t.Errorf("layernorm signature = %q", d.Signature)
	}
}

func TestParseDocs(t *testing.T) {
	src := "# m: module\n\n# f doc\n# more\nfn f(a) {\n  # inside\n}\n\nfn g() {}\n"
	docs := parseDocs("m", src)
	if len(docs) != 3 || docs[0].Text != "m: module" || docs[1].Text != "f doc\nmore" || docs[2].Text != "" {
		t.Errorf("parseDocs = %+v", docs)
	}
}
