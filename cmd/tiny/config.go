package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mattn/go-isatty"
)

// config is what tiny takes from its environment, read once in main.
// The zero value runs on the default device, without debug output or color.
type config struct {
	device  string // "" for the interpreter's default
	debug   int    // DEBUG level, 0..4
	noColor bool   // NO_COLOR is set
	history string // the REPL's history file; "" keeps none
}

// configFromEnv reads DEVICE (or CPU=1, CLANG=1, GPU=1), DEBUG, NO_COLOR and HOME
// through getenv.
func configFromEnv(getenv func(string) string) (config, error) {
	var c config
	c.device = strings.ToUpper(strings.TrimSpace(getenv("DEVICE")))
	for _, name := range []string{"CPU", "CLANG", "GPU"} {
		if c.device == "" && isTrue(getenv(name)) {
			c.device = name
		}
	}
	if d := strings.TrimSpace(getenv("DEBUG")); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return c, fmt.Errorf("DEBUG=%s: want a level from 0 to 4", d)
		}
		c.debug = n
	}
	c.noColor = getenv("NO_COLOR") != ""
	if home := getenv("HOME"); home != "" {
		c.history = filepath.Join(home, ".tiny_history")
	}
	return c, nil
}

// isTrue reports whether an environment flag like CPU=1 is on.
func isTrue(v string) bool {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return err == nil && n != 0
}

// isTerminal reports whether f is an *os.File on a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && (isatty.IsTerminal(file.Fd()) || isatty.IsCygwinTerminal(file.Fd()))
}

// colorFor reports whether output to w may be colored.
func (c config) colorFor(w io.Writer) bool {
	return !c.noColor && isTerminal(w)
}
