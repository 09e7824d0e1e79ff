// Command tiny runs tiny scripts and the tiny REPL.
//
//	tiny                      the REPL (reads a script from stdin when it is not a terminal)
//	tiny run FILE.tiny [args] run a script; args() returns args
//	tiny -c 'CODE' [args]     run code from the command line
//	tiny kernel CONN_FILE     the Jupyter kernel (package jupyter)
//	tiny kernel install       write its kernelspec for Jupyter
//	tiny help [nn]            usage, or the docs of a stdlib module
//	tiny version              the version
//
// The environment is read once, here, and handed to the interpreter:
// DEVICE=CPU|CLANG (or CPU=1, CLANG=1), DEBUG=1..4 and NO_COLOR. The work
// itself is done by Main and the run loop (run.go) and REPL (repl.go), so
// that tests drive them with buffers.
package main

import (
	"os"
)

func main() {
	cfg, err := configFromEnv(os.Getenv)
	if err != nil {
		os.Stderr.WriteString("tiny: " + err.Error() + "\n")
		os.Exit(2)
	}
	os.Exit(Main(os.Args[1:], cfg, os.Stdin, os.Stdout, os.Stderr))
}
