package main

// This file drives "tiny kernel" end to end from Go, as a frontend would:
// a zmq4 DEALER on shell and control, a SUB on iopub and a REQ on the
// heartbeat.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"tiny/jupyter"
)

// frontend is a test client of one kernel process.
type frontend struct {
	t       *testing.T
	key     []byte
	session string
	shell   zmq4.Socket
	control zmq4.Socket
	hb      zmq4.Socket
	// replies and iopub receive what the kernel sends, decoded.
	replies, controls, iopub chan *jupyter.Message
}

// startKernel starts tiny kernel on a fresh connection file and connects
// a frontend to it. The kernel's stderr is logged if the test fails.
func startKernel(t *testing.T) (*frontend, *exec.Cmd) {
	dir := t.TempDir()
	path, conn := writeConnection(t, dir)
	cmd := exec.Command(tinyBinary(t), "kernel", path)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "DEVICE=CPU"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("kernel stderr:\n%s", stderr.String())
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	addr := func(port string) string { return fmt.Sprintf("tcp://127.0.0.1:%v", conn[port]) }
	f := &frontend{t: t, key: []byte(conn["key"].(string)), session: "test-session",
		shell:   zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("shell-client"))),
		control: zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("control-client"))),
		hb:      zmq4.NewReq(ctx),
		replies: make(chan *jupyter.Message, 100), controls: make(chan *jupyter.Message, 100),
		iopub: make(chan *jupyter.Message, 1000),
	}
	sub := zmq4.NewSub(ctx)
	for _, s := range []struct {
		sock zmq4.Socket
		port string
	}{{f.shell, "shell_port"}, {f.control, "control_port"}, {sub, "iopub_port"}, {f.hb, "hb_port"}} {
		if err := s.sock.Dial(addr(s.port)); err != nil {
			t.Fatalf("dial %s: %v", s.port, err)
		}
		t.Cleanup(func() { s.sock.Close() })
	}
	sub.SetOption(zmq4.OptionSubscribe, "")
	go f.read(f.shell, f.replies)
	go f.read(f.control, f.controls)
	go f.read(sub, f.iopub)
	return f, cmd
}

// read decodes the messages of sock into ch until it is closed.
func (f *frontend) read(sock zmq4.Socket, ch chan<- *jupyter.Message) {
	for {
		raw, err := sock.Recv()
		if err != nil {
			return
		}
		m, err := jupyter.Decode(raw.Frames, f.key)
		if err != nil {
			f.t.Errorf("the kernel sent a bad message: %v", err)
			continue
		}
		ch <- m
	}
}

// send sends a request on sock and returns it.
func (f *frontend) send(sock zmq4.Socket, typ string, content any) *jupyter.Message {
	f.t.Helper()
	return f.sendSigned(sock, f.key, typ, content)
}

// sendSigned sends a request signed with key.
func (f *frontend) sendSigned(sock zmq4.Socket, key []byte, typ string, content any) *jupyter.Message {
	f.t.Helper()
	m, err := jupyter.NewMessage(f.session, typ, nil, content)
	if err != nil {
		f.t.Fatal(err)
	}
	frames, _ := m.Encode(key)
	if err := sock.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		f.t.Fatalf("send %s: %v", typ, err)
	}
	return m
}

// wait returns the next message of ch that answers req.
func (f *frontend) wait(ch <-chan *jupyter.Message, req *jupyter.Message, timeout time.Duration) *jupyter.Message {
	f.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case m := <-ch:
			if parentID(m) == req.Header.MsgID {
				return m
			}
		case <-deadline:
			f.t.Fatalf("no answer to %s within %v", req.Header.MsgType, timeout)
		}
	}
}

func parentID(m *jupyter.Message) string {
	var h jupyter.Header
	_ = json.Unmarshal(m.ParentHeader, &h)
	return h.MsgID
}

// handshake sends kernel_info requests until iopub carries their status,
// as jupyter_client does, so that no iopub message is lost later.
func (f *frontend) handshake() map[string]any {
	f.t.Helper()
	for range 100 {
		req := f.send(f.shell, "kernel_info_request", map[string]any{})
		reply := f.wait(f.replies, req, 10*time.Second)
		select {
		case <-f.iopub:
			for len(f.iopub) > 0 {
				<-f.iopub
			}
			return content(f.t, reply)
		case <-time.After(100 * time.Millisecond):
		}
	}
	f.t.Fatal("iopub never connected")
	return nil
}

// execute runs code and returns the reply's content and the iopub
// messages answering it up to status idle, as "type: content".
func (f *frontend) execute(code string) (map[string]any, []string) {
	f.t.Helper()
	req := f.send(f.shell, "execute_request", map[string]any{"code": code, "silent": false})
	var pub []string
	for {
		m := f.wait(f.iopub, req, 30*time.Second)
		pub = append(pub, m.Header.MsgType+": "+string(m.Content))
		if m.Header.MsgType == "status" && strings.Contains(string(m.Content), "idle") {
			break
		}
	}
	return content(f.t, f.wait(f.replies, req, 10*time.Second)), pub
}

