package jupyter

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"tiny/lang"
)

// Handle serves one request: it publishes status busy, answers through
// reply (except for messages that take no reply, such as comm_open),
// publishes status idle, and reports whether the request was a cell that
// failed and asked to stop on error. No panic escapes: one becomes an
// error reply.
func (k *Kernel) Handle(ctx context.Context, req *Message, reply func(*Message)) (failed bool) {
	return k.handle(ctx, req, reply, nil)
}

// handle is Handle; settle, if not nil, runs before the reply to a cell
// that failed and stops on error.
func (k *Kernel) handle(ctx context.Context, req *Message, reply func(*Message), settle func()) (failed bool) {
	defer func() { // the last guard: a panic while replying is only logged
		if r := recover(); r != nil {
			k.log.Printf("%s: panic: %v\n%s", req.Header.MsgType, r, debug.Stack())
		}
	}()
	k.publishStatus(req, "busy")
	var stop bool
	defer func() {
		k.publishStatus(req, "idle")
		if stop {
			k.Shutdown()
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			k.log.Printf("%s: panic: %v\n%s", req.Header.MsgType, r, debug.Stack())
			failed = true
			k.reply(req, reply, errorContent("InternalError", fmt.Sprintf("internal error: %v", r), nil))
		}
	}()
	content, failed, stop, ok := k.dispatch(ctx, req)
	if !ok {
		return false
	}
	if failed && settle != nil {
		settle()
	}
	k.reply(req, reply, content)
	return failed
}

// dispatch serves req and returns its reply's content, whether it was a
// cell that failed and asked to stop on error, whether the kernel is to
// shut down, and whether req takes a reply at all.
func (k *Kernel) dispatch(ctx context.Context, req *Message) (content any, failed, stop, ok bool) {
	switch typ := req.Header.MsgType; typ {
	case "kernel_info_request":
		content = k.kernelInfo()
	case "execute_request":
		content, failed = k.execute(ctx, req)
	case "complete_request":
		content = k.complete(req)
	case "is_complete_request":
		content = isComplete(req)
	case "inspect_request":
		content = k.inspect(req)
	case "comm_open":
		// No comm target is registered: close the comm at once, as the
		// spec and ipykernel do, so that the frontend does not wait on it.
		var c struct {
			CommID string `json:"comm_id"`
		}
		_ = req.Unmarshal(&c)
		k.pub(req, "comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
		return nil, false, false, false
	case "history_request":
		content = map[string]any{"status": "ok", "history": []any{}}
	case "comm_info_request":
		content = map[string]any{"status": "ok", "comms": map[string]any{}}
	case "interrupt_request":
		k.Interrupt()
		content = map[string]any{"status": "ok"}
	case "shutdown_request":
		var c struct {
			Restart bool `json:"restart"`
		}
		_ = req.Unmarshal(&c)
		content, stop = map[string]any{"status": "ok", "restart": c.Restart}, true
	default:
		if !strings.HasSuffix(typ, "_request") {
			k.log.Printf("ignored a %q message", typ)
			return nil, false, false, false
		}
		content = errorContent("UnknownRequest", "tiny kernel does not serve "+typ, nil)
	}
	return content, failed, stop, true
}

// reply sends content as the reply to req: "x_request" is answered by
// "x_reply".
func (k *Kernel) reply(req *Message, reply func(*Message), content any) {
	typ := strings.TrimSuffix(req.Header.MsgType, "_request") + "_reply"
	m, err := NewMessage(k.session, typ, req, content)
	if err != nil {
		k.log.Printf("%s: %v", typ, err)
		return
	}
	reply(m)
}

// pub publishes a message of type typ answering parent on iopub.
func (k *Kernel) pub(parent *Message, typ string, content any) {
	m, err := NewMessage(k.session, typ, parent, content)
	if err != nil {
		k.log.Printf("%s: %v", typ, err)
		return
	}
	m.Identities = [][]byte{[]byte("kernel." + k.session + "." + typ)}
	k.pubMu.Lock()
	defer k.pubMu.Unlock()
	k.publish(m)
}

func (k *Kernel) publishStatus(parent *Message, state string) {
	k.pub(parent, "status", map[string]any{"execution_state": state})
}

func (k *Kernel) sendStream(parent *Message, name, text string) {
	k.pub(parent, "stream", map[string]any{"name": name, "text": text})
}

// errorContent is the content of an error reply or an iopub error message.
func errorContent(ename, evalue string, traceback []string) map[string]any {
	if traceback == nil {
		traceback = []string{"error: " + evalue}
	}
	return map[string]any{"status": "error", "ename": ename, "evalue": evalue, "traceback": traceback}
}

// kernelInfo is the content of kernel_info_reply.
func (k *Kernel) kernelInfo() map[string]any {
	version := k.version
	if version == "" {
		version = "devel"
	}
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       ProtocolVersion,
		"implementation":         "tiny",
		"implementation_version": version,
		"language_info": map[string]any{
			"name":           "tiny",
			"version":        version,
			"mimetype":       "text/x-tiny",
			"file_extension": ".tiny",
			// No highlighter knows tiny; Python's lexer and CodeMirror
			// mode fit it best: "#" comments, quoted strings, numbers,
			// and the keywords if, else, for, in, while, return, import,
			// as, and, or, not, with no error tokens on tiny's syntax.
			"pygments_lexer":  "python",
			"codemirror_mode": "python",
		},
		"banner":     "tiny " + version + "\nA tensor scripting language built on tinygrad's ideas; see tiny help.",
		"help_links": k.helpLinks(),
	}
}

