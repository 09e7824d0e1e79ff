package jupyter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"tiny/interp"
	"tiny/lang"
)

// executeRequest is the content of an execute_request.
type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"` // default true
	UserExpressions map[string]string `json:"user_expressions"`
	StopOnError     *bool             `json:"stop_on_error"` // default true
	AllowStdin      *bool             `json:"allow_stdin"`   // default true
}

// execute runs a cell and returns the content of its reply, publishing the
// code, its output and its result or error on iopub as IPython does. It
// reports whether the cell failed and later queued cells should be aborted.
func (k *Kernel) execute(ctx context.Context, req *Message) (content any, abort bool) {
	var c executeRequest
	if err := req.Unmarshal(&c); err != nil {
		return errorContent("BadRequest", "execute_request: "+err.Error(), nil), false
	}
	shown, count, name := k.number(c)
	if !c.Silent {
		k.pub(req, "execute_input", map[string]any{"code": c.Code, "execution_count": shown})
	}
	result, err := k.run(ctx, req, name, c)
	if err != nil {
		ename, evalue, tb := k.describe(err)
		k.pub(req, "error", map[string]any{"ename": ename, "evalue": evalue, "traceback": tb})
		reply := errorContent(ename, evalue, tb)
		reply["execution_count"] = count
		reply["payload"], reply["user_expressions"] = []any{}, map[string]any{} // as ipykernel's
		return reply, c.StopOnError == nil || *c.StopOnError
	}
	if result.Data != nil && !c.Silent {
		// As IPython's display hook: the number shown for the cell, which
		// a cell run without history does not take from the next one.
		k.pub(req, "execute_result", map[string]any{
			"execution_count": shown,
			"data":            mimeBundle(result.Data),
			"metadata":        map[string]any{},
		})
	}
	return map[string]any{
		"status":           "ok",
		"execution_count":  count,
		"user_expressions": k.userExpressions(ctx, c.UserExpressions),
		"payload":          []any{},
	}, false
}

// number counts a cell as IPython does and returns the execution count it
// is shown with (In [N]), the one its reply carries and its file name. A
// cell run with history takes the next number, even if it fails; a silent
// or empty cell takes none, and its reply carries the last one given.
func (k *Kernel) number(c executeRequest) (shown, count int, name string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	shown = k.count
	if c.Silent || c.StoreHistory != nil && !*c.StoreHistory || strings.TrimSpace(c.Code) == "" {
		return shown, k.count - 1, "<cell>"
	}
	k.count++
	return shown, shown, fmt.Sprintf("<cell %d>", shown)
}

// errBusy is the error of a cell sent on the control socket while another
// runs: it fails at once rather than hold up the interrupt that may follow.
var errBusy = errors.New("another cell is running")

