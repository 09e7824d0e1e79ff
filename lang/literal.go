package lang

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file defines the scanning of number and string literals. The scanner
// checks and decodes them once; the converter looks the values up by offset.

var prefixBase = map[byte]int{'x': 16, 'b': 2, 'o': 8}

// scanNumber scans 12, 1_000, 0x1f, 0b101, 0o17, 1.5, .5, 1., 1e-3.
func (s *scanner) scanNumber() {
	start, p := s.off, s.pos()
	src, i := s.src, s.off
	isFloat, base := false, 10
	if src[i] == '0' && i+1 < len(src) && strings.IndexByte("xXbBoO", src[i+1]) >= 0 {
		base = prefixBase[src[i+1]|0x20]
		i += 2
	} else {
		i = skipDigits(src, i)
		if i < len(src) && src[i] == '.' && dotInNumber(src, i+1) {
			isFloat = true
			i = skipDigits(src, i+1)
		}
		if j := exponentEnd(src, i); j > i {
			isFloat = true
			i = j
		}
	}
	// Letters or digits glued to a number make it invalid (12abc, 0x1g).
	for i < len(src) {
		r, size := utf8.DecodeRuneInString(src[i:])
		if !isLetter(r) && !(r < utf8.RuneSelf && isDigit(byte(r))) {
			break
		}
		i += size
	}
	lit := src[start:i]
	s.advance(i - start)
	if _, msg := parseNumber(lit, base, isFloat); msg != "" {
		s.fail(p, false, msg)
		return
	}
	if isFloat {
		s.emit(tFloat, lit, p)
	} else {
		s.emit(tInt, lit, p)
	}
}

func skipDigits(src string, i int) int {
	for i < len(src) && (isDigit(src[i]) || src[i] == '_') {
		i++
	}
	return i
}

// dotInNumber reports whether a "." before src[i] belongs to a number: it
// does unless an attribute name or another dot follows (1.T, 1..).
func dotInNumber(src string, i int) bool {
	if i >= len(src) || isDigit(src[i]) {
		return true
	}
	if src[i] == 'e' || src[i] == 'E' {
		return exponentEnd(src, i) > i
	}
	r, _ := utf8.DecodeRuneInString(src[i:])
	return !isLetter(r) && r != '.'
}

// exponentEnd returns the end of an exponent e5, E-3, e+10 at src[i], or i.
func exponentEnd(src string, i int) int {
	if i >= len(src) || src[i] != 'e' && src[i] != 'E' {
		return i
	}
	j := i + 1
	if j < len(src) && (src[j] == '+' || src[j] == '-') {
		j++
	}
	if j >= len(src) || !isDigit(src[j]) {
		return i
	}
	return skipDigits(src, j)
}

// number converts a number token that the scanner has checked.
func number(t *token) Number {
	base := 10
	if len(t.Value) > 1 && t.Value[0] == '0' {
		if b, ok := prefixBase[t.Value[1]|0x20]; ok {
			base = b
		}
	}
	n, _ := parseNumber(t.Value, base, t.Type == tFloat)
	return n
}

// parseNumber checks and converts a number literal. It returns an error
// message instead of a number when the literal is malformed.
func parseNumber(lit string, base int, isFloat bool) (Number, string) {
	const bad = "invalid number "
	for k := 0; k < len(lit); k++ {
		if lit[k] == '_' && (k == 0 || k+1 == len(lit) || !isAlnum(lit[k-1]) || !isAlnum(lit[k+1])) {
			return Number{}, bad + lit
		}
	}
	clean := strings.ReplaceAll(lit, "_", "")
	n := Number{Lit: lit, IsFloat: isFloat}
	if isFloat {
		f, err := strconv.ParseFloat(clean, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return Number{}, bad + lit
		}
		n.Float = f
		return n, ""
	}
	digits := clean
	if base != 10 {
		digits = clean[2:]
	} else if len(clean) > 1 && clean[0] == '0' && strings.Trim(clean, "0") != "" {
		return Number{}, bad + lit + " (leading zeros are not allowed)"
	}
	v, err := strconv.ParseInt(digits, base, 64)
	if errors.Is(err, strconv.ErrRange) {
		// Past int64, an int literal up to 2**64-1 is still exact (the
		// values of uint64 tensors).
		u, uerr := strconv.ParseUint(digits, base, 64)
		if uerr != nil {
			return Number{}, "integer " + lit + " is too large for int64 and uint64"
		}
		n.Int, n.IsUint = int64(u), true
		return n, ""
	} else if err != nil {
		return Number{}, bad + lit
	}
	n.Int = v
	return n, ""
}

func isAlnum(c byte) bool {
	return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'z'
}

// scanString scans "..." or '...' with the escapes \n \t \r \0 \\ \" \' \xHH
// \uHHHH and a backslash before a newline (which is dropped). A string may
// span lines.
func (s *scanner) scanString() {
	p, start := s.pos(), s.off
	q := s.src[s.off]
	s.advance(1)
	var b strings.Builder
	for {
		if s.off >= len(s.src) {
			s.fail(p, true, "unterminated string")
			return
		}
		c := s.src[s.off]
		switch {
		case c == q:
			s.advance(1)
			s.strs = append(s.strs, b.String())
			s.emit(tString, s.src[start:s.off], p)
			s.last().Aux = int32(len(s.strs) - 1)
			return
		case c == '\\':
			if !s.scanEscape(&b) {
				return
			}
		default:
			_, size := utf8.DecodeRuneInString(s.src[s.off:])
			b.WriteString(s.src[s.off : s.off+size])
			s.advance(size)
		}
	}
}

var simpleEscapes = map[byte]string{
	'n': "\n", 't': "\t", 'r': "\r", '0': "\x00", '\\': "\\", '"': "\"", '\'': "'", '\n': "",
}

// scanEscape decodes one escape sequence at the backslash. It reports false
// after recording an error.
func (s *scanner) scanEscape(b *strings.Builder) bool {
	p := s.pos()
	if s.off+1 >= len(s.src) {
		s.fail(p, true, "unterminated string")
		return false
	}
	e := s.src[s.off+1]
	if v, ok := simpleEscapes[e]; ok {
		b.WriteString(v)
		s.advance(2)
		return true
	}
	width := map[byte]int{'x': 2, 'u': 4}[e]
	if width > 0 && s.off+2+width <= len(s.src) {
		if v, err := strconv.ParseUint(s.src[s.off+2:s.off+2+width], 16, 32); err == nil {
			b.WriteRune(rune(v))
			s.advance(2 + width)
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(s.src[s.off+1:])
	s.fail(p, false, "unknown escape sequence \\"+string(r))
	return false
}
