package interp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"tiny/lang"
)

// This file shows values richer than text. A picture (imshow, plot,
// scatter, hist, and display of a view, a tracker, a schedule or a graph)
// and a progress bar go to Options.Display when it is set: the notebook
// kernel sends them as display_data. Without one (the REPL, tiny run),
// a picture is written to a file, the one given with path= or a default
// name in the working directory, and its path printed; text is printed.
// Writing a file needs the host's grant (Options.Files), as every file
// access of a script does.
// display(v, ...) shows several values from one cell; a notebook cell's
// last value is shown the same way (ExecCellRich).

// MIME types of Output.Data.
const (
	MIMEText = "text/plain"
	MIMEHTML = "text/html"
	MIMEPNG  = "image/png"
	MIMESVG  = "image/svg+xml"
)

// Output is one thing to show: its forms by MIME type (text/plain always;
// text/html, image/png or image/svg+xml as the value has them; PNG as
// raw bytes), the base of a default file name for it ("plot", "image",
// "view", "graph"), the file the script asked for with path= ("" for
// none), and for a display that updates in place (a progress bar) its id
// and whether this replaces the display shown before with that id.
type Output struct {
	Data   map[string][]byte
	Name   string
	Path   string
	ID     string
	Update bool
}

// Displayer shows outputs: a notebook kernel sends each as a display_data
// message, or update_display_data when Update is set.
type Displayer interface {
	Show(Output) error
}

// picture returns the file extension and data of out's picture form, if
// it has one.
func (out Output) picture() (ext string, data []byte, ok bool) {
	if d, ok := out.Data[MIMESVG]; ok {
		return ".svg", d, true
	}
	if d, ok := out.Data[MIMEPNG]; ok {
		return ".png", d, true
	}
	return "", nil, false
}

// show shows out: written to out.Path when given, then through the
// Displayer, or without one written to a default file whose path is
// printed (a value with no picture prints its text).
func (it *Interp) show(pos lang.Pos, out Output) {
	if out.Path != "" {
		it.writeOutput(pos, out.Path, out)
	}
	if it.opts.Display == nil && !it.opts.Files {
		if _, _, ok := out.picture(); ok {
			it.failf(pos, "cannot write a picture: file access is not allowed here (the program running tiny did not grant it: interp.Options.Files)")
		}
	}
	if d := it.opts.Display; d != nil {
		if err := d.Show(out); err != nil {
			it.failf(pos, "display: %v", err)
		}
		return
	}
	if out.Path != "" {
		it.printLine(pos, out.Path)
		return
	}
	ext, _, ok := out.picture()
	if !ok {
		it.printLine(pos, string(out.Data[MIMEText]))
		return
	}
	if it.files == nil {
		it.files = map[string]int{}
	}
	it.files[out.Name+ext]++
	path := out.Name + ext
	if n := it.files[out.Name+ext]; n > 1 {
		path = fmt.Sprintf("%s-%d%s", out.Name, n, ext)
	}
	it.writeOutput(pos, path, out)
	it.printLine(pos, path)
}

// writeOutput writes the form of out that path's extension names, if the
// host granted file access (Options.Files).
func (it *Interp) writeOutput(pos lang.Pos, path string, out Output) {
	if !it.opts.Files {
		it.failf(pos, "cannot write %s: file access is not allowed here (the program running tiny did not grant it: interp.Options.Files)", path)
	}
	var data []byte
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".svg":
		data = out.Data[MIMESVG]
	case ".png":
		data = out.Data[MIMEPNG]
	case ".html", ".htm":
		data = out.Data[MIMEHTML]
	case ".txt":
		data = out.Data[MIMEText]
	}
	if data == nil {
		have := []string{".txt"}
		for mime, ext := range map[string]string{MIMESVG: ".svg", MIMEPNG: ".png", MIMEHTML: ".html"} {
			if out.Data[mime] != nil {
				have = append(have, ext)
			}
		}
		it.failf(pos, "cannot write %s: this value is drawn as %s", path, strings.Join(sorted(have), ", "))
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		it.failf(pos, "%v", err)
	}
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}

