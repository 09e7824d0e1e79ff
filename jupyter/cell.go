package jupyter

import (
	"regexp"
	"slices"
	"strings"
)

// This file reads a cell's text the way an editor does, without running
// it: the names it defines (for completion before the cell has run) and
// the indent of its next line.

// definers match where a cell binds names: an assignment's targets, a fn
// and its parameters, a for loop's variables, an import's alias.
var definers = []*regexp.Regexp{
	regexp.MustCompile(`(?m)^[ \t]*([A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*)[ \t]*(?:[-+*/%]?=[^=])`),
	regexp.MustCompile(`\bfn[ \t]+([A-Za-z_]\w*)`),
	regexp.MustCompile(`\bfn[ \t]*(?:[A-Za-z_]\w*)?[ \t]*\(([^)]*)\)`),
	regexp.MustCompile(`\bfor[ \t]+([A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*)[ \t]+in\b`),
	regexp.MustCompile(`\bas[ \t]+([A-Za-z_]\w*)`),
}

var ident = regexp.MustCompile(`^[A-Za-z_]\w*`)

// cellNames returns the names code binds, in no particular order.
func cellNames(code string) []string {
	var names []string
	for _, re := range definers {
		for _, m := range re.FindAllStringSubmatch(code, -1) {
			for _, part := range strings.Split(m[1], ",") {
				if name := ident.FindString(strings.TrimSpace(part)); name != "" {
					names = append(names, name)
				}
			}
		}
	}
	return names
}

// mergeNames adds to matches the names that start with word and are not
// there yet, keeping the result sorted.
func mergeNames(matches, names []string, word string) []string {
	added := false
	for _, n := range names {
		if strings.HasPrefix(n, word) && !slices.Contains(matches, n) {
			matches = append(matches, n)
			added = true
		}
	}
	if added {
		slices.Sort(matches)
	}
	return matches
}

// nextIndent returns the indent of the line after code, which leaves
// brackets or braces open: two spaces for each one open, as tiny's own
// files indent a block or a continued list.
func nextIndent(code string) string {
	depth := 0
	for _, line := range strings.Split(code, "\n") {
		depth += netOpen(line)
	}
	return strings.Repeat("  ", max(depth, 0))
}

// netOpen returns how many more brackets line opens than it closes, not
// counting those in strings and comments.
func netOpen(line string) int {
	n := 0
	var quote rune
	escaped := false
	for _, r := range line {
		switch {
		case quote != 0:
			if escaped {
				escaped = false
			} else if r == '\\' {
				escaped = true
			} else if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '#':
			return n
		case r == '(' || r == '[' || r == '{':
			n++
		case r == ')' || r == ']' || r == '}':
			n--
		}
	}
	return n
}
