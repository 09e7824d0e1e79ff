package interp

import (
	"errors"
	"io/fs"
	"path"

	"tiny/lang"
	"tiny/stdlib"
)

// importFile runs the file an import statement names, once per path, and
// returns its globals as a module. Files come from Options.Imports, then
// the standard library.
func (it *Interp) importFile(s *lang.ImportStmt) *Module {
	p := path.Clean(s.Path)
	if m, ok := it.modules[p]; ok {
		return m
	}
	if it.loading[p] {
		it.failf(s.PathPos, "import cycle: %s imports itself", quote(s.Path))
	}
	src, err := it.readImport(p)
	if err != nil {
		it.failf(s.PathPos, "import %s: %v", quote(s.Path), err)
	}
	f, perr := lang.Parse(p, string(src))
	it.sources[p] = string(src)
	it.frames = append(it.frames, lang.Frame{Name: "import " + p, Pos: s.Start})
	restore := it.running(string(src))
	if perr != nil {
		var le *lang.Error
		if errors.As(perr, &le) {
			panic(it.newError(le.Pos, le.Msg, perr))
		}
		it.fail(s.PathPos, perr)
	}
	it.loading[p] = true
	defer delete(it.loading, p)
	m := &Module{name: p, globals: newScope(nil)}
	it.execStmts(f.Stmts, m.globals)
	restore()
	it.frames = it.frames[:len(it.frames)-1]
	it.modules[p] = m
	return m
}

// readImport reads an imported file from Options.Imports, falling back to
// the standard library's modules ("nn" or "nn.tiny").
func (it *Interp) readImport(p string) ([]byte, error) {
	err := fs.ErrNotExist
	if it.opts.Imports != nil {
		var src []byte
		if src, err = fs.ReadFile(it.opts.Imports, p); err == nil {
			return src, nil
		}
	}
	if src, ok := stdlib.Lookup(p); ok {
		return src, nil
	}
	return nil, err
}
