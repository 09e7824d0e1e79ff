package main

import (
	"errors"
	"io/fs"
	"os"

	"tiny/stdlib"
)

// importFS is the file system scripts import from: the files under a
// directory, and then the standard library's modules ("nn" or "nn.tiny").
type importFS struct{ dir fs.FS }

// newImportFS returns the imports of a script in dir.
func newImportFS(dir string) importFS { return importFS{os.DirFS(dir)} }

func (f importFS) Open(name string) (fs.File, error) {
	file, err := f.dir.Open(name)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return file, err
	}
	if _, ok := stdlib.Lookup(name); !ok {
		return nil, err
	}
	base := name
	if len(base) < 5 || base[len(base)-5:] != ".tiny" {
		base += ".tiny"
	}
	return stdlib.FS().Open(base)
}
