package jupyter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"

	"tiny/interp"
)

// Options configure a kernel.
type Options struct {
	// Interp configures the session's interpreter; its Stdout and Stderr
	// are replaced by the cells' stream output.
	Interp interp.Options
	// Version is the implementation version kernel_info reports.
	Version string
	// Log receives the kernel's own diagnostics (bad messages, socket
	// errors); nil discards them.
	Log io.Writer
	// HelpLinks are the notebook's Help menu entries (kernel_info's
	// help_links).
	HelpLinks []HelpLink
}

// Kernel is one kernel process's state: one interpreter session, the
// execution count, and the sockets once Run has bound them.
type Kernel struct {
	conn    Connection
	key     []byte
	session string
	version string
	links   []HelpLink
	log     *log.Logger

	itMu   sync.Mutex // held while the interpreter runs, as it is not safe for concurrent use
	it     *interp.Interp
	stdout *stream
	stderr *stream

	digests   *digestHistory // the signatures seen, to refuse replays
	lastShell atomic.Int64   // when the last shell request was read, in Unix nanoseconds

	pubMu   sync.Mutex
	publish func(*Message) // sends on iopub; set by Run, or by tests

	inputs chan string // the values of input_reply messages

	mu         sync.Mutex         // guards the fields below: shell and control requests run at once
	parent     *Message           // the request of the running cell, for display_data and input
	allowStdin bool               // whether that request allows input_request
	stdinSend  func(*Message)     // sends on the stdin socket; set by Run
	count      int                // the execution count of the next stored cell, from 1
	cancel     context.CancelFunc // cancels the running cell, if any
	stop       context.CancelFunc // ends Run, after a shutdown request

	// failedAt is when the last failing cell that stops on error was
	// replied to, until a cell runs again: the execute requests that
	// arrived before it are aborted (see abortable).
	failedAt time.Time
}

// New returns a kernel for the connection conn, with a fresh interpreter.
func New(conn Connection, opts Options) (*Kernel, error) {
	out := opts.Log
	if out == nil {
		out = io.Discard
	}
	k := &Kernel{
		conn:    conn,
		key:     []byte(conn.Key),
		session: newID(),
		version: opts.Version,
		links:   opts.HelpLinks,
		log:     log.New(out, "tiny kernel: ", log.LstdFlags),
		count:   1,
		publish: func(*Message) {},
		digests: newDigestHistory(maxDigests),
	}
	k.stdout = &stream{name: "stdout", send: k.sendStream}
	k.stderr = &stream{name: "stderr", send: k.sendStream}
	k.inputs = make(chan string, 1)
	iopts := opts.Interp
	iopts.Stdout, iopts.Stderr = k.stdout, k.stderr
	iopts.Display, iopts.Input = displayer{k}, k.input
	it, err := interp.New(iopts)
	if err != nil {
		return nil, err
	}
	k.it = it
	return k, nil
}

// sockets are the kernel's bound ZeroMQ sockets.
type sockets struct {
	shell, control, stdin, iopub, hb zmq4.Socket
}

// linger is how long Run waits before closing its sockets, so that the last
// messages, queued by the iopub socket, still go out.
const linger = 200 * time.Millisecond

// listen binds the five sockets of the connection. They live until closed,
// not with a context, so that Run can let them linger.
func (k *Kernel) listen() (*sockets, error) {
	ctx := context.Background()
	s := &sockets{
		shell:   zmq4.NewRouter(ctx),
		control: zmq4.NewRouter(ctx),
		stdin:   zmq4.NewRouter(ctx),
		iopub:   zmq4.NewPub(ctx),
		hb:      zmq4.NewRep(ctx),
	}
	binds := []struct {
		sock zmq4.Socket
		port int
		name string
	}{
		{s.shell, k.conn.ShellPort, "shell"}, {s.control, k.conn.ControlPort, "control"},
		{s.stdin, k.conn.StdinPort, "stdin"}, {s.iopub, k.conn.IOPubPort, "iopub"},
		{s.hb, k.conn.HBPort, "hb"},
	}
	for _, b := range binds {
		if err := b.sock.Listen(k.conn.Addr(b.port)); err != nil {
			s.close()
			return nil, fmt.Errorf("%s socket on %s: %w", b.name, k.conn.Addr(b.port), err)
		}
	}
	return s, nil
}

func (s *sockets) close() {
	for _, sock := range []zmq4.Socket{s.shell, s.control, s.stdin, s.iopub, s.hb} {
		_ = sock.Close()
	}
}

