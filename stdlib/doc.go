package stdlib

import "strings"

// Doc is the documentation of one module or function: its name, its
// signature ("linear(x, w, b)", or the module name), and its comment text.
type Doc struct {
	Name      string
	Signature string
	Text      string
}

// Docs returns the documentation of the named module: first the module's
// own (its leading comment block), then one Doc per top-level fn, in file
// order. It reports false when there is no such module.
func Docs(module string) ([]Doc, bool) {
	src, ok := Lookup(module)
	if !ok {
		return nil, false
	}
	name := strings.TrimSuffix(module, ".tiny")
	return parseDocs(name, string(src)), true
}

// parseDocs scans src line by line: a run of "#" lines is a comment block;
// the first block, if a blank line or a non-fn line follows it, documents
// the module, and a block directly above "fn NAME(...)" documents NAME.
func parseDocs(module, src string) []Doc {
	docs := []Doc{{Name: module, Signature: module}}
	var block []string
	first := true
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if text, ok := strings.CutPrefix(t, "#"); ok && line == t {
			block = append(block, strings.TrimPrefix(text, " "))
			continue
		}
		if sig, ok := fnSignature(line); ok {
			docs = append(docs, Doc{Name: sig[:strings.Index(sig, "(")], Signature: sig, Text: strings.Join(block, "\n")})
		} else if first && block != nil {
			docs[0].Text = strings.Join(block, "\n")
		}
		if block != nil || t != "" {
			first = false
		}
		block = nil
	}
	return docs
}

// fnSignature returns "name(params)" for a top-level "fn name(params) {" line.
func fnSignature(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "fn ")
	if !ok {
		return "", false
	}
	open, close := strings.Index(rest, "("), strings.Index(rest, ")")
	if open <= 0 || close < open {
		return "", false
	}
	return strings.TrimSpace(rest[:open]) + rest[open:close+1], true
}
