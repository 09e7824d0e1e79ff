package interp

import (
	"fmt"
	"regexp"
	"strings"

	"tiny/stdlib"
)

// builtinDocs holds the doc text of builtins that have one, by name, for
// Inspect; files that add builtins may add their docs from init.
var builtinDocs = map[string]string{}

var chainRe = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$`)

// Inspect returns what a notebook shows on Shift-TAB for a name or an
// attribute chain (x, nn.linear, t.sum): the doc comment and signature of
// a fn (a stdlib module's docs, as tiny help prints them), a builtin's doc,
// a module's summary, or else the value's type and text. Nothing is
// called to find it. It reports false when expr names nothing.
func (it *Interp) Inspect(expr string) (doc string, ok bool) {
	if !chainRe.MatchString(expr) {
		return "", false
	}
	v, err := it.lookupChain(expr)
	if err != nil {
		if docs, ok := stdlib.Docs(expr); ok {
			return moduleDoc(docs), true
		}
		return "", false
	}
	defer func() {
		if recover() != nil {
			doc, ok = "", false
		}
	}()
	switch v := v.(type) {
	case *Module:
		if docs, ok := stdlib.Docs(v.name); ok {
			return moduleDoc(docs), true
		}
		return fmt.Sprintf("module %s: %s", v.name, strings.Join(v.globals.names(), ", ")), true
	case *Function:
		return fnDoc(v), true
	case *Builtin:
		text := "builtin " + v.name
		if d, ok := builtinDocs[v.name]; ok {
			text += "\n\n" + d
		}
		return text, true
	case *Method:
		return fmt.Sprintf("method %s of %s", v.name, v.recv.Type()), true
	}
	text := v.String()
	if len(text) > 2000 {
		text = text[:2000] + " ..."
	}
	return fmt.Sprintf("type: %s\nvalue: %s", v.Type(), text), true
}

// moduleDoc formats a stdlib module's docs as tiny help does.
func moduleDoc(docs []stdlib.Doc) string {
	var b strings.Builder
	b.WriteString(docs[0].Text)
	for _, d := range docs[1:] {
		fmt.Fprintf(&b, "\n\nfn %s", d.Signature)
		if d.Text != "" {
			b.WriteString("\n    " + strings.ReplaceAll(d.Text, "\n", "\n    "))
		}
	}
	return strings.TrimSpace(b.String())
}

// fnDoc is a fn's signature and the comment block above its definition.
func fnDoc(f *Function) string {
	var params []string
	for i, p := range f.lit.Params {
		s := p.Name
		if i < len(f.defaults) && f.defaults[i] != nil {
			s += "=" + f.defaults[i].String()
		}
		params = append(params, s)
	}
	sig := fmt.Sprintf("fn %s(%s)", f.Name(), strings.Join(params, ", "))
	lines := strings.Split(f.src, "\n")
	var block []string
	for i := f.lit.Start.Line - 2; i >= 0 && i < len(lines); i-- {
		t := strings.TrimSpace(lines[i])
		text, ok := strings.CutPrefix(t, "#")
		if !ok {
			break
		}
		block = append([]string{strings.TrimPrefix(text, " ")}, block...)
	}
	if len(block) == 0 {
		return sig
	}
	return sig + "\n\n" + strings.Join(block, "\n")
}
