package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRunExitStatus(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.tiny", "print(\"ok\", args())\n")
	write("bad.tiny", "fn step(x) {\n  return x + undefined_name\n}\nprint(1)\nstep(2)\nprint(2)\n")
	write("syntax.tiny", "a = (1, 2\nb = 3\n")
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	write("sub/lib.tiny", "fn double(x) { return 2 * x }\n")
	write("sub/main.tiny", "import \"lib.tiny\" as lib\nimport \"nn\" as nn\nprint(lib.double(21), nn.relu(tensor([-1, 1])).tolist())\n")
	tests := []struct {
		args           []string
		status         int
		stdout, stderr string
	}{
		{[]string{"run", "ok.tiny", "a", "b"}, 0, "ok [\"a\", \"b\"]\n", ""},
		{[]string{"ok.tiny"}, 0, "ok []\n", ""},
		{[]string{"run", "sub/main.tiny"}, 0, "42 [0, 1]\n", ""},
		{[]string{"run", "bad.tiny"}, 1, "1\n",
			"bad.tiny:2:14: error: "},
		{[]string{"run", "syntax.tiny"}, 1, "", "syntax.tiny:"},
		{[]string{"run", "missing.tiny"}, 1, "", "tiny: open missing.tiny: "},
		{[]string{"run"}, 2, "", "tiny run: missing FILE.tiny"},
		{[]string{"-c", "print(1 + 2)"}, 0, "3\n", ""},
		{[]string{"-c", "print(args())", "x"}, 0, "[\"x\"]\n", ""},
		{[]string{"-c", "1 +"}, 1, "", "<string>:1:"},
		{[]string{"-c"}, 2, "", "tiny -c: missing CODE"},
		{[]string{"frobnicate"}, 2, "", "tiny: unknown command \"frobnicate\""},
		{[]string{"help"}, 0, "tiny is a tensor scripting language", ""},
		{[]string{"help", "nn"}, 0, "fn linear(x, w, b)\n", ""},
		{[]string{"help", "nope"}, 2, "", "tiny help: no module \"nope\""},
		{[]string{"version"}, 0, "tiny ", ""},
	}
	for _, tc := range tests {
		res := runTiny(t, dir, "", nil, tc.args...)
		if res.status != tc.status || !strings.Contains(res.stdout, tc.stdout) || !strings.HasPrefix(res.stderr, tc.stderr) || tc.stderr == "" && res.stderr != "" {
			t.Errorf("tiny %q: status %d, stdout %q, stderr %q; want %d, %q, %q",
				tc.args, res.status, res.stdout, res.stderr, tc.status, tc.stdout, tc.stderr)
		}
	}
}

