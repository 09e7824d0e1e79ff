package lang

// Complete reports whether src is a complete input for the REPL or a
// notebook cell: false while a bracket, brace or string is still open or the
// input ends in a line-continuing backslash, true otherwise, including when
// src holds an error that more input cannot fix (so that it gets reported).
func Complete(src string) bool {
	s := newScanner("", src)
	s.scan()
	if s.err != nil {
		return !s.atEOF
	}
	return len(s.open) == 0 || s.mismatch
}
