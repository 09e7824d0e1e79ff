package jupyter

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	_ "tiny/devices/cpu"
	"tiny/interp"
)

// recorder collects what a kernel publishes and replies, as a frontend
// would see it.
type recorder struct {
	mu  sync.Mutex
	pub []*Message
}

func (r *recorder) add(m *Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pub = append(r.pub, m)
}

// take returns and forgets what was published.
func (r *recorder) take() []*Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.pub
	r.pub = nil
	return out
}

func newTestKernel(t *testing.T) (*Kernel, *recorder) {
	t.Helper()
	k, err := New(Connection{Key: "key"}, Options{Interp: interp.Options{Device: "CPU"}, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	k.publish = rec.add
	return k, rec
}

// request returns a request of type typ as a frontend sends it.
func request(t *testing.T, typ string, content any) *Message {
	t.Helper()
	m, err := NewMessage("client", typ, nil, content)
	if err != nil {
		t.Fatal(err)
	}
	m.Identities = [][]byte{[]byte("client")}
	return m
}

// do handles req and returns the reply's type and content and the iopub
// messages it published (as type: content lines).
func do(t *testing.T, k *Kernel, rec *recorder, req *Message) (string, map[string]any, []string) {
	t.Helper()
	var reply *Message
	k.Handle(context.Background(), req, func(m *Message) { reply = m })
	var pub []string
	for _, m := range rec.take() {
		if string(m.ParentHeader) != string(req.parentJSON()) {
			t.Errorf("%s: parent_header %s, want the request's", m.Header.MsgType, m.ParentHeader)
		}
		pub = append(pub, m.Header.MsgType+": "+string(m.Content))
	}
	if reply == nil {
		return "", nil, pub
	}
	if string(reply.Identities[0]) != "client" {
		t.Errorf("reply identities %q", reply.Identities)
	}
	var c map[string]any
	if err := json.Unmarshal(reply.Content, &c); err != nil {
		t.Fatal(err)
	}
	return reply.Header.MsgType, c, pub
}

func execute(t *testing.T, k *Kernel, rec *recorder, code string) (map[string]any, []string) {
	t.Helper()
	typ, c, pub := do(t, k, rec, request(t, "execute_request", map[string]any{"code": code}))
	if typ != "execute_reply" {
		t.Fatalf("%q: reply %s", code, typ)
	}
	return c, pub
}

func TestExecuteSession(t *testing.T) {
	k, rec := newTestKernel(t)
	tests := []struct {
		code   string
		status string
		count  float64
		pub    []string // iopub messages between busy and idle
	}{
		{"x = 1 + 2\nprint(\"x is\", x)", "ok", 1, []string{
			`execute_input: {"code":"x = 1 + 2\nprint(\"x is\", x)","execution_count":1}`,
			`stream: {"name":"stdout","text":"x is 3\n"}`}},
		{"x\nx * 2", "ok", 2, []string{
			`execute_input: {"code":"x\nx * 2","execution_count":2}`,
			`stream: {"name":"stdout","text":"3\n"}`,
			`execute_result: {"data":{"text/plain":"6"},"execution_count":2,"metadata":{}}`}},
		{"y = x +", "error", 3, []string{
			`execute_input: {"code":"y = x +","execution_count":3}`,
			`error: {"ename":"SyntaxError","evalue":"unexpected end of input, expected expression","traceback":["\u003ccell 3\u003e:1:8: error: unexpected end of input, expected expression","    y = x +","           ^"]}`}},
		{"fn f(a) { return a.nope }\nprint(1)\nf(x)", "error", 4, []string{
			`execute_input: {"code":"fn f(a) { return a.nope }\nprint(1)\nf(x)","execution_count":4}`,
			`stream: {"name":"stdout","text":"1\n"}`,
			`error: {"ename":"EvalError","evalue":"int has no attribute nope","traceback":["\u003ccell 4\u003e:1:20: error: int has no attribute nope","    fn f(a) { return a.nope }","                       ^","  in fn f (\u003ccell 4\u003e:3:1)"]}`}},
		{"x", "ok", 5, []string{
			`execute_input: {"code":"x","execution_count":5}`,
			`execute_result: {"data":{"text/plain":"3"},"execution_count":5,"metadata":{}}`}},
		{"  \n", "ok", 5, []string{ // an empty cell takes no number
			`execute_input: {"code":"  \n","execution_count":6}`}},
		{"f(1)", "error", 6, []string{ // an error in a fn of an earlier cell shows that cell's line
			`execute_input: {"code":"f(1)","execution_count":6}`,
			`error: {"ename":"EvalError","evalue":"int has no attribute nope","traceback":["\u003ccell 4\u003e:1:20: error: int has no attribute nope","    fn f(a) { return a.nope }","                       ^","  in fn f (\u003ccell 6\u003e:1:1)"]}`}},
	}
	for _, tc := range tests {
		c, pub := execute(t, k, rec, tc.code)
		if c["status"] != tc.status || c["execution_count"] != tc.count {
			t.Errorf("%q: reply %v, want status %s count %v", tc.code, c, tc.status, tc.count)
		}
		want := append(append([]string{`status: {"execution_state":"busy"}`}, tc.pub...), `status: {"execution_state":"idle"}`)
		if strings.Join(pub, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q published\n%s\nwant\n%s", tc.code, strings.Join(pub, "\n"), strings.Join(want, "\n"))
		}
		if tc.status == "error" && (c["ename"] == nil || c["traceback"] == nil) {
			t.Errorf("%q: error reply without ename or traceback: %v", tc.code, c)
		}
	}
}

func TestExecuteSilent(t *testing.T) {
	k, rec := newTestKernel(t)
	execute(t, k, rec, "a = 1")
	_, c, pub := do(t, k, rec, request(t, "execute_request", map[string]any{"code": "print(a)\na", "silent": true}))
	if c["execution_count"] != 1.0 || len(pub) != 3 || !strings.HasPrefix(pub[1], "stream") {
		t.Errorf("silent: reply %v, published %q", c, pub)
	}
	_, c, pub = do(t, k, rec, request(t, "execute_request", map[string]any{
		"code": "a + 1", "store_history": false, "user_expressions": map[string]string{"two": "a * 2", "bad": "b"}}))
	ue, _ := json.Marshal(c["user_expressions"])
	// The result carries the number the cell is shown with (2), as
	// IPython's display hook; the reply the last one stored (1).
	if c["execution_count"] != 1.0 || len(pub) != 4 || !strings.Contains(pub[2], `"execution_count":2`) || !strings.Contains(pub[2], `"text/plain":"2"`) ||
		!strings.Contains(string(ue), `"two":{"data":{"text/plain":"2"}`) || !strings.Contains(string(ue), `"ename":"EvalError"`) {
		t.Errorf("store_history false: reply %v, published %q", c, pub)
	}
	c, _ = execute(t, k, rec, "a")
	if c["execution_count"] != 2.0 {
		t.Errorf("next stored cell: %v", c)
	}
}

func TestStreamBatches(t *testing.T) {
	k, rec := newTestKernel(t)
	_, pub := execute(t, k, rec, "for i in range(1000) { print(i) }")
	var text strings.Builder
	n := 0
	for _, p := range pub {
		if body, ok := strings.CutPrefix(p, "stream: "); ok {
			var c struct{ Name, Text string }
			json.Unmarshal([]byte(body), &c)
			text.WriteString(c.Text)
			n++
		}
	}
	want := ""
	for i := range 1000 {
		want += fmt.Sprintln(i)
	}
	if text.String() != want || n > 10 {
		t.Errorf("%d stream messages, text ok: %v", n, text.String() == want)
	}
}

// startCell handles an execute_request for code on a goroutine of its own,
// as the shell socket would while other requests come in, gives it 100ms
// to start, and returns the channel that gets its reply's content. (Not
// execute: the messages published meanwhile belong to the other requests.)
func startCell(t *testing.T, k *Kernel, code string) <-chan map[string]any {
	t.Helper()
	req := request(t, "execute_request", map[string]any{"code": code})
	done := make(chan map[string]any)
	go func() {
		var c map[string]any
		k.Handle(context.Background(), req, func(m *Message) { json.Unmarshal(m.Content, &c) })
		done <- c
	}()
	time.Sleep(100 * time.Millisecond)
	return done
}

func TestInterrupt(t *testing.T) {
	k, rec := newTestKernel(t)
	done := startCell(t, k, "n = 0\nwhile true { n += 1 }")
	var reply *Message
	k.Handle(context.Background(), request(t, "interrupt_request", map[string]any{}), func(m *Message) { reply = m })
	if reply == nil || reply.Header.MsgType != "interrupt_reply" {
		t.Fatalf("interrupt reply %v", reply)
	}
	select {
	case c := <-done:
		if c["ename"] != "Interrupted" || !strings.Contains(fmt.Sprint(c["traceback"]), "<cell 1>:2:1: error: interrupted") {
			t.Errorf("interrupted cell: %v", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cell was not interrupted")
	}
	rec.take()
	c, pub := execute(t, k, rec, "n > 0")
	if c["status"] != "ok" || !strings.Contains(pub[2], `"text/plain":"true"`) {
		t.Errorf("after the interrupt: %v", c)
	}
}

func TestRequests(t *testing.T) {
	k, rec := newTestKernel(t)
	execute(t, k, rec, "weights = ones(2)\nwhy = 1")
	tests := []struct {
		typ     string
		content any
		reply   string // the reply's content, as JSON, or "" for none
	}{
		{"complete_request", map[string]any{"code": "y = wei", "cursor_pos": 7},
			`{"cursor_end":7,"cursor_start":4,"matches":["weights"],"metadata":{},"status":"ok"}`},
		{"complete_request", map[string]any{"code": "wh\nweights.res", "cursor_pos": 14},
			`{"cursor_end":14,"cursor_start":11,"matches":["reshape"],"metadata":{},"status":"ok"}`},
		{"complete_request", map[string]any{"code": "é = wh + 1", "cursor_pos": 6},
			`{"cursor_end":6,"cursor_start":4,"matches":["where","while","why"],"metadata":{},"status":"ok"}`},
		{"is_complete_request", map[string]any{"code": "fn f(x) {"}, `{"indent":"  ","status":"incomplete"}`},
		{"is_complete_request", map[string]any{"code": "a = [1,\n2"}, `{"indent":"  ","status":"incomplete"}`},
		{"is_complete_request", map[string]any{"code": "a = (1, 2)"}, `{"status":"complete"}`},
		{"is_complete_request", map[string]any{"code": "a = )"}, `{"status":"invalid"}`},
		{"inspect_request", map[string]any{"code": "weights", "cursor_pos": 3, "detail_level": 0},
			`{"data":{"text/plain":"type: tensor\nvalue: tensor([1.0, 1.0])"},"found":true,"metadata":{},"status":"ok"}`},
		{"inspect_request", map[string]any{"code": "nothing_here", "cursor_pos": 3, "detail_level": 0},
			`{"data":{},"found":false,"metadata":{},"status":"ok"}`},
		{"is_complete_request", map[string]any{"code": "fn f(x) {\n  if x {"}, `{"indent":"    ","status":"incomplete"}`},
		{"complete_request", map[string]any{"code": "whence = 2\nwh", "cursor_pos": 13},
			`{"cursor_end":13,"cursor_start":11,"matches":["whence","where","while","why"],"metadata":{},"status":"ok"}`},
		{"history_request", map[string]any{}, `{"history":[],"status":"ok"}`},
		{"comm_info_request", map[string]any{}, `{"comms":{},"status":"ok"}`},
		{"frobnicate_request", map[string]any{},
			`{"ename":"UnknownRequest","evalue":"tiny kernel does not serve frobnicate_request","status":"error","traceback":["error: tiny kernel does not serve frobnicate_request"]}`},
		{"comm_open", map[string]any{"comm_id": "c1", "target_name": "jupyter.widget"}, ""},
	}
	for _, tc := range tests {
		typ, c, pub := do(t, k, rec, request(t, tc.typ, tc.content))
		got, _ := json.Marshal(c)
		if tc.reply == "" && typ != "" || tc.reply != "" && (string(got) != tc.reply || typ != strings.TrimSuffix(tc.typ, "request")+"reply") {
			t.Errorf("%s %v: %s %s, want %s", tc.typ, tc.content, typ, got, tc.reply)
		}
		if tc.typ == "comm_open" {
			// No such target: the comm is closed at once, as ipykernel does.
			if len(pub) != 3 || pub[1] != `comm_close: {"comm_id":"c1","data":{}}` {
				t.Errorf("comm_open published %q", pub)
			}
			continue
		}
		if len(pub) != 2 || !strings.Contains(pub[0], "busy") || !strings.Contains(pub[1], "idle") {
			t.Errorf("%s published %q", tc.typ, pub)
		}
	}
}

func TestKernelInfo(t *testing.T) {
	k, rec := newTestKernel(t)
	typ, c, _ := do(t, k, rec, request(t, "kernel_info_request", map[string]any{}))
	li, _ := c["language_info"].(map[string]any)
	if typ != "kernel_info_reply" || c["protocol_version"] != "5.3" || c["implementation"] != "tiny" ||
		li["name"] != "tiny" || li["file_extension"] != ".tiny" || c["status"] != "ok" ||
		li["version"] != "test" || li["pygments_lexer"] != "python" || li["codemirror_mode"] != "python" {
		t.Errorf("%s %v", typ, c)
	}
}

func TestShutdown(t *testing.T) {
	k, rec := newTestKernel(t)
	stopped := false
	k.stop = func() { stopped = true }
	typ, c, _ := do(t, k, rec, request(t, "shutdown_request", map[string]any{"restart": true}))
	if typ != "shutdown_reply" || c["restart"] != true || c["status"] != "ok" || !stopped {
		t.Errorf("%s %v, stopped %v", typ, c, stopped)
	}
}

// TestNoPanicEscapes breaks the kernel on purpose: every request still
// gets a reply and status idle.
func TestNoPanicEscapes(t *testing.T) {
	k, rec := newTestKernel(t)
	k.it = nil
	for _, req := range []*Message{
		request(t, "complete_request", map[string]any{"code": "x", "cursor_pos": 1}),
		request(t, "execute_request", map[string]any{"code": "x"}),
	} {
		_, c, pub := do(t, k, rec, req)
		if c["status"] != "error" || !strings.HasPrefix(fmt.Sprint(c["evalue"]), "internal error") || !strings.Contains(pub[len(pub)-1], "idle") {
			t.Errorf("%s: %v, published %q", req.Header.MsgType, c, pub)
		}
	}
	_, c, _ := do(t, k, rec, request(t, "execute_request", []int{1}))
	if c["status"] != "error" || c["ename"] != "BadRequest" {
		t.Errorf("content not an object: %v", c)
	}
	// Even a reply that panics (a broken socket) stays inside Handle.
	k.Handle(context.Background(), request(t, "kernel_info_request", nil), func(*Message) { panic("socket broke") })
	if pub := rec.take(); len(pub) != 2 || pub[1].Header.MsgType != "status" {
		t.Errorf("after a panicking reply: %d messages published", len(pub))
	}
}

// TestStopOnError: after a failing cell, the execute requests that arrived
// before its reply are aborted, in order, other requests are served, and a
// request that arrived after the reply runs; stop_on_error false aborts
// nothing.
func TestStopOnError(t *testing.T) {
	for _, stop := range []bool{true, false} {
		k, rec := newTestKernel(t)
		var replies []string
		reply := func(m *Message) {
			var c map[string]any
			json.Unmarshal(m.Content, &c)
			replies = append(replies, strings.TrimSuffix(m.Header.MsgType, "_reply")+" "+fmt.Sprint(c["status"]))
		}
		arrived := time.Now()
		early := []*Message{
			request(t, "execute_request", map[string]any{"code": "nope", "stop_on_error": stop}),
			request(t, "execute_request", map[string]any{"code": "a = 1"}),
			request(t, "kernel_info_request", map[string]any{}),
			request(t, "execute_request", map[string]any{"code": "b = 1"}),
		}
		// Sent before the failure's reply, but read off the socket after it.
		late := request(t, "execute_request", map[string]any{"code": "c = 1"})
		for _, m := range early {
			m.received = arrived
		}
		k.serveShell(context.Background(), early[0], reply)
		for _, m := range early[1:] {
			k.serveShell(context.Background(), m, reply)
		}
		late.received = time.Now()
		k.serveShell(context.Background(), late, reply)
		// Sent after the failure's reply was seen: runs.
		after := request(t, "execute_request", map[string]any{"code": "d = 1"})
		after.received = time.Now()
		k.serveShell(context.Background(), after, reply)
		want := "[execute error execute aborted kernel_info ok execute aborted execute aborted execute ok]"
		if !stop {
			want = "[execute error execute ok kernel_info ok execute ok execute ok execute ok]"
		}
		if fmt.Sprint(replies) != want {
			t.Errorf("stop_on_error %v: replies %v, want %s", stop, replies, want)
		}
		_, ranA := k.it.Global("a")
		_, ranD := k.it.Global("d")
		if ranA == stop || !ranD {
			t.Errorf("stop_on_error %v: a ran %v, d ran %v", stop, ranA, ranD)
		}
		rec.take()
	}
}

// TestExecuteWhileBusy: a cell sent on the control socket while another
// runs fails at once, and an interrupt still stops the running one.
func TestExecuteWhileBusy(t *testing.T) {
	k, rec := newTestKernel(t)
	done := startCell(t, k, "while true { }")
	var c map[string]any
	k.Handle(context.Background(), request(t, "execute_request", map[string]any{"code": "1"}), func(m *Message) { json.Unmarshal(m.Content, &c) })
	if c["status"] != "error" || c["evalue"] != "another cell is running" {
		t.Errorf("second cell: %v", c)
	}
	k.Interrupt()
	select {
	case c := <-done:
		if c["ename"] != "Interrupted" {
			t.Errorf("first cell: %v", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the running cell was not interrupted")
	}
	rec.take()
}