// TestRunErrorFormat checks the whole error report: header, source line,
// caret, frames.
func TestRunErrorFormat(t *testing.T) {
	dir := t.TempDir()
	src := "a = [[1, 2, 3], [4, 5, 6]]\nfn step(b) {\n  c = a + b.sum(axis=0)\n  return c\n}\nstep(ones(4, 4))\n"
	if err := os.WriteFile(filepath.Join(dir, "model.tiny"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runTiny(t, dir, "", nil, "run", "model.tiny")
	want := "model.tiny:3:9: error: cannot broadcast shapes (2, 3) and (4,)\n" +
		"      c = a + b.sum(axis=0)\n" +
		"            ^\n" +
		"  in fn step (model.tiny:6:1)\n"
	if res.status != 1 || res.stderr != want {
		t.Errorf("status %d, stderr\n%s\nwant\n%s", res.status, res.stderr, want)
	}
}

func TestEnvironment(t *testing.T) {
	for _, env := range [][]string{{"DEBUG=x"}, {"DEBUG=-1"}} {
		if res := runTiny(t, ".", "", env, "-c", "print(1)"); res.status != 2 || !strings.HasPrefix(res.stderr, "tiny: DEBUG=") {
			t.Errorf("%v: status %d, stderr %q", env, res.status, res.stderr)
		}
	}
	if res := runTiny(t, ".", "", []string{"DEVICE=GPU9"}, "-c", "print(1)"); res.status != 1 || !strings.Contains(res.stderr, "GPU9") {
		t.Errorf("DEVICE=GPU9: status %d, stderr %q", res.status, res.stderr)
	}
	env := [][]string{{"DEBUG=1"}, {"DEBUG=1", "CPU=1"}, {"DEBUG=1", "DEVICE="}}
	if _, err := exec.LookPath("cc"); err == nil {
		env = append(env, []string{"DEBUG=1", "CLANG=1"}, []string{"DEBUG=1", "DEVICE=clang"})
	}
	for _, e := range env {
		device := "*** CPU" // runTiny pins DEVICE=CPU when env names no device
		if len(e) > 1 && strings.Contains(strings.ToUpper(e[1]), "CLANG") {
			device = "*** CLANG"
		} else if len(e) > 1 && e[1] == "DEVICE=" {
			device = "*** " // the default: CLANG where a C compiler works, else CPU
		}
		res := runTiny(t, ".", "", append(e, "XDG_CACHE_HOME="+t.TempDir()), "-c", "print(([1, 2] * 2).sum())")
		if res.status != 0 || !strings.Contains(res.stdout, device) || !strings.HasSuffix(res.stdout, "tensor(6, dtype=int32)\n") {
			t.Errorf("%v: status %d, stdout %q, stderr %q", e, res.status, res.stdout, res.stderr)
		}
		// Without a device named, DEBUG=1 says which one it chose and why.
		if chosen := strings.HasPrefix(res.stdout, "device "); chosen != (device == "*** ") {
			t.Errorf("%v: stdout %q: want a leading device line only for the default device", e, res.stdout)
		}
	}
}

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want config
	}{
		{nil, config{}},
		{map[string]string{"DEVICE": "clang", "CPU": "1"}, config{device: "CLANG"}},
		{map[string]string{"CPU": "1"}, config{device: "CPU"}},
		{map[string]string{"CLANG": "1", "CPU": "0"}, config{device: "CLANG"}},
		{map[string]string{"GPU": "1"}, config{device: "GPU"}},
		{map[string]string{"DEVICE": "gpu"}, config{device: "GPU"}},
		{map[string]string{"DEBUG": "3", "NO_COLOR": "1", "HOME": "/h"}, config{debug: 3, noColor: true, history: "/h/.tiny_history"}},
	}
	for _, tc := range tests {
		got, err := configFromEnv(func(k string) string { return tc.env[k] })
		if err != nil || got != tc.want {
			t.Errorf("configFromEnv(%v) = %+v, %v; want %+v", tc.env, got, err, tc.want)
		}
	}
}

func TestColorizeError(t *testing.T) {
	got := colorizeError("f.tiny:1:2: error: bad\n    x\n    ^", "E:")
	if want := "f.tiny:1:2: E: bad\n    x\n    ^"; got != want {
		t.Errorf("colorizeError = %q, want %q", got, want)
	}
}

// TestRunInterrupt sends SIGINT to a script in an endless loop, run with
// -c and piped into the REPL: it stops with the error at the loop and
// status 130.
func TestRunInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a signal")
	}
	src := "print(\"start\")\ni = 0\nwhile true { i += 1 }\nprint(\"after\")\n"
	interrupt(t, exec.Command(tinyBinary(t), "-c", src), "<string>:3:")
	cmd := exec.Command(tinyBinary(t))
	cmd.Stdin = strings.NewReader(src)
	interrupt(t, cmd, "<stdin>:3:")
}

// TestRunInterruptKernel sends SIGINT while one matmul kernel runs on the
// CPU device (about 30 s uninterrupted): the kernel stops between chunks
// of its loop and the script ends with the error at the statement.
func TestRunInterruptKernel(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a signal")
	}
	src := "a = rand(6144, 6144)\nprint(\"start\")\nb = (a @ a).sum().item()\nprint(\"after\")\n"
	cmd := exec.Command(tinyBinary(t), "-c", src)
	cmd.Env = []string{"DEVICE=CPU"}
	interrupt(t, cmd, "<string>:3:")
}