// complete answers a complete_request with the interpreter's completions
// of the word before the cursor. The cursor counts Unicode code points, as
// in protocol 5.2 and later. While a cell runs (a request on the control
// socket), there are no matches rather than a wait.
func (k *Kernel) complete(req *Message) map[string]any {
	var c struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	_ = req.Unmarshal(&c)
	code := prefixRunes(c.Code, c.CursorPos)
	cursor := utf8.RuneCountInString(code)
	line := code[strings.LastIndexByte(code, '\n')+1:]
	start := len(line)
	for start > 0 && isWordByte(line[start-1]) {
		start--
	}
	matches := []string{}
	for _, cand := range k.completions(line) {
		matches = append(matches, strings.TrimPrefix(cand, line[:start]))
	}
	if !strings.HasSuffix(line[:start], ".") {
		matches = mergeNames(matches, cellNames(code[:len(code)-len(line)]+line[:start]), line[start:])
	}
	return map[string]any{
		"status":       "ok",
		"matches":      matches,
		"cursor_start": cursor - utf8.RuneCountInString(line[start:]),
		"cursor_end":   cursor,
		"metadata":     map[string]any{},
	}
}

// completions returns the interpreter's completions of line, or none while
// a cell runs.
func (k *Kernel) completions(line string) []string {
	if !k.itMu.TryLock() {
		return nil
	}
	defer k.itMu.Unlock()
	return k.it.Completions(line)
}

// prefixRunes returns the first n code points of s (all of s when n is out
// of range).
func prefixRunes(s string, n int) string {
	if n < 0 {
		return s
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// isWordByte reports whether c can be part of a name, as the interpreter's
// completion reads words.
func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isComplete answers an is_complete_request as the REPL decides whether to
// read another line: code is incomplete while a bracket or brace is open,
// invalid when it is complete but does not parse, and complete otherwise.
func isComplete(req *Message) map[string]any {
	var c struct {
		Code string `json:"code"`
	}
	_ = req.Unmarshal(&c)
	if code, _, err := cellDebug(c.Code); err == nil {
		c.Code = code
	}
	switch {
	case !lang.Complete(c.Code):
		return map[string]any{"status": "incomplete", "indent": nextIndent(c.Code)}
	case parses(c.Code):
		return map[string]any{"status": "complete"}
	}
	return map[string]any{"status": "invalid"}
}

// parses reports whether code parses, recovering a panic as a failure.
func parses(code string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	_, err := lang.Parse("<cell>", code)
	return err == nil
}
