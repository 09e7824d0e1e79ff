package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// Main runs the tiny command with args (without the program name) and
// returns the exit status: 0 on success, 1 when a script fails, 2 for a
// usage error, 130 when interrupted.
func Main(args []string, cfg config, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "tiny: internal error: %v\n", r)
			status = 1
		}
	}()
	if len(args) == 0 {
		return repl(cfg, stdin, stdout, stderr)
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "run":
		if len(rest) == 0 {
			fmt.Fprintln(stderr, "tiny run: missing FILE.tiny (see tiny help)")
			return 2
		}
		return runFile(cfg, rest[0], rest[1:], stdin, stdout, stderr)
	case "-c":
		if len(rest) == 0 {
			fmt.Fprintln(stderr, "tiny -c: missing CODE (see tiny help)")
			return 2
		}
		return runCode(cfg, "<string>", []byte(rest[0]), rest[1:], ".", stdout, stderr)
	case "kernel":
		return kernelCmd(cfg, rest, os.Getenv, stdout, stderr)
	case "help", "-h", "-help", "--help":
		return help(rest, stdout, stderr)
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, version())
		return 0
	default:
		if strings.HasSuffix(cmd, ".tiny") {
			return runFile(cfg, cmd, rest, stdin, stdout, stderr)
		}
		fmt.Fprintf(stderr, "tiny: unknown command %q (see tiny help)\n", cmd)
		return 2
	}
}

// version returns "tiny VERSION GOVERSION OS/ARCH".
func version() string {
	v := "devel"
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " " + s.Value[:12]
			}
		}
	}
	return fmt.Sprintf("tiny %s %s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