// interrupt starts cmd, waits for its first line, sends SIGINT and checks
// that it stops with status 130 and an error starting with errPrefix.
func interrupt(t *testing.T, cmd *exec.Cmd, errPrefix string) {
	t.Helper()
	cmd.Env = append(cmd.Env, "NO_COLOR=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for the script to start, so that the signal finds it running.
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // into the loop
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("tiny did not stop on SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.HasPrefix(stderr.String(), errPrefix) {
		t.Errorf("%v: status %d, stderr %q", cmd.Args, code, stderr.String())
	}
}

func TestSafelyAndPrintError(t *testing.T) {
	err := safely(func() error { panic("boom") })
	var buf bytes.Buffer
	printError(&buf, nil, err, func(string) string { return "" }, false)
	if got := buf.String(); got != "error: internal error: boom\n" {
		t.Errorf("printError = %q", got)
	}
	buf.Reset()
	printError(&buf, nil, errors.New("plain"), func(string) string { return "" }, true)
	if got := buf.String(); !strings.Contains(got, "\x1b[") || !strings.HasSuffix(got, " plain\n") {
		t.Errorf("colored printError = %q", got)
	}
}

// TestImportSymlinkEscape: an import cannot leave the script's directory,
// not even through a symbolic link that points out of it.
func TestImportSymlinkEscape(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "secret.tiny"), []byte("x = 42\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "app"), 0o755)
	if err := os.Symlink("../secret.tiny", filepath.Join(dir, "app", "link.tiny")); err != nil {
		t.Skip(err)
	}
	os.Symlink(dir, filepath.Join(dir, "app", "up"))
	os.WriteFile(filepath.Join(dir, "app", "inside.tiny"), []byte("y = 1\n"), 0o644)
	os.Symlink("inside.tiny", filepath.Join(dir, "app", "ok.tiny"))
	for _, tc := range []struct{ src, stdout, stderr string }{
		{`import "link.tiny" as s; print(s.x)`, "", "error: import \"link.tiny\": "},
		{`import "up/secret.tiny" as s; print(s.x)`, "", "error: import \"up/secret.tiny\": "},
		{`import "../secret.tiny" as s; print(s.x)`, "", "error: import \"../secret.tiny\": "},
		{`import "ok.tiny" as s; print(s.y)`, "1\n", ""},
	} {
		os.WriteFile(filepath.Join(dir, "app", "main.tiny"), []byte(tc.src+"\n"), 0o644)
		res := runTiny(t, dir, "", nil, "run", "app/main.tiny")
		if res.stdout != tc.stdout || !strings.Contains(res.stderr, tc.stderr) || (tc.stderr == "") != (res.stderr == "") {
			t.Errorf("%s: stdout %q, stderr %q", tc.src, res.stdout, res.stderr)
		}
	}
}

// failWriter fails every write, as stdout on a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A run whose output cannot be written fails with an error and status 1.
func TestStdoutWriteFailure(t *testing.T) {
	var stderr strings.Builder
	status := Main([]string{"-c", "print(1)"}, config{}, strings.NewReader(""), failWriter{}, &stderr)
	if status != 1 || !strings.Contains(stderr.String(), "no space left on device") {
		t.Errorf("status %d, stderr %q", status, stderr.String())
	}
}

// tiny run of an endless file stops with an error.
func TestRunEndlessFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	var stdout, stderr strings.Builder
	status := Main([]string{"run", "/dev/zero"}, config{}, strings.NewReader(""), &stdout, &stderr)
	if status != 1 || !strings.Contains(stderr.String(), "too large") {
		t.Errorf("status %d, stderr %q", status, stderr.String())
	}
}
