package jupyter

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"tiny/interp"
)

// TestRunIPC runs a kernel in this process on the ipc transport, asks it
// for its info and a cell, and shuts it down: Run returns.
func TestRunIPC(t *testing.T) {
	dir := t.TempDir()
	conn := Connection{Transport: "ipc", IP: filepath.Join(dir, "kernel"), ShellPort: 1, ControlPort: 2,
		StdinPort: 3, IOPubPort: 4, HBPort: 5, Key: "key", SignatureScheme: "hmac-sha256"}
	k, err := New(conn, Options{Interp: interp.Options{Device: "CPU"}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- k.Run(context.Background()) }()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	shell := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("s")))
	control := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("c")))
	defer shell.Close()
	defer control.Close()
	for sock, port := range map[zmq4.Socket]int{shell: conn.ShellPort, control: conn.ControlPort} {
		if err := dialRetry(sock, conn.Addr(port)); err != nil {
			t.Fatal(err)
		}
	}
	ask := func(sock zmq4.Socket, typ string, content any) map[string]any {
		t.Helper()
		req, _ := NewMessage("client", typ, nil, content)
		frames, _ := req.Encode([]byte(conn.Key))
		if err := sock.Send(zmq4.NewMsgFrom(frames...)); err != nil {
			t.Fatal(err)
		}
		raw, err := sock.Recv()
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(raw.Frames, []byte(conn.Key))
		if err != nil {
			t.Fatal(err)
		}
		var c map[string]any
		m.Unmarshal(&c)
		return c
	}
	if c := ask(shell, "kernel_info_request", map[string]any{}); c["implementation"] != "tiny" {
		t.Errorf("kernel_info: %v", c)
	}
	if c := ask(shell, "execute_request", map[string]any{"code": "1 + 1"}); c["status"] != "ok" {
		t.Errorf("execute: %v", c)
	}
	if c := ask(control, "shutdown_request", map[string]any{"restart": false}); c["status"] != "ok" {
		t.Errorf("shutdown: %v", c)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after shutdown_request")
	}
}

// dialRetry dials ep, retrying while the kernel is still binding.
func dialRetry(sock zmq4.Socket, ep string) error {
	var err error
	for range 50 {
		if err = sock.Dial(ep); err == nil {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return err
}

func TestRunBadAddress(t *testing.T) {
	conn := Connection{Transport: "tcp", IP: "256.0.0.1", ShellPort: 1, ControlPort: 2, StdinPort: 3, IOPubPort: 4, HBPort: 5}
	k, err := New(conn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Run(context.Background()); err == nil {
		t.Error("Run on a bad address: no error")
	}
}

// TestRunIPv6 binds the kernel on ::1, where the machine has IPv6.
func TestRunIPv6(t *testing.T) {
	l, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	conn := Connection{Transport: "tcp", IP: "::1", ShellPort: port, ControlPort: port + 1, StdinPort: port + 2,
		IOPubPort: port + 3, HBPort: port + 4}
	k, err := New(conn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- k.Run(context.Background()) }()
	time.Sleep(200 * time.Millisecond)
	select {
	case err := <-done:
		t.Skipf("ports taken meanwhile: %v", err)
	default:
	}
	hb := zmq4.NewReq(context.Background())
	defer hb.Close()
	if err := dialRetry(hb, conn.Addr(conn.HBPort)); err != nil {
		t.Fatal(err)
	}
	if err := hb.Send(zmq4.NewMsgString("ping")); err != nil {
		t.Fatal(err)
	}
	if m, err := hb.Recv(); err != nil || string(m.Bytes()) != "ping" {
		t.Errorf("heartbeat on ::1: %q %v", m.Bytes(), err)
	}
	k.Shutdown()
	<-done
}