// Run binds the sockets and serves requests until a shutdown request
// arrives or ctx is done. Shell requests run one at a time, in order;
// control requests are served meanwhile, so that an interrupt reaches a
// running cell.
func (k *Kernel) Run(ctx context.Context) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	k.mu.Lock()
	k.stop = stop
	k.mu.Unlock()
	s, err := k.listen()
	if err != nil {
		return err
	}
	defer s.close()
	k.pubMu.Lock()
	k.publish = func(m *Message) { k.send(s.iopub, "iopub", m) }
	k.pubMu.Unlock()

	k.mu.Lock()
	k.stdinSend = func(m *Message) { k.send(s.stdin, "stdin", m) }
	k.mu.Unlock()
	go k.readInputs(ctx, s.stdin)
	go k.heartbeat(ctx, s.hb)
	go k.serve(ctx, s.control, "control", nil)
	shell := make(chan *Message, 1024)
	go k.serve(ctx, s.shell, "shell", shell)
	for {
		select {
		case <-ctx.Done():
			k.Interrupt()
			time.Sleep(linger)
			return nil
		case req := <-shell:
			k.serveShell(ctx, req, func(m *Message) { k.send(s.shell, "shell", m) })
		}
	}
}

// heartbeat echoes every message on hb until ctx is done.
func (k *Kernel) heartbeat(ctx context.Context, hb zmq4.Socket) {
	for ctx.Err() == nil {
		msg, err := hb.Recv()
		if err != nil {
			k.recvFailed(ctx, "heartbeat", err)
			continue
		}
		if err := hb.Send(msg); err != nil && ctx.Err() == nil {
			k.log.Printf("heartbeat: %v", err)
		}
	}
}

// serve reads requests from sock until ctx is done. With queue, it hands
// them on (the shell); without, it handles each at once (the control).
func (k *Kernel) serve(ctx context.Context, sock zmq4.Socket, name string, queue chan<- *Message) {
	for ctx.Err() == nil {
		raw, err := sock.Recv()
		if err != nil {
			k.recvFailed(ctx, name, err)
			continue
		}
		req, err := Decode(raw.Frames, k.key)
		if err != nil {
			k.log.Printf("%s: dropped a message: %v", name, err)
			continue
		}
		if !k.digests.add(req.signature) {
			k.log.Printf("%s: dropped a replayed message (its signature was seen before): %s", name, req.Header.MsgType)
			continue
		}
		req.received = time.Now()
		if queue != nil {
			k.lastShell.Store(req.received.UnixNano())
		}
		if queue != nil {
			select {
			case queue <- req:
			case <-ctx.Done():
			}
			continue
		}
		k.Handle(ctx, req, func(m *Message) { k.send(sock, name, m) })
	}
}

// readInputs passes the values of the input_reply messages on stdin to
// the cell waiting in input().
func (k *Kernel) readInputs(ctx context.Context, sock zmq4.Socket) {
	for ctx.Err() == nil {
		raw, err := sock.Recv()
		if err != nil {
			k.recvFailed(ctx, "stdin", err)
			continue
		}
		m, err := Decode(raw.Frames, k.key)
		if err != nil || !k.digests.add(m.signature) || m.Header.MsgType != "input_reply" {
			k.log.Printf("stdin: dropped a message (%v)", err)
			continue
		}
		var c struct {
			Value string `json:"value"`
		}
		_ = m.Unmarshal(&c)
		select {
		case k.inputs <- c.Value:
		default: // nobody asked
		}
	}
}

// recvFailed logs a failed receive while the kernel runs, and pauses so
// that a socket that keeps failing does not spin.
func (k *Kernel) recvFailed(ctx context.Context, name string, err error) {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return
	}
	k.log.Printf("%s: %v", name, err)
	time.Sleep(100 * time.Millisecond)
}

// send encodes m and sends it on sock, logging a failure.
func (k *Kernel) send(sock zmq4.Socket, name string, m *Message) {
	frames, err := m.Encode(k.key)
	if err == nil {
		err = sock.Send(zmq4.NewMsgFrom(frames...))
	}
	if err != nil {
		k.log.Printf("%s: sending %s: %v", name, m.Header.MsgType, err)
	}
}

// Interrupt cancels the running cell, if any; the cell fails with the
// error "interrupted" and the session keeps what it assigned.
func (k *Kernel) Interrupt() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cancel != nil {
		k.cancel()
	}
}

// Shutdown interrupts the running cell and makes Run return.
func (k *Kernel) Shutdown() {
	k.Interrupt()
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stop != nil {
		k.stop()
	}
}
