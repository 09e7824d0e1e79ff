package clang

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// gcc is known by the file its symlinks lead to, and only gcc gets its own
// flags (clang rejects -fno-tree-sink).
func TestIsGCC(t *testing.T) {
	for _, c := range []struct {
		file, link string
		want       bool
	}{
		{"x86_64-linux-gnu-gcc-12", "cc", true},
		{"gcc", "", true},
		{"clang-14", "cc", false},
		{"slowcc", "", false},
	} {
		sub := t.TempDir()
		p := filepath.Join(sub, c.file)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if c.link != "" {
			l := filepath.Join(sub, c.link)
			if err := os.Symlink(p, l); err != nil {
				t.Fatal(err)
			}
			p = l
		}
		if got := isGCC(p); got != c.want {
			t.Errorf("isGCC(%s -> %s) = %v, want %v", c.link, c.file, got, c.want)
		}
	}
	resetCompiler(t)
	t.Setenv("CC", "")
	tc, err := findCompiler()
	if err != nil {
		t.Skip(err)
	}
	for _, f := range gccFlags {
		if got := slices.Contains(tc.flags, f); got != isGCC(tc.path) {
			t.Errorf("compiler %s: flags %v", tc.path, tc.flags)
		}
	}
}