// Rich returns the forms of v a notebook shows: its text, and a table for
// a tensor, a diagram for a view or tracker, a tree for a schedule's
// kernels and the picture of a picture value. It may realize a tensor,
// under ctx.
func (it *Interp) Rich(ctx context.Context, v Value) (out Output, err error) {
	defer it.enter(ctx)()
	defer it.recoverTo(&err)
	return it.output(it.pos, v), nil
}

// output returns v's Output.
func (it *Interp) output(pos lang.Pos, v Value) Output {
	var text string
	it.guard(pos, func() { text = v.String() })
	out := Output{Data: map[string][]byte{MIMEText: []byte(text)}, Name: v.Type()}
	it.guard(pos, func() { it.addForms(pos, v, &out) })
	return out
}

// formers add forms to the Output of a value, by type; display_*.go
// register them.
var formers []func(it *Interp, pos lang.Pos, v Value, out *Output) bool

func (it *Interp) addForms(pos lang.Pos, v Value, out *Output) {
	for _, f := range formers {
		if f(it, pos, v, out) {
			return
		}
	}
}

// ExecCellRich runs a cell as ExecCell does and returns the Output of its
// last value (with no data when there is none), for a notebook to show
// in all the forms the value has.
func (it *Interp) ExecCellRich(ctx context.Context, filename, src string) (out Output, err error) {
	it.sources[filename] = src
	f, err := lang.Parse(filename, src)
	if err != nil {
		return out, err
	}
	defer it.enter(ctx)()
	defer it.recoverTo(&err)
	defer it.running(src)()
	oldEcho := it.echo
	it.echo = true
	defer func() { it.echo = oldEcho }()
	stmts := f.Stmts
	var tail *lang.ExprStmt
	if n := len(stmts); n > 0 {
		if x, ok := stmts[n-1].(*lang.ExprStmt); ok {
			tail, stmts = x, stmts[:n-1]
		}
	}
	if it.execStmts(stmts, it.globals) != ctrlNone || tail == nil {
		return out, nil
	}
	it.pos = tail.Pos()
	if v := it.eval(tail.X, it.globals); v != None {
		out = it.output(tail.Pos(), v)
	}
	return out, nil
}

// Picture is a value that is a picture: what t.graph() returns. It prints
// as its text and shows as its picture.
type Picture struct {
	kind string // "graph", ...: its type and default file name
	text string
	data map[string][]byte
}

func (p *Picture) String() string { return p.text }
func (p *Picture) Type() string   { return p.kind }

func init() {
	tensorBuiltins["display"] = display_
	builtinDocs["display"] = `display(v, ..., path=none) shows each value as a notebook shows a cell's result: a tensor as a
table, a view or shapetracker as a diagram, a schedule or graph as a tree. Outside a notebook a
picture is written to a file (path=, or a default name such as view.svg) and its path printed.`
	formers = append(formers, func(it *Interp, pos lang.Pos, v Value, out *Output) bool {
		p, ok := v.(*Picture)
		if ok {
			for k, d := range p.data {
				out.Data[k] = d
			}
		}
		return ok
	})
}

func display_(it *Interp, c *call) Value {
	path := ""
	for _, k := range c.kw {
		if k.name != "path" {
			it.failf(c.pos, "display: unexpected keyword argument %s", k.name)
		}
		s, ok := k.value.(String)
		if !ok {
			it.failf(c.pos, "display: path must be a string, got %s", k.value.Type())
		}
		path = string(s)
	}
	if path != "" && len(c.args) != 1 {
		it.failf(c.pos, "display: path= needs exactly one value, got %d", len(c.args))
	}
	for _, v := range c.args {
		out := it.output(c.pos, v)
		out.Path = path
		it.show(c.pos, out)
	}
	return None
}
