package interp

import (
	"fmt"
	"html"
	"strings"
	"sync/atomic"
	"time"
)

// This file defines progress bars that update in place: in a notebook one
// display, replaced by update_display_data; on a terminal one line,
// rewritten after "\r". progress(x, desc=) wraps an iterable for a for
// loop. Go code that draws a bar for a script (trange) uses the same:
// NewProgressBar, then Update and Close; or, drawing its own text, ShowLine
// in a notebook (Notebook reports whether it is one) and its own terminal
// output elsewhere.

// progressEvery is how often a bar redraws at most, but for its first and
// last states.
const progressEvery = 100 * time.Millisecond

// ProgressBar is a bar of done out of total steps (total 0 when unknown).
type ProgressBar struct {
	it      *Interp
	id      string
	desc    string
	total   int
	start   time.Time
	drawn   time.Time
	shown   bool
	lineLen int
}

var progressIDs atomic.Int64

// NewProgressBar returns a bar described by desc, of total steps (0 for
// unknown), not yet shown.
func (it *Interp) NewProgressBar(desc string, total int) *ProgressBar {
	n := progressIDs.Add(1)
	return &ProgressBar{it: it, id: fmt.Sprintf("tiny-progress-%d-%d", time.Now().UnixNano(), n), desc: desc, total: total, start: time.Now()}
}

// Update shows that done steps are done, with postfix (a loss, say) after
// the counts. It redraws at most every 100 ms, and always the first time.
func (p *ProgressBar) Update(done int, postfix string) {
	if p.shown && time.Since(p.drawn) < progressEvery {
		return
	}
	p.draw(done, postfix, false)
}

// Close draws the bar's last state, done steps, and ends its line on a
// terminal.
func (p *ProgressBar) Close(done int, postfix string) { p.draw(done, postfix, true) }

// Text returns the bar as a terminal shows it, like tqdm:
// "desc  40%|████      | 4/10 [00:01<00:02, 3.1it/s] postfix".
func (p *ProgressBar) Text(done int, postfix string) string {
	el := time.Since(p.start)
	rate := 0.0
	if el > 0 {
		rate = float64(done) / el.Seconds()
	}
	var b strings.Builder
	if p.desc != "" {
		b.WriteString(p.desc + ": ")
	}
	if p.total > 0 {
		frac := min(float64(done)/float64(p.total), 1)
		const width = 20
		full := int(frac * width)
		fmt.Fprintf(&b, "%3.0f%%|%s%s| %d/%d [%s", frac*100, strings.Repeat("█", full), strings.Repeat(" ", width-full), done, p.total, clock(el))
		if rate > 0 && done < p.total {
			fmt.Fprintf(&b, "<%s", clock(time.Duration(float64(p.total-done)/rate*float64(time.Second))))
		}
	} else {
		fmt.Fprintf(&b, "%d [%s", done, clock(el))
	}
	fmt.Fprintf(&b, ", %.2fit/s]", rate)
	if postfix != "" {
		b.WriteString(" " + postfix)
	}
	return b.String()
}

func clock(d time.Duration) string {
	s := int(d.Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}

func (p *ProgressBar) draw(done int, postfix string, final bool) {
	frac := 0.0
	if p.total > 0 {
		frac = min(float64(done)/float64(p.total), 1)
	}
	if text := p.Text(done, postfix); !p.ShowLine(text, frac, final) {
		p.terminal(text, final)
	}
}

// Notebook reports whether the session shows rich output (a notebook):
// a bar there is a display updated in place, not a line of text.
func (it *Interp) Notebook() bool { return it.opts.Display != nil }

// ShowLine shows text, a bar's line drawn by its caller, with frac of the
// work done, in place of what the bar showed before, at most every 100 ms
// but the first and the final time; it reports false, drawing nothing,
// when the session is not a notebook. This is the hook for a bar that
// draws its own text on a terminal (trange, progress.go): in a notebook it
// calls ShowLine instead, so that the bar updates in place rather than
// printing lines.
func (p *ProgressBar) ShowLine(text string, frac float64, final bool) bool {
	d := p.it.opts.Display
	if d == nil {
		return false
	}
	if p.shown && !final && time.Since(p.drawn) < progressEvery {
		return true
	}
	p.drawn = time.Now()
	h := fmt.Sprintf(`<div style="font-family:monospace"><progress value="%.1f" max="100" style="width:240px;vertical-align:middle"></progress> %s</div>`, frac*100, html.EscapeString(text))
	_ = d.Show(Output{Data: map[string][]byte{MIMEText: []byte(text), MIMEHTML: []byte(h)}, Name: "progress", ID: p.id, Update: p.shown})
	p.shown = true
	return true
}

// terminal draws text on one line, rewritten after "\r", ending it when
// final.
func (p *ProgressBar) terminal(text string, final bool) {
	p.drawn = time.Now()
	pad := ""
	if n := len([]rune(text)); n < p.lineLen {
		pad = strings.Repeat(" ", p.lineLen-n)
	}
	p.lineLen = len([]rune(text))
	end := ""
	if final {
		end = "\n"
	}
	_, _ = fmt.Fprint(p.it.opts.Stdout, "\r"+text+pad+end)
	p.shown = true
}

// progressLoop is the value of progress(x): iterating it iterates x and
// advances its bar.
type progressLoop struct {
	inner Iterable
	bar   *ProgressBar
}

func (p *progressLoop) String() string { return "<progress " + quote(p.bar.desc) + ">" }
func (p *progressLoop) Type() string   { return "progress" }

// Iterate yields x's items, updating the bar after each and closing it at
// the end (or when the loop breaks).
func (p *progressLoop) Iterate(yield func(Value) bool) {
	done := 0
	p.bar.Update(0, "")
	p.inner.Iterate(func(v Value) bool {
		ok := yield(v)
		done++
		if !ok {
			return false
		}
		p.bar.Update(done, "")
		return true
	})
	p.bar.Close(done, "")
}

func init() {
	tensorBuiltins["progress"] = func(it *Interp, c *call) Value {
		var x Value
		desc := ""
		total := optInt{}
		it.unpack(c, "x", &x, "desc?", &desc, "total?", &total)
		if n, ok := x.(Int); ok {
			x = &Range{start: 0, stop: int64(n), step: 1}
		}
		inner, ok := x.(Iterable)
		if !ok {
			it.failf(c.pos, "progress: want an int or something a for loop walks, got %s", x.Type())
		}
		n := 0
		if s, ok := x.(Sequence); ok {
			n = s.Len()
		}
		if total.Set {
			n = total.V
		}
		return &progressLoop{inner: inner, bar: it.NewProgressBar(desc, n)}
	}
	builtinDocs["progress"] = `progress(x, desc="", total=none) walks x (an int n walks range(n)) in a for loop, showing a bar
that updates in place: in a notebook one output, on a terminal one line.`
}
