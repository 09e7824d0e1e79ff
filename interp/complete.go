package interp

import (
	"context"
	"sort"
	"strings"

	"tiny/lang"
)

// Completions returns the candidates for tab completion at the end of
// line: after "x." the attributes and methods of x's value (when x is a
// plain name or attribute chain), otherwise keywords, globals and builtins
// starting with the word being typed. Each candidate is the whole line with
// the word completed.
func (it *Interp) Completions(line string) []string {
	i := len(line)
	for i > 0 && isWordByte(line[i-1]) {
		i--
	}
	prefix, word := line[:i], line[i:]
	var names []string
	if strings.HasSuffix(prefix, ".") {
		j := len(prefix) - 1
		for j > 0 && (isWordByte(line[j-1]) || line[j-1] == '.') {
			j--
		}
		expr := prefix[j : len(prefix)-1]
		if expr == "" {
			return nil
		}
		v, err := it.lookupChain(expr)
		if err != nil {
			return nil
		}
		names = attrNames(v)
	} else {
		names = append(names, lang.Keywords()...)
		names = append(names, it.globals.names()...)
		names = append(names, sortedKeys(it.builtins)...)
	}
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, word) && !seen[n] {
			seen[n] = true
			out = append(out, prefix+n)
		}
	}
	sort.Strings(out)
	return out
}

// lookupChain evaluates a name or attribute chain without calling anything.
func (it *Interp) lookupChain(expr string) (v Value, err error) {
	if strings.Contains(expr, "..") {
		return nil, context.Canceled
	}
	return it.Eval(context.Background(), expr)
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
