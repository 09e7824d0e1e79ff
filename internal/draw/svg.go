package draw

import (
	"fmt"
	"html"
	"strings"
)

// svg builds an SVG document.
type svg struct {
	b    strings.Builder
	w, h float64
}

// font is the font every SVG of this package uses, present on every system
// a browser runs on.
const fontStyle = "font-family:DejaVu Sans Mono,Menlo,Consolas,monospace"

func (s *svg) printf(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

// text draws t at (x, y) with an anchor (start, middle, end), a size in
// pixels and a fill color.
func (s *svg) text(x, y float64, anchor string, size float64, fill, t string) {
	s.printf(`<text x="%.1f" y="%.1f" text-anchor="%s" font-size="%.0f" fill="%s">%s</text>`+"\n", x, y, anchor, size, fill, html.EscapeString(t))
}

func (s *svg) rect(x, y, w, h float64, fill, stroke string) {
	s.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="%s"/>`+"\n", x, y, w, h, fill, stroke)
}

// bytes returns the document, w by h pixels, with what was drawn.
func (s *svg) bytes() []byte {
	head := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" style="%s">`+"\n"+
		`<rect width="100%%" height="100%%" fill="white"/>`+"\n", s.w, s.h, s.w, s.h, fontStyle)
	return []byte(head + s.b.String() + "</svg>\n")
}

// clip shortens t to at most n characters, ending it with "…".
func clip(t string, n int) string {
	r := []rune(t)
	if len(r) <= n {
		return t
	}
	return string(r[:n-1]) + "…"
}

// hue returns a light color for i of n, distinct for neighbours, so that
// cells reading the same element share a color.
func hue(i, n int) string {
	if n < 1 {
		n = 1
	}
	h := float64(i%n) / float64(n) * 300
	return fmt.Sprintf("hsl(%.0f,70%%,80%%)", h)
}