// run runs the cell's code as the cell name, its output going to req's
// streams, cancellable by Interrupt, and returns its last value's forms.
// A first line "%debug N" runs it at DEBUG level N.
func (k *Kernel) run(ctx context.Context, req *Message, name string, c executeRequest) (result interp.Output, err error) {
	code, level, err := cellDebug(c.Code)
	if err != nil {
		return result, err
	}
	if !k.itMu.TryLock() {
		return result, errBusy
	}
	ctx, cancel := context.WithCancel(ctx)
	k.mu.Lock()
	k.cancel = cancel
	k.parent, k.allowStdin = req, c.AllowStdin == nil || *c.AllowStdin
	k.mu.Unlock()
	k.stdout.setParent(req)
	k.stderr.setParent(req)
	oldLevel := k.it.Debug()
	if level >= 0 {
		k.it.SetDebug(level)
	}
	defer func() {
		if level >= 0 {
			k.it.SetDebug(oldLevel)
		}
		k.stdout.setParent(nil)
		k.stderr.setParent(nil)
		k.mu.Lock()
		k.cancel, k.parent = nil, nil
		k.mu.Unlock()
		cancel()
		k.itMu.Unlock()
		if r := recover(); r != nil { // the interpreter recovers its own; this is a last guard
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	return k.it.ExecCellRich(ctx, name, code)
}

// describe returns an error's name, its message and its traceback: the
// lines of the error as the contract formats it, with the source line, a
// caret and the call frames.
func (k *Kernel) describe(err error) (ename, evalue string, traceback []string) {
	ename, evalue = "Error", err.Error()
	var ee *interp.EvalError
	var pe *lang.Error
	if errors.As(err, &pe) {
		ename, evalue = "SyntaxError", pe.Msg
	} else if errors.As(err, &ee) {
		ename, evalue = "EvalError", ee.Msg
	}
	switch {
	case errors.Is(err, context.Canceled):
		ename = "Interrupted"
	case strings.HasPrefix(evalue, "internal error"):
		ename = "InternalError"
	}
	text := k.format(err)
	if header, _, _ := strings.Cut(text, "\n"); !strings.Contains(header, "error:") {
		text = "error: " + text // an error without a position
	}
	return ename, evalue, strings.Split(text, "\n")
}

// format is FormatError, falling back to the error's text if formatting
// panics.
func (k *Kernel) format(err error) (text string) {
	defer func() {
		if recover() != nil {
			text = err.Error()
		}
	}()
	return k.it.FormatError(err)
}

// userExpressions evaluates the expressions of an execute_request after
// its cell ran, each to its forms (as a cell's result) or an error.
func (k *Kernel) userExpressions(ctx context.Context, exprs map[string]string) map[string]any {
	out := map[string]any{}
	for name, expr := range exprs {
		data, err := k.eval(ctx, expr)
		if err != nil {
			ename, evalue, tb := k.describe(err)
			out[name] = errorContent(ename, evalue, tb)
			continue
		}
		out[name] = map[string]any{"status": "ok", "data": mimeBundle(data), "metadata": map[string]any{}}
	}
	return out
}

// eval evaluates one expression to its forms.
func (k *Kernel) eval(ctx context.Context, expr string) (data map[string][]byte, err error) {
	k.itMu.Lock()
	defer k.itMu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	v, err := k.it.Eval(ctx, expr)
	if err != nil {
		return nil, err
	}
	o, err := k.it.Rich(ctx, v)
	return o.Data, err
}

// abortGrace is how long after a failing cell's reply an execute request
// may still arrive and be aborted, if its header says it was sent before
// that reply: requests a frontend sent back to back (Run All) can reach the
// kernel's socket a little after the failure was replied to.
const abortGrace = 500 * time.Millisecond

// Before replying to a failed cell, the kernel waits for the requests a
// frontend sends in one burst (Run All) to arrive: at least burstMin, until
// the shell has been quiet for burstQuiet, at most burstMax. They arrive
// before the reply, so none can be a frontend's answer to it, and all are
// aborted. A Python kernel is slow enough that they always have; tiny's
// failing cell is often replied to before the frontend has sent the rest.
const (
	burstMin   = 50 * time.Millisecond
	burstQuiet = 25 * time.Millisecond
	burstMax   = 300 * time.Millisecond
)

// awaitBurst waits as the constants above say.
func (k *Kernel) awaitBurst() {
	start := time.Now()
	for {
		time.Sleep(5 * time.Millisecond)
		el := time.Since(start)
		quiet := time.Since(time.Unix(0, k.lastShell.Load()))
		if el >= burstMax || el >= burstMin && quiet >= burstQuiet {
			return
		}
	}
}

// serveShell handles a shell request in turn. After a cell that failed and
// stops on error, every execute request that arrived before its reply is
// answered "aborted", in order, as ipykernel does, so that Run All stops
// at the first error; other requests are served. The first execute request
// that arrived later runs and ends the aborting.
func (k *Kernel) serveShell(ctx context.Context, req *Message, reply func(*Message)) {
	if req.Header.MsgType == "execute_request" {
		if k.abortable(req) {
			k.publishStatus(req, "busy")
			k.reply(req, reply, map[string]any{"status": "aborted"})
			k.publishStatus(req, "idle")
			return
		}
		k.failedAt = time.Time{}
	}
	var repliedAt time.Time
	if k.handle(ctx, req, func(m *Message) { repliedAt = time.Now(); reply(m) }, k.awaitBurst) {
		k.failedAt = repliedAt
	}
}

// abortable reports whether req is to be aborted after a failed cell: it
// reached the kernel before that cell's reply was sent, or it was sent
// before (by the date in its header) and arrived soon after.
func (k *Kernel) abortable(req *Message) bool {
	if k.failedAt.IsZero() {
		return false
	}
	if req.received.Before(k.failedAt) {
		return true
	}
	sent, err := time.Parse(time.RFC3339Nano, req.Header.Date)
	return err == nil && sent.Before(k.failedAt) && req.received.Before(k.failedAt.Add(abortGrace))
}
