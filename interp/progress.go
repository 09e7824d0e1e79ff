package interp

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
)

// This file defines trange, a progress bar after tinygrad's (tqdm's)
// trange, and getenv, after tinygrad's getenv. In a notebook the bar is
// one display updated in place (ProgressBar.ShowLine).

func init() {
	tensorBuiltins["trange"] = trange_
	tensorBuiltins["getenv"] = getenv_
	addMethods("trange", map[string]methodFn{
		"set_description": func(it *Interp, r Value, c *call) Value {
			var s string
			it.unpack(c, "desc", &s)
			r.(*Progress).desc = s
			return None
		},
	})
}

// Progress is a trange: iterating it yields 0, 1, ..., total-1 and draws a
// bar after each step. On a terminal the bar is redrawn in place; on
// anything else it prints plain lines, at most one a second and the last.
type Progress struct {
	it     *Interp
	total  int
	n      int
	desc   string
	tty    bool
	start  time.Time
	last   time.Time
	closed bool
	bar    *ProgressBar // in a notebook: the display the bar updates
}

func (p *Progress) String() string { return p.line(time.Now()) }
func (*Progress) Type() string     { return "trange" }

// Attr returns n (steps done), total and desc.
func (p *Progress) Attr(name string) (Value, error) {
	switch name {
	case "n":
		return Int(p.n), nil
	case "total":
		return Int(p.total), nil
	case "desc":
		return String(p.desc), nil
	}
	return nil, nil
}

// AttrNames lists the attributes.
func (*Progress) AttrNames() []string { return []string{"n", "total", "desc"} }

// Iterate yields the steps, drawing the bar after each.
func (p *Progress) Iterate(yield func(Value) bool) {
	p.start = time.Now()
	p.draw(false)
	for p.n < p.total {
		if !yield(Int(p.n)) {
			p.draw(true)
			return
		}
		p.n++
		p.draw(p.n == p.total)
	}
}

// draw writes the bar: always in place on a terminal, and when final;
// otherwise as a line at most once a second.
func (p *Progress) draw(final bool) {
	if p.closed {
		return
	}
	now := time.Now()
	if p.it.Notebook() {
		// One display, replaced at each step (display_progress.go).
		if p.bar == nil {
			p.bar = p.it.NewProgressBar(p.desc, p.total)
		}
		frac := 1.0
		if p.total > 0 {
			frac = float64(p.n) / float64(p.total)
		}
		p.bar.ShowLine(p.line(now), frac, final)
		p.closed = final
		return
	}
	w := p.it.opts.Stdout
	if p.tty {
		fmt.Fprintf(w, "\r%s\x1b[K", p.line(now))
		if final {
			io.WriteString(w, "\n")
			p.closed = true
		}
		return
	}
	if final || (p.n > 0 && now.Sub(p.last) >= time.Second) {
		fmt.Fprintln(w, p.line(now))
		p.last = now
		p.closed = final
	}
}

// line renders the bar as tqdm does: desc, percent, bar, n/total, elapsed
// and remaining time, and the rate.
func (p *Progress) line(now time.Time) string {
	el := now.Sub(p.start).Seconds()
	frac := 1.0
	if p.total > 0 {
		frac = float64(p.n) / float64(p.total)
	}
	const width = 20
	filled := int(frac * width)
	bar := strings.Repeat("█", filled) + strings.Repeat(" ", width-filled)
	rate, left := 0.0, "?"
	if p.n > 0 && el > 0 {
		rate = float64(p.n) / el
		left = clockTime(float64(p.total-p.n) / rate)
	}
	var b strings.Builder
	if p.desc != "" {
		b.WriteString(p.desc + " ")
	}
	fmt.Fprintf(&b, "%3d%%|%s| %d/%d [%s<%s, %.2f it/s]", int(frac*100), bar, p.n, p.total, clockTime(el), left, rate)
	return b.String()
}

// clockTime formats seconds as mm:ss (h:mm:ss past an hour).
func clockTime(s float64) string {
	t := int(s)
	if t >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", t/3600, t/60%60, t%60)
	}
	return fmt.Sprintf("%02d:%02d", t/60, t%60)
}

// trange_ returns a Progress over range(n): trange(n, desc="").
func trange_(it *Interp, c *call) Value {
	var n int
	desc := ""
	it.unpack(c, "n", &n, "desc?", &desc)
	if n < 0 {
		n = 0
	}
	f, ok := it.opts.Stdout.(*os.File)
	tty := ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
	return &Progress{it: it, total: n, desc: desc, tty: tty}
}

// getenv_ returns an environment variable as tinygrad's getenv does: with
// a default, converted to the default's type (int, float or bool, which
// reads "0" and "" as false); unset, the default; getenv(name) with no
// default gives a string or none. It needs the host's grant, as files do.
func getenv_(it *Interp, c *call) Value {
	var name string
	var def Value = None
	it.unpack(c, "key", &name, "default?", &def)
	it.checkFiles(c)
	s, ok := os.LookupEnv(name)
	if !ok {
		return def
	}
	switch def.(type) {
	case Int:
		n, err := strconv.ParseInt(strings.TrimSpace(s), 0, 64)
		if err != nil {
			it.failf(c.pos, "getenv: %s=%q is not an int", name, s)
		}
		return Int(n)
	case Float:
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			it.failf(c.pos, "getenv: %s=%q is not a number", name, s)
		}
		return Float(f)
	case Bool:
		return Bool(s != "" && s != "0")
	}
	return String(s)
}
