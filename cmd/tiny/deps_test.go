package main

import (
	"os/exec"
	"strings"
	"testing"
)

// layers gives, for each package of the module, the packages of the module
// it may depend on (directly or not), after STYLE.md 8.1: symbolic <- shape
// <- codegen <- devices <- tensor <- interp <- jupyter <- cmd/tiny, with
// lang and stdlib beside the engine. A subpackage of a listed package (devices/cpu)
// follows the rule of the nearest listed entry unless it has its own.
var layers = map[string][]string{
	"symbolic":       {},
	"shape":          {"symbolic"},
	"codegen":        {"shape", "symbolic"},
	"devices":        {"codegen", "shape", "symbolic"},
	"devices/cpu":    {"devices", "codegen", "shape", "symbolic"},
	"devices/clang":  {"devices", "codegen", "shape", "symbolic"},
	"tensor":         {"devices", "codegen", "shape", "symbolic"},
	"lang":           {},
	"stdlib":         {},
	"interp":         {"lang", "stdlib", "tensor", "devices", "codegen", "shape", "symbolic", "internal/draw"},
	"jupyter":        {"interp", "lang", "stdlib", "tensor", "devices", "codegen", "shape", "symbolic", "internal/draw"},
	"devices/opencl": {"devices", "codegen", "shape", "symbolic"},
	// The oracle vectors' loader serves the tests of shape and of every
	// package above it, so it may use none of them.
	"internal/oracle": {},
	// The pictures (views, graphs, images, plots) know nothing of tiny.
	"internal/draw": {},
}

// externals lists the only packages outside the standard library that a
// package may import directly; packages not listed may import any.
var externals = map[string][]string{
	"lang":    {},
	"stdlib":  {},
	"jupyter": {"github.com/go-zeromq/zmq4"},
}

// TestDependencyDirection fails when a package of the module imports one
// above it.
func TestDependencyDirection(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}|{{join .Deps \" \"}}|{{join .Imports \" \"}}", "tiny/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, rest, _ := strings.Cut(line, "|")
		deps, imports, _ := strings.Cut(rest, "|")
		pkg := strings.TrimPrefix(path, "tiny/")
		rule, ok := ruleFor(pkg)
		if !ok {
			continue // cmd/tiny and packages at the top may import anything
		}
		for _, dep := range strings.Fields(deps) {
			if d, ours := strings.CutPrefix(dep, "tiny/"); ours && !allowed(rule, d) {
				t.Errorf("%s depends on %s, which is not below it (allowed: %v)", pkg, d, rule)
			}
		}
		if ext, ok := externals[pkg]; ok {
			for _, imp := range strings.Fields(imports) {
				if isExternal(imp) && !allowed(ext, imp) {
					t.Errorf("%s imports %s (allowed outside the standard library: %v)", pkg, imp, ext)
				}
			}
		}
	}
}

// ruleFor returns the allowed dependencies of pkg, from its own entry or
// the nearest parent's.
func ruleFor(pkg string) ([]string, bool) {
	for p := pkg; p != "."; p = parent(p) {
		if rule, ok := layers[p]; ok {
			if p != pkg { // a subpackage may also use its parent
				rule = append([]string{p}, rule...)
			}
			return rule, true
		}
	}
	return nil, false
}

func parent(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// allowed reports whether dep is one of rule or inside one of them (unless
// it has an entry of its own in layers).
func allowed(rule []string, dep string) bool {
	_, listed := layers[dep]
	for _, r := range rule {
		if dep == r || !listed && strings.HasPrefix(dep, r+"/") {
			return true
		}
	}
	return false
}

// isExternal reports whether an import path is outside the standard
// library and the module.
func isExternal(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return strings.Contains(first, ".")
}

func TestDependencyRules(t *testing.T) {
	tests := []struct {
		pkg, dep string
		ok       bool
	}{
		{"shape", "symbolic", true},
		{"symbolic", "shape", false},
		{"codegen", "tensor", false},
		{"devices/cpu", "devices", true},
		{"devices/cpu", "tensor", false},
		{"devices", "devices/cpu", false},
		{"tensor", "devices/cpu", false},
		{"devices/internal/kerneltest", "devices", true},
		{"devices/internal/kerneltest", "tensor", false},
		{"interp", "stdlib", true},
		{"interp", "devices/cpu", false},
		{"lang", "symbolic", false},
		{"stdlib", "lang", false},
		{"jupyter", "interp", true},
		{"interp", "jupyter", false},
		{"jupyter", "devices/cpu", false},
		{"internal/oracle", "symbolic", false},
		{"internal/oracle", "tensor", false},
	}
	for _, tc := range tests {
		rule, ok := ruleFor(tc.pkg)
		if !ok || allowed(rule, tc.dep) != tc.ok {
			t.Errorf("%s -> %s: allowed %v, want %v", tc.pkg, tc.dep, ok && allowed(rule, tc.dep), tc.ok)
		}
	}
	if _, ok := ruleFor("cmd/tiny"); ok {
		t.Error("cmd/tiny has a rule; it may import anything")
	}
}
