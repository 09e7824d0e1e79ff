package interp

import (
	"strings"

	"tiny/lang"
)

// This file defines dir and help, for looking around in the REPL.

func init() {
	coreBuiltins["dir"] = dir_
	coreBuiltins["help"] = help_
}

// dir returns the sorted attribute and method names of x, or with no
// argument the names defined at the top level.
func dir_(it *Interp, c *call) Value {
	var x Value
	it.unpack(c, "x?", &x)
	var names []string
	if x == nil {
		names = it.globals.names()
	} else {
		names = attrNames(x)
	}
	out := make([]Value, len(names))
	for i, n := range names {
		out[i] = String(n)
	}
	return NewList(out)
}

// help prints what x is: a fn's signature and the comment above it, a
// builtin's name, a value's type with its attributes and methods. Without
// an argument it says where to look.
func help_(it *Interp, c *call) Value {
	var x Value
	it.unpack(c, "x?", &x)
	it.printLine(c.pos, helpText(x))
	return None
}

func helpText(x Value) string {
	var b strings.Builder
	switch v := x.(type) {
	case nil:
		return "help(x) describes a value, dir(x) lists its attributes and methods, dir() the names defined;\n" +
			"the language and every builtin are described in docs/language.md; `tiny help nn` shows a module's docs."
	case *Function:
		b.WriteString(signature(v.lit))
		if doc := docComment(v.src, v.lit.Start.Line); doc != "" {
			b.WriteString("\n" + doc)
		}
		return b.String()
	case *Builtin:
		return "builtin " + v.Name() + " (see docs/language.md)"
	case *TensorValue:
		b.WriteString("tensor of shape " + tensorShape(v) + ", dtype " + v.t.DType().String())
	default:
		b.WriteString(x.Type() + ": " + truncate(x.String(), 60))
	}
	if names := attrNames(x); len(names) > 0 {
		b.WriteString("\n  " + wrapNames(names, 76))
	}
	return b.String()
}

// signature returns "fn name(a, b=2)".
func signature(fn *lang.FnLit) string {
	name := fn.Name
	if name == "" {
		name = "anonymous"
	}
	var ps []string
	for _, p := range fn.Params {
		if p.Default != nil {
			ps = append(ps, p.Name+"="+lang.Source(p.Default))
		} else {
			ps = append(ps, p.Name)
		}
	}
	return "fn " + name + "(" + strings.Join(ps, ", ") + ")"
}

// docComment returns the "#" comment lines right above line of src,
// without their "#".
func docComment(src string, line int) string {
	lines := strings.Split(src, "\n")
	var doc []string
	for i := line - 2; i >= 0 && i < len(lines); i-- {
		l := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(l, "#") {
			break
		}
		doc = append([]string{strings.TrimSpace(strings.TrimPrefix(l, "#"))}, doc...)
	}
	return strings.Join(doc, "\n")
}

// wrapNames joins names with spaces into lines of at most width bytes.
func wrapNames(names []string, width int) string {
	var b strings.Builder
	n := 0
	for i, name := range names {
		if i > 0 {
			if n+1+len(name) > width {
				b.WriteString("\n  ")
				n = 0
			} else {
				b.WriteString(" ")
				n++
			}
		}
		b.WriteString(name)
		n += len(name)
	}
	return b.String()
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "..."
	}
	return s
}
