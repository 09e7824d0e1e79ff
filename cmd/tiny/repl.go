package main

// This file defines the REPL loop over a LineReader, so that tests drive it
// with lines from a buffer; readline.go gives it a terminal.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"

	"github.com/fatih/color"

	"tiny/interp"
	"tiny/lang"
)

// errInterrupt is returned by a LineReader when the user pressed Ctrl-C
// while typing: the pending input is dropped and the session goes on.
var errInterrupt = errors.New("interrupt")

// A LineReader gives the REPL its input one line at a time.
type LineReader interface {
	// ReadLine shows prompt (if the reader shows prompts) and returns the
	// next line without its newline, io.EOF at the end, or errInterrupt.
	ReadLine(prompt string) (string, error)
	// AddHistory records a complete input.
	AddHistory(input string)
}

// The REPL's prompts: a new statement, and a continued one.
const (
	promptNew  = ">>> "
	promptMore = "... "
)

// REPL is a read-eval-print loop over one interpreter. The zero value is
// not usable; set it and In.
type REPL struct {
	It     *interp.Interp
	In     LineReader
	Stderr io.Writer
	Color  bool // color "error:" in red
	// Quit makes an input of just "exit" or "quit" end the session.
	Quit bool
	// Interactive is set when a person types at a terminal: Ctrl-D at a
	// "... " prompt drops the pending statement instead of ending the
	// session, and after an if statement whose last line is "}" the REPL
	// waits one line for an "else" (a blank line runs it at once).
	Interactive bool

	mu      sync.Mutex
	cancel  context.CancelFunc // cancels the running statement, if any
	reading bool               // waiting in ReadLine
	lines   []string           // every line read, so errors show any of them
	failed  bool
	held    *string // a line read ahead while waiting for an else
}

// Run reads, runs and echoes inputs until EOF or until ctx is done, and
// reports whether every input ran without error.
func (r *REPL) Run(ctx context.Context) bool {
	for ctx.Err() == nil {
		src, start, more := r.readInput()
		if r.Quit && isQuit(src) {
			break
		}
		if strings.TrimSpace(src) != "" {
			r.In.AddHistory(src)
			r.exec(ctx, start, src) // at EOF, an unclosed bracket: the parser says so
		}
		if !more {
			break
		}
	}
	return !r.failed
}

// readInput reads lines until they make a complete input and returns it
// with the number of its first line; more is false at the end of the input.
// Ctrl-C drops the lines read so far.
func (r *REPL) readInput() (src string, start int, more bool) {
	var pending []string
	waitElse := false // the pending input is complete but may go on with else
	for {
		line, err := r.readLine(len(pending) > 0)
		if errors.Is(err, errInterrupt) {
			pending, waitElse = nil, false
			continue
		}
		switch {
		case waitElse && (err != nil || !startsWithElse(line)):
			if err == nil && strings.TrimSpace(line) != "" {
				r.held = &line // the start of the next input
			}
			return strings.Join(pending, "\n"), start, true
		case err != nil && r.Interactive && len(pending) > 0:
			pending = nil // Ctrl-D at "... " drops the statement, as Python does
			continue
		case err != nil: // io.EOF or a read error
			return strings.Join(pending, "\n"), start, false
		}
		waitElse = false
		r.lines = append(r.lines, line)
		if len(pending) == 0 {
			start = len(r.lines)
		}
		pending = append(pending, line)
		src = strings.Join(pending, "\n")
		if lang.Complete(src) && !r.elseFollows() {
			if r.Interactive && endsWithIf(src) {
				waitElse = true
				continue
			}
			return src, start, true
		}
	}
}

// readLine returns the line held back while waiting for an else, or reads
// one with the prompt for a new or a continued statement.
func (r *REPL) readLine(continued bool) (string, error) {
	if r.held != nil {
		line := *r.held
		r.held = nil
		return line, nil
	}
	prompt := promptNew
	if continued {
		prompt = promptMore
	}
	r.setReading(true)
	defer r.setReading(false)
	return r.In.ReadLine(prompt)
}

// endsWithIf reports whether src ends with an if statement without a final
// else whose closing "}" stands alone on the last line: an else may follow
// on the next line.
func endsWithIf(src string) bool {
	lines := strings.Split(strings.TrimRight(src, " \t\n"), "\n")
	if strings.TrimSpace(lines[len(lines)-1]) != "}" {
		return false
	}
	f, err := lang.Parse("<stdin>", src)
	if err != nil || len(f.Stmts) == 0 {
		return false
	}
	s, ok := f.Stmts[len(f.Stmts)-1].(*lang.IfStmt)
	for ok && s.Else != nil {
		s, ok = s.Else.(*lang.IfStmt)
	}
	return ok
}

