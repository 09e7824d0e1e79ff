package main

// This file defines the REPL's two LineReaders: readline on a terminal, and
// plain lines from a pipe.

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strings"
	"unicode"

	"github.com/chzyer/readline"

	"tiny/interp"
)

// terminalReader reads lines with editing, history and completion.
type terminalReader struct {
	rl    *readline.Instance
	out   io.Writer // where prompts go
	paint func(string) string
}

// newTerminalReader opens readline on the terminal in, showing prompts on
// stdout, or on stderr when only stderr is a terminal (tiny > file).
func newTerminalReader(in *os.File, stdout, stderr io.Writer, cfg config, it *interp.Interp) (*terminalReader, error) {
	out := stdout
	if !isTerminal(stdout) && isTerminal(stderr) {
		out = stderr
	}
	color := cfg.colorFor(out)
	paint := promptColor(color)
	rl, err := readline.NewEx(&readline.Config{
		Prompt:                 paint(promptNew),
		HistoryFile:            cfg.history,
		DisableAutoSaveHistory: true,
		HistorySearchFold:      true,
		AutoComplete:           completer{it},
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
		Stdin:                  in,
		Stdout:                 out,
		FuncIsTerminal:         func() bool { return true },
	})
	if err != nil {
		return nil, err
	}
	return &terminalReader{rl: rl, out: out, paint: paint}, nil
}

func (t *terminalReader) ReadLine(prompt string) (string, error) {
	t.rl.SetPrompt(t.paint(prompt))
	line, err := t.rl.Readline()
	if errors.Is(err, readline.ErrInterrupt) {
		return "", errInterrupt
	}
	return line, err
}

// AddHistory saves each line of input as its own entry, as Python's REPL
// does: joining them could change their meaning, since a newline ends a
// statement outside brackets.
func (t *terminalReader) AddHistory(input string) {
	for _, line := range strings.Split(input, "\n") {
		if strings.TrimSpace(line) != "" {
			t.rl.SaveHistory(line)
		}
	}
}

func (t *terminalReader) Close() error { return t.rl.Close() }

// completer adapts the interpreter's completions to readline.
type completer struct{ it *interp.Interp }

// Do returns the completions of the word before pos as the suffixes that
// complete it, and the word's length. The interpreter's candidates are the
// whole line up to pos with the word completed.
func (c completer) Do(line []rune, pos int) ([][]rune, int) {
	start := pos
	for start > 0 && isWordRune(line[start-1]) {
		start--
	}
	head := string(line[:pos])
	var out [][]rune
	for _, cand := range c.it.Completions(head) {
		if suffix, ok := strings.CutPrefix(cand, head); ok {
			out = append(out, []rune(suffix))
		}
	}
	return out, pos - start
}

// isWordRune reports whether r can be part of a name.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// pipeReader reads lines from a non-terminal stdin, showing no prompts.
type pipeReader struct {
	r      *bufio.Reader
	next   string // a line read ahead by PeekLine
	err    error  // and the error that came with it
	peeked bool
}

func newPipeReader(r io.Reader) *pipeReader { return &pipeReader{r: bufio.NewReader(r)} }

func (p *pipeReader) ReadLine(string) (string, error) {
	if p.peeked {
		p.peeked = false
		return p.next, p.err
	}
	line, err := p.r.ReadString('\n')
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if err == io.EOF && line != "" {
		return line, nil
	}
	return line, err
}

// PeekLine returns the next line without consuming it, and whether there
// is one.
func (p *pipeReader) PeekLine() (string, bool) {
	if !p.peeked {
		p.next, p.err = p.ReadLine("")
		p.peeked = true
	}
	return p.next, p.err == nil
}

func (p *pipeReader) AddHistory(string) {}
