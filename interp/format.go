package interp

import (
	"math"
	"strconv"
	"strings"
)

// This file defines how values print: floats in Python's shortest
// round-trip form, strings raw at top level and quoted inside containers.

func formatInt(i int64) string { return strconv.FormatInt(i, 10) }

// formatFloat prints f as Python's repr does: "1.0", "0.5", "1e-05",
// "1e+16", "inf", "nan".
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, e, _ := strings.Cut(s, "e")
	if exp, _ := strconv.Atoi(e); exp < -4 || exp >= 16 {
		sign := e[0]
		digits := strings.TrimLeft(e[1:], "0")
		if len(digits) < 2 {
			digits = strings.Repeat("0", 2-len(digits)) + digits
		}
		return mant + "e" + string(sign) + digits
	}
	s = strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

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
