package interp

import (
	"strconv"
	"strings"
)

// This file defines how values print: floats in Python's shortest
// round-trip form (tensor.FormatFloat), strings raw at top level and quoted
// inside containers.

func formatInt(i int64) string { return strconv.FormatInt(i, 10) }

// quote returns s double-quoted with escapes, as strings print inside
// containers.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				b.WriteString(strconv.QuoteRune(r)[1 : len(strconv.QuoteRune(r))-1])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// str returns v as print and str() show it: strings raw, everything else as
// its String form.
func str(v Value) string {
	if s, ok := v.(String); ok {
		return string(s)
	}
	return v.String()
}
