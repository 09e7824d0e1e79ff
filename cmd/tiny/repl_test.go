package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"tiny/interp"
)

// fakeReader feeds the REPL lines and records the prompts it showed.
type fakeReader struct {
	lines   []string
	prompts []string
	history []string
}

func (f *fakeReader) ReadLine(prompt string) (string, error) {
	f.prompts = append(f.prompts, prompt)
	if len(f.lines) == 0 {
		return "", io.EOF
	}
	line := f.lines[0]
	f.lines = f.lines[1:]
	if line == "^C" {
		return "", errInterrupt
	}
	if line == "^D" {
		return "", io.EOF
	}
	return line, nil
}

func (f *fakeReader) AddHistory(input string) { f.history = append(f.history, input) }

// replRun runs the REPL over lines and returns its output, errors, the
// reader and whether all inputs succeeded.
func replRun(t *testing.T, lines ...string) (string, string, *fakeReader, bool) {
	t.Helper()
	return replRunMode(t, false, lines...)
}

// replRunMode is replRun, as a person at a terminal when interactive.
func replRunMode(t *testing.T, interactive bool, lines ...string) (string, string, *fakeReader, bool) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	it, err := interp.New(interp.Options{Stdout: &stdout, Stderr: &stderr, Device: "CPU"})
	if err != nil {
		t.Fatal(err)
	}
	in := &fakeReader{lines: lines}
	r := &REPL{It: it, In: in, Stderr: &stderr, Interactive: interactive}
	ok := r.Run(context.Background())
	return stdout.String(), stderr.String(), in, ok
}

// TestREPLCtrlDAtContinuation: Ctrl-D at a "... " prompt drops the pending
// statement and the session goes on at ">>> ", as in Python; at ">>> " it
// ends the session.
func TestREPLCtrlDAtContinuation(t *testing.T) {
	out, errs, in, ok := replRunMode(t, true, "y = [1,", "  2,", "^D", "y = 5", "y", "^D", "y")
	if !ok || errs != "" || out != "5\n" {
		t.Errorf("ok %v, output %q, errors %q", ok, out, errs)
	}
	if want := ">>> |... |... |>>> |>>> |>>> "; strings.Join(in.prompts, "|") != want {
		t.Errorf("prompts %q, want %q", strings.Join(in.prompts, "|"), want)
	}
}

// TestREPLElseOnNextLine types "}" and "else" on separate lines, as
// docs/language.md allows: after a multi-line if the REPL waits one line
// for an else; any other line runs the if and then itself.
func TestREPLElseOnNextLine(t *testing.T) {
	out, errs, in, ok := replRunMode(t, true,
		"x = 2", "if x > 5 {", "  print(\"big\")", "}", "else {", "  print(\"small\")", "}", "",
		"if x > 1 {", "  print(\"one\")", "}", "print(\"next\")",
		"if x { print(\"inline\") }", "if x > 5 {", "}", "else if x > 1 {", "  print(\"elif\")", "}", "^D")
	if !ok || errs != "" || out != "small\none\nnext\ninline\nelif\n" {
		t.Errorf("ok %v, output %q, errors %q", ok, out, errs)
	}
	if len(in.history) != 6 || in.history[1] != "if x > 5 {\n  print(\"big\")\n}\nelse {\n  print(\"small\")\n}" {
		t.Errorf("history %q", in.history)
	}
}

func TestREPLContinuation(t *testing.T) {
	out, errs, in, ok := replRun(t, "a = [1, 2,", "  3]", "", "fn f(x) {", "  return x * 10", "}", "f(a).tolist()")
	if !ok || errs != "" {
		t.Fatalf("errors: %s", errs)
	}
	if want := "[10, 20, 30]\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	wantPrompts := ">>> |... |>>> |>>> |... |... |>>> |>>> "
	if got := strings.Join(in.prompts, "|"); got != wantPrompts {
		t.Errorf("prompts %q, want %q", got, wantPrompts)
	}
	if len(in.history) != 3 || in.history[0] != "a = [1, 2,\n  3]" {
		t.Errorf("history %q", in.history)
	}
}

func TestREPLErrorKeepsState(t *testing.T) {
	out, errs, _, ok := replRun(t, "x = 41", "x + nope", "x + 1", "y = (1,", "^C", "x")
	if ok {
		t.Error("Run reported success after an error")
	}
	if want := "42\n41\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	if !strings.HasPrefix(errs, "<stdin>:2:5: error: ") || !strings.Contains(errs, "    x + nope\n        ^\n") {
		t.Errorf("errors %q", errs)
	}
}

func TestREPLUnclosedAtEOF(t *testing.T) {
	_, errs, _, ok := replRun(t, "print(1,")
	if ok || !strings.HasPrefix(errs, "<stdin>:") {
		t.Errorf("ok %v, errors %q", ok, errs)
	}
}

// TestREPLPiped drives the binary's REPL through a pipe: no prompts,
// values echoed, errors with the line of the whole input, status 1.
func TestREPLPiped(t *testing.T) {
	stdin := "a = [[1, 2],\n     [3, 4]]\na.sum().item()\nprint(a.T.tolist())\na.nope\n\"still here\"\n"
	res := runTiny(t, t.TempDir(), stdin, nil)
	if want := "10\n[[1, 3], [2, 4]]\n\"still here\"\n"; res.stdout != want {
		t.Errorf("stdout %q, want %q", res.stdout, want)
	}
	if res.status != 1 || !strings.HasPrefix(res.stderr, "<stdin>:5:") {
		t.Errorf("status %d, stderr %q", res.status, res.stderr)
	}
	if res := runTiny(t, t.TempDir(), "1 + 1\n", nil); res.status != 0 || res.stdout != "2\n" {
		t.Errorf("1 + 1: %+v", res)
	}
}

func TestRunStdin(t *testing.T) {
	res := runTiny(t, t.TempDir(), "x = 2\nx\nprint(x * 3)\n", nil, "run", "-")
	if res.status != 0 || res.stdout != "6\n" {
		t.Errorf("tiny run -: %+v", res)
	}
}

// TestREPLPipedElse runs an if statement whose else is on the line after
// the closing brace, as a script may write it.
func TestREPLPipedElse(t *testing.T) {
	var stdout, stderr bytes.Buffer
	it, err := interp.New(interp.Options{Stdout: &stdout, Stderr: &stderr, Device: "CPU"})
	if err != nil {
		t.Fatal(err)
	}
	in := newPipeReader(strings.NewReader("x = 2\nif x > 5 {\n  print(\"big\")\n}\nelse {\n  print(\"small\")\n}\nelsewhere = 1\nelsewhere\n"))
	r := &REPL{It: it, In: in, Stderr: &stderr}
	if !r.Run(context.Background()) || stdout.String() != "small\n1\n" {
		t.Errorf("output %q, errors %q", stdout.String(), stderr.String())
	}
}

// TestREPLErrorInEarlierInput calls a fn defined by an earlier input: the
// error shows the fn's line, and the frame the call's.
func TestREPLErrorInEarlierInput(t *testing.T) {
	_, errs, _, _ := replRun(t, "fn f(x) {", "  return x + nope", "}", "y = 1", "f(y)")
	want := "<stdin>:2:14: error: undefined: nope\n    " + "  return x + nope\n" + strings.Repeat(" ", 4+13) + "^\n  in fn f (<stdin>:5:"
	if !strings.HasPrefix(errs, want) {
		t.Errorf("errors\n%s\nwant\n%s", errs, want)
	}
}