func content(t *testing.T, m *jupyter.Message) map[string]any {
	t.Helper()
	var c map[string]any
	if err := m.Unmarshal(&c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestKernelEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the kernel")
	}
	f, cmd := startKernel(t)
	info := f.handshake()
	if info["protocol_version"] != "5.3" || info["implementation"] != "tiny" {
		t.Errorf("kernel_info: %v", info)
	}

	cells := []struct {
		code   string
		status string
		pub    []string // substrings of the iopub messages, in order
	}{
		{"x = 2\nprint(\"x is\", x)", "ok", []string{`status: {"execution_state":"busy"}`,
			`execute_input: {"code":"x = 2\nprint(\"x is\", x)","execution_count":1}`,
			`stream: {"name":"stdout","text":"x is 2\n"}`, `status: {"execution_state":"idle"}`}},
		{"x * 21", "ok", []string{"execute_input", `execute_result: {"data":{"text/plain":"42"},"execution_count":2`}},
		{"y = 1\nz = x.nope + 1", "error", []string{"execute_input",
			`error: {"ename":"EvalError","evalue":"int has no attribute nope","traceback":["\u003ccell 3\u003e:2:7: error: int has no attribute nope","    z = x.nope + 1","          ^"]}`}},
		{"t = (x + y) * ones(2)\nt", "ok", []string{`"text/plain":"tensor([3.0, 3.0])"`}},
	}
	for i, c := range cells {
		reply, pub := f.execute(c.code)
		if reply["status"] != c.status || reply["execution_count"] != float64(i+1) {
			t.Errorf("%q: reply %v", c.code, reply)
		}
		if !inOrder(pub, c.pub) {
			t.Errorf("%q published\n%s\nwant in order\n%s", c.code, strings.Join(pub, "\n"), strings.Join(c.pub, "\n"))
		}
	}

	req := f.send(f.shell, "complete_request", map[string]any{"code": "print(t.resh", "cursor_pos": 12})
	if c := content(t, f.wait(f.replies, req, 10*time.Second)); fmt.Sprint(c["matches"]) != "[reshape]" || c["cursor_start"] != 8.0 {
		t.Errorf("complete: %v", c)
	}
	for code, want := range map[string]string{"fn f(a) {\n  a": "incomplete", "f = 1": "complete", "f = )": "invalid"} {
		req := f.send(f.shell, "is_complete_request", map[string]any{"code": code})
		if c := content(t, f.wait(f.replies, req, 10*time.Second)); c["status"] != want {
			t.Errorf("is_complete %q: %v, want %s", code, c, want)
		}
	}

	// A message signed with another key is dropped: the cell never runs.
	f.sendSigned(f.shell, []byte("wrong"), "execute_request", map[string]any{"code": "unsigned = 1"})
	if reply, _ := f.execute("unsigned"); reply["status"] != "error" {
		t.Errorf("a badly signed cell ran: %v", reply)
	}

	// Interrupt an endless loop through the control socket.
	loop := f.send(f.shell, "execute_request", map[string]any{"code": "n = 0\nwhile true { n += 1 }"})
	f.wait(f.iopub, loop, 10*time.Second) // busy
	time.Sleep(200 * time.Millisecond)
	intr := f.send(f.control, "interrupt_request", map[string]any{})
	if c := content(t, f.wait(f.controls, intr, 10*time.Second)); c["status"] != "ok" {
		t.Errorf("interrupt_reply: %v", c)
	}
	if c := content(t, f.wait(f.replies, loop, 10*time.Second)); c["ename"] != "Interrupted" ||
		!strings.Contains(fmt.Sprint(c["traceback"]), "error: interrupted") {
		t.Errorf("interrupted cell: %v", c)
	}
	if reply, pub := f.execute("n > 0"); reply["status"] != "ok" || !inOrder(pub, []string{`"text/plain":"true"`}) {
		t.Errorf("after the interrupt: %v %q", reply, pub)
	}

	if err := f.hb.Send(zmq4.NewMsgString("ping")); err != nil {
		t.Fatal(err)
	}
	if m, err := f.hb.Recv(); err != nil || string(m.Bytes()) != "ping" {
		t.Errorf("heartbeat: %q %v", m.Bytes(), err)
	}

	bye := f.send(f.control, "shutdown_request", map[string]any{"restart": false})
	if c := content(t, f.wait(f.controls, bye, 10*time.Second)); c["status"] != "ok" || c["restart"] != false {
		t.Errorf("shutdown_reply: %v", c)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("kernel exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the kernel did not exit after shutdown_request")
	}
}

// inOrder reports whether each of want is a substring of a message of pub,
// in order.
func inOrder(pub, want []string) bool {
	i := 0
	for _, p := range pub {
		if i < len(want) && strings.Contains(p, want[i]) {
			i++
		}
	}
	return i == len(want)
}
