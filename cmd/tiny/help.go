package main

import (
	"fmt"
	"io"
	"strings"

	"tiny/stdlib"
)

const usage = `tiny is a tensor scripting language built on tinygrad's ideas.

Usage:

	tiny                        start the REPL
	tiny run FILE.tiny [ARGS]   run a script; args() returns ARGS as strings
	tiny run - [ARGS]           run a script read from stdin
	tiny -c 'CODE' [ARGS]       run CODE
	tiny kernel FILE            the Jupyter kernel on connection file FILE
	                            (Jupyter starts it; see docs/jupyter.md)
	tiny kernel install [--user|--prefix DIR]
	                            let Jupyter start this binary as kernel
	                            "tiny": writes kernels/tiny/kernel.json in
	                            the user's Jupyter data dir ($JUPYTER_DATA_DIR,
	                            else ~/.local/share/jupyter) or DIR/share/jupyter
	tiny help [MODULE]          this text, or the docs of a library module
	tiny version                print the version

A failing script prints its error to stderr as
	FILE:LINE:COL: error: MESSAGE
then the source line, a caret and the call frames, and tiny exits with
status 1 (130 when interrupted by Ctrl-C, 2 for a usage error).

The REPL echoes the value of each expression, continues a statement on the
next line ("... ") while a bracket or brace is open, completes names with
TAB, keeps its history in ~/.tiny_history, and survives errors, which name
the line of the session ("<stdin>:12:3"). Ctrl-C cancels the running
statement or the line being typed; Ctrl-D at "... " drops the pending
statement, and at ">>> " (or exit, quit) leaves. help(x) and dir(x)
describe a value.
When stdin is not a terminal, the REPL reads it without prompts: each
statement runs in turn, values are echoed, an error is printed and the
next statement still runs, and the exit status is 1 if any statement
failed; Ctrl-C stops the whole input (status 130).

Library modules (import "nn" as nn): %s

Environment:

	DEVICE=CPU|CLANG   the device that runs kernels (also CPU=1 or CLANG=1);
	                   by default CLANG where a C compiler works, else CPU;
	                   DEVICE=REF interprets each uop in order (slow, to debug)
	DEBUG=1..4         print kernels and times (1), the schedule (2),
	                   the uops (3), the generated code (4)
	NO_COLOR=1         never color the output (it is colored only on a terminal)
	CC                 the C compiler of the CLANG device (else cc, gcc, clang)
	TINY_CACHE_MAX     the bound of CLANG's kernel cache in
	                   $XDG_CACHE_HOME/tiny or ~/.cache/tiny (default 256M)
`

// help prints the usage text, or with an argument the docs of a stdlib
// module, and returns the exit status.
func help(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stdout, usage, strings.Join(stdlib.Modules(), ", "))
		return 0
	}
	docs, ok := stdlib.Docs(args[0])
	if !ok {
		fmt.Fprintf(stderr, "tiny help: no module %q (have %s)\n", args[0], strings.Join(stdlib.Modules(), ", "))
		return 2
	}
	fmt.Fprintf(stdout, "%s\n", docs[0].Text)
	for _, d := range docs[1:] {
		fmt.Fprintf(stdout, "\nfn %s\n", d.Signature)
		for _, line := range strings.Split(d.Text, "\n") {
			fmt.Fprintf(stdout, "    %s\n", line)
		}
	}
	return 0
}