// startsWithElse reports whether line begins with the keyword else.
func startsWithElse(line string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "else")
	return ok && (rest == "" || !isWordRune(rune(rest[0])))
}

// elseFollows reports whether the input's next line, when the reader can
// tell, starts with "else": then an "if" statement goes on there, as the
// grammar allows "}" and "else" on separate lines.
func (r *REPL) elseFollows() bool {
	p, ok := r.In.(interface{ PeekLine() (string, bool) })
	if !ok {
		return false
	}
	next, ok := p.PeekLine()
	return ok && startsWithElse(next)
}

// exec runs one complete input that began on line start, cancellable
// through Interrupt, and prints its error if any.
func (r *REPL) exec(ctx context.Context, start int, src string) {
	ctx, cancel := context.WithCancel(ctx)
	r.mu.Lock()
	r.cancel = cancel
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.cancel = nil
		r.mu.Unlock()
		cancel()
	}()
	// Positions count lines from the start of the session, so that an error
	// in a fn defined by an earlier input shows the right line: blank lines
	// in front of the input, and the whole session as the source of <stdin>.
	src = strings.Repeat("\n", start-1) + src
	err := safely(func() error { return r.It.Exec(ctx, "<stdin>", src, true) })
	if err != nil {
		r.failed = true
		printError(r.Stderr, r.It, err, r.source, r.Color)
	}
}

// source returns the text of file for an error report: the session so far
// for <stdin>.
func (r *REPL) source(file string) string {
	if file == "<stdin>" {
		return strings.Join(r.lines, "\n")
	}
	src, _ := r.It.Source(file)
	return src
}

func (r *REPL) setReading(on bool) {
	r.mu.Lock()
	r.reading = on
	r.mu.Unlock()
}

// Interrupt cancels the running statement, if any, and reports whether the
// REPL is waiting for input instead.
func (r *REPL) Interrupt() (reading bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel != nil {
		r.cancel()
	}
	return r.reading
}

// repl runs the REPL on the process's stdin: with readline on a terminal,
// without prompts otherwise. It returns the exit status.
func repl(cfg config, stdin io.Reader, stdout, stderr io.Writer) int {
	it, err := newInterp(cfg, ".", nil, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "tiny: %v\n", err)
		return 1
	}
	r := &REPL{It: it, Stderr: stderr, Color: cfg.colorFor(stderr)}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	if !isTerminal(stdin) {
		return pipedREPL(r, stdin, sigs)
	}
	go func() {
		for range sigs {
			r.Interrupt()
		}
	}()
	term, err := newTerminalReader(stdin.(*os.File), stdout, stderr, cfg, it)
	if err != nil { // no line editing: read plain lines
		fmt.Fprintf(stderr, "tiny: no line editing: %v\n", err)
		r.In = newPipeReader(stdin)
		r.Run(context.Background())
		return 0
	}
	defer term.Close()
	fmt.Fprintf(term.out, "%s%s. Ctrl-D or exit quits, TAB completes, tiny help has more.\n", version(), deviceNote(cfg))
	r.In, r.Quit, r.Interactive = term, true, true
	r.Run(context.Background())
	return 0
}

// pipedREPL runs r over lines from stdin, without prompts. Ctrl-C stops
// it: the running statement is cancelled and no more are read.
func pipedREPL(r *REPL, stdin io.Reader, sigs <-chan os.Signal) int {
	r.In = newPipeReader(stdin)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for range sigs {
			if r.Interrupt() {
				os.Exit(130) // waiting for input: nothing to clean up
			}
			cancel()
		}
	}()
	ok := r.Run(ctx)
	switch {
	case ctx.Err() != nil:
		return 130
	case !ok:
		return 1
	}
	return 0
}

// isQuit reports whether src is a request to leave the REPL.
func isQuit(src string) bool {
	s := strings.TrimSpace(src)
	return s == "exit" || s == "quit" || s == "exit()" || s == "quit()"
}

// deviceNote names the device the config picks, for the banner; the
// default is not named, since finding it means probing for a compiler.
func deviceNote(cfg config) string {
	if cfg.device == "" {
		return ""
	}
	return " on " + cfg.device
}

// promptColor returns how prompts are printed.
func promptColor(on bool) func(string) string {
	if !on {
		return func(s string) string { return s }
	}
	c := color.New(color.FgGreen, color.Bold)
	c.EnableColor()
	return func(s string) string { return c.Sprint(s) }
}
