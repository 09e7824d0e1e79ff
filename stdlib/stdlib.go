// Package stdlib holds tiny's standard library: modules written in tiny,
// embedded in the binary. A script loads one with
//
//	import "nn" as nn
//
// The interpreter resolves an import path that names no file (no ".tiny"
// suffix and no "/") through Lookup.
//
// Each module is a file NAME.tiny. Its first comment block documents the
// module, and the comment block right above each "fn" documents that
// function; Docs extracts them for "tiny help nn". Nothing here imports
// the rest of tiny, and nothing is parsed until a script imports it.
package stdlib

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.tiny
var files embed.FS

// Lookup returns the source of the module named name ("nn" or "nn.tiny")
// and whether it exists.
func Lookup(name string) ([]byte, bool) {
	if strings.Contains(name, "/") {
		return nil, false
	}
	name = strings.TrimSuffix(name, ".tiny")
	src, err := files.ReadFile(name + ".tiny")
	if err != nil {
		return nil, false
	}
	return src, true
}

// Modules lists the library's module names in sorted order.
func Modules() []string {
	ents, _ := files.ReadDir(".")
	var names []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".tiny"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}
