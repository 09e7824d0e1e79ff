//go:build linux || darwin

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// console is the terminal side of a tiny REPL running on a pseudo-terminal.
type console struct {
	t    *testing.T
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	seen int // how much of out earlier expects consumed
	done chan struct{}
}

func startConsole(t *testing.T, home string, env ...string) (*console, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(tinyBinary(t))
	cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=xterm"}, env...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	c := &console{t: t, tty: tty, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			c.mu.Lock()
			c.out.Write(buf[:n])
			c.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		tty.Close()
	})
	return c, cmd
}

// expect waits until the output after the last match contains want.
func (c *console) expect(want string) {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		s := c.out.String()[c.seen:]
		if i := strings.Index(s, want); i >= 0 {
			c.seen += i + len(want)
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t.Fatalf("timed out waiting for %q; terminal shows after the last match:\n%q", want, c.out.String()[c.seen:])
}

func (c *console) send(s string) {
	c.t.Helper()
	if _, err := c.tty.Write([]byte(s)); err != nil {
		c.t.Fatal(err)
	}
}

// TestREPLTerminal drives the REPL as a user would: prompts, continuation,
// TAB completion, an error, Ctrl-C during a long loop, history, and exit;
// TestREPLTerminalEOF checks colored errors and Ctrl-D.
func TestREPLTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the REPL on a pseudo-terminal")
	}
	home := t.TempDir()
	c, cmd := startConsole(t, home, "NO_COLOR=1")
	c.expect("Ctrl-D")
	c.expect(">>> ")
	c.send("myvalue = [1, 2,\r")
	c.expect("... ")
	c.send("3]\r")
	c.expect(">>> ")
	c.send("myv\t")
	c.expect(">>> myvalue")
	c.send(".tol\t")
	c.expect(">>> myvalue.tolist")
	c.send("()\r")
	c.expect("\r\n[1, 2, 3]\r\n")
	c.expect(">>> ")
	c.send("myvalue + nope\r")
	c.expect("error: ")
	c.expect("    myvalue + nope\r\n")
	c.expect("^")
	c.expect(">>> ")
	c.send("i = 0; print(\"loop\" + \"ing\"); while true { i += 1 }\r")
	c.expect("looping") // running, so the terminal is out of raw mode
	time.Sleep(100 * time.Millisecond)
	c.send("\x03")
	c.expect("interrupted")
	c.expect(">>> ")
	c.send("myvalue.sum().item() + i * 0\r")
	c.expect("\r\n6\r\n")
	c.expect(">>> ")
	c.send("unfinished(\x03")
	c.expect("^C")
	c.expect(">>> ")
	c.send("exit\r")
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("tiny did not exit on exit")
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
	if h, err := os.ReadFile(filepath.Join(home, ".tiny_history")); err != nil || !strings.Contains(string(h), "myvalue = [1, 2,\n3]\n") {
		t.Errorf("history file: %v\n%s", err, h)
	}
	if testing.Verbose() {
		c.mu.Lock()
		t.Logf("terminal transcript:\n%q", c.out.String())
		c.mu.Unlock()
	}
}

func TestREPLTerminalEOF(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the REPL on a pseudo-terminal")
	}
	c, cmd := startConsole(t, t.TempDir()) // with color
	c.expect(">>> ")
	c.send("x = (1,\r")
	c.expect("... ")
	c.send("2)\r")
	c.expect(">>> ")
	c.send("x.nope\r")
	c.expect("\x1b[31;1merror:\x1b[0")
	c.expect(">>> ")
	c.send("\x04")
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("tiny did not exit on Ctrl-D")
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
}
