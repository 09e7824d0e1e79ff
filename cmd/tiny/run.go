package main

// This file defines the run loop shared by "tiny run", "tiny -c" and the
// REPL: making an interpreter from the config, running source with every
// panic recovered, and printing errors in the contract's format.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/fatih/color"

	"tiny/interp"
	"tiny/lang"
)

// newInterp makes an interpreter that writes to stdout and stderr, may
// import files under dir (and the standard library), and returns args
// from args().
func newInterp(cfg config, dir string, args []string, stdout, stderr io.Writer) (*interp.Interp, error) {
	return interp.New(interpOptions(cfg, dir, args, stdout, stderr))
}

// interpOptions are the options of newInterp.
func interpOptions(cfg config, dir string, args []string, stdout, stderr io.Writer) interp.Options {
	return interp.Options{
		Stdout:   stdout,
		Stderr:   stderr,
		Device:   cfg.device,
		Debug:    cfg.debug,
		Imports:  importFS(dir),
		Args:     args,
		Files:    true,
		MaxBytes: memoryLimit(),
	}
}

// memoryLimit is the bound on the bytes of tensor buffers a script may
// hold: $TINY_MAX_MEMORY bytes (K, M, G suffixes) if set, else three
// quarters of the machine's memory, so that a script that asks for too
// much stops with an error instead of being killed.
func memoryLimit() int64 {
	if v := os.Getenv("TINY_MAX_MEMORY"); v != "" {
		if n, ok := parseBytes(v); ok {
			return n
		}
	}
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		var kb int64
		if _, err := fmt.Sscanf(l, "MemTotal: %d kB", &kb); err == nil {
			return kb << 10 / 4 * 3
		}
	}
	return 0
}

// parseBytes parses a byte count with an optional K, M or G suffix.
func parseBytes(s string) (int64, bool) {
	mul := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mul, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mul, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mul, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	var n int64
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil || n < 0 {
		return 0, false
	}
	return n * mul, true
}

// maxSource is the largest script tiny runs.
const maxSource = 64 << 20

// readSource reads a script of at most maxSource bytes: a huge or endless
// file (/dev/zero) is an error, not an exhausted memory.
func readSource(r io.Reader, name string) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(r, maxSource+1))
	if err == nil && len(src) > maxSource {
		err = fmt.Errorf("%s: larger than %d MiB, too large to run", name, maxSource>>20)
	}
	return src, err
}

// importFS returns the files under dir for imports. It is an os.Root, so
// that a symbolic link cannot lead an import out of dir.
func importFS(dir string) fs.FS {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return os.DirFS(dir) // dir cannot be opened: every read fails too
	}
	return r.FS()
}

// runFile runs the script at path ("-" for stdin) and returns the exit status.
func runFile(cfg config, path string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var src []byte
	var err error
	name, dir := path, filepath.Dir(path)
	if path == "-" {
		name, dir = "<stdin>", "."
		src, err = readSource(stdin, name)
	} else {
		var f *os.File
		if f, err = os.Open(path); err == nil {
			src, err = readSource(f, path)
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "tiny: %v\n", err)
		return 1
	}
	return runCode(cfg, name, src, args, dir, stdout, stderr)
}

// runCode runs src as a script named name, interruptible by Ctrl-C, and
// returns the exit status.
func runCode(cfg config, name string, src []byte, args []string, dir string, stdout, stderr io.Writer) int {
	it, err := newInterp(cfg, dir, args, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "tiny: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills the process
	}()
	err = safely(func() error { return it.ExecFile(ctx, name, src) })
	if err == nil {
		return 0
	}
	printError(stderr, it, err, nil, cfg.colorFor(stderr))
	if ctx.Err() != nil {
		return 130
	}
	return 1
}

// internalError is a panic that escaped the interpreter.
type internalError struct{ v any }

func (e internalError) Error() string { return fmt.Sprintf("internal error: %v", e.v) }

// safely calls f, turning a panic into an internalError.
func safely(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError{r}
		}
	}()
	return f()
}

// printError writes err to w as the contract formats it, with "error:" in
// red when colored. source returns the text of a file the error may point
// into; nil means the sources the interpreter ran.
func printError(w io.Writer, it *interp.Interp, err error, source func(string) string, colored bool) {
	if source == nil {
		source = func(file string) string {
			src, _ := it.Source(file)
			return src
		}
	}
	var text string
	var ie internalError
	if errors.As(err, &ie) {
		text = "error: " + ie.Error()
	} else if text = safeFormat(err, source); text == "" {
		text = "error: " + err.Error()
	} else if header, _, _ := strings.Cut(text, "\n"); !strings.Contains(header, "error:") {
		text = "error: " + text // an error without a position
	}
	if colored {
		red := color.New(color.FgRed, color.Bold)
		red.EnableColor()
		text = colorizeError(text, red.Sprint("error:"))
	}
	fmt.Fprintln(w, text)
}

// colorizeError replaces the first "error:" of an error's header line.
func colorizeError(text, colored string) string {
	header, rest, _ := strings.Cut(text, "\n")
	if i := strings.Index(header, "error:"); i >= 0 {
		header = header[:i] + colored + header[i+len("error:"):]
	}
	if rest == "" {
		return header
	}
	return header + "\n" + rest
}

// safeFormat is lang.FormatWith, returning "" if formatting panics.
func safeFormat(err error, source func(string) string) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	return lang.FormatWith(err, source)
}
