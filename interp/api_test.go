package interp_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"tiny/devices"
	"tiny/interp"
	"tiny/lang"
)

func newInterp(t *testing.T, out *strings.Builder) *interp.Interp {
	t.Helper()
	opts := interp.Options{}
	if out != nil {
		opts.Stdout = out
	}
	it, err := interp.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func TestCancelKeepsSession(t *testing.T) {
	var out strings.Builder
	it := newInterp(t, &out)
	ctx := context.Background()
	if err := it.Exec(ctx, "<stdin>", "n = 0", false); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	err := it.Exec(cctx, "<stdin>", "while true { n += 1 }", false)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("loop ended with %v, want a deadline error", err)
	}
	if !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("error %q does not say interrupted", err)
	}
	v, err := it.Eval(ctx, "n > 0")
	if err != nil || v != interp.Bool(true) {
		t.Errorf("after the interrupt: n > 0 = %v, %v", v, err)
	}
}

func TestGlobalsRoundTrip(t *testing.T) {
	it := newInterp(t, nil)
	for name, v := range map[string]any{"i": 3, "f": 2.5, "s": "x", "b": true, "n": nil} {
		if err := it.SetGlobal(name, v); err != nil {
			t.Fatal(err)
		}
	}
	it.SetGlobal("l", []any{1, "a"})
	it.SetGlobal("d", map[string]any{"lr": 0.1})
	it.SetGlobal("t", interp.Tensor([]int32{1, 2, 3, 4}, 2, 2))
	ctx := context.Background()
	if err := it.Exec(ctx, "<go>", "j = i * 2; g = f + 1; t2 = t.sum(axis=0); lr = d.lr; k = l[1] + s", false); err != nil {
		t.Fatal(it.FormatError(err))
	}
	want := map[string]any{
		"j": int64(6), "g": 3.5, "lr": 0.1, "k": "ax", "b": true, "n": nil,
		"t2": interp.TensorData{Data: []int32{4, 6}, Shape: []int{2}, DType: "int32"},
		"l":  []any{int64(1), "a"},
	}
	for name, w := range want {
		got, ok := it.Global(name)
		if !ok || !reflect.DeepEqual(got, w) {
			t.Errorf("Global(%q) = %#v, %v; want %#v", name, got, ok, w)
		}
	}
	if _, ok := it.Global("missing"); ok {
		t.Error("Global(missing) reported ok")
	}
	if err := it.SetGlobal("bad", struct{}{}); err == nil {
		t.Error("SetGlobal of a struct succeeded")
	}
}

func TestRegisterErrorsAndPanics(t *testing.T) {
	it := newInterp(t, nil)
	it.Register("fails", func(ctx context.Context, args []interp.Value, kw map[string]interp.Value) (interp.Value, error) {
		return nil, errors.New("fails: no luck")
	})
	it.Register("panics", func(ctx context.Context, args []interp.Value, kw map[string]interp.Value) (interp.Value, error) {
		var m map[string]int
		m["x"] = 1
		return nil, nil
	})
	ctx := context.Background()
	err := it.Exec(ctx, "t.tiny", "x = 1\ny = fails()", false)
	var ee *interp.EvalError
	if !errors.As(err, &ee) || ee.Msg != "fails: no luck" || ee.Pos != (lang.Pos{File: "t.tiny", Line: 2, Col: 5}) {
		t.Errorf("fails() error = %#v", err)
	}
	err = it.Exec(ctx, "t.tiny", "fn f() { return panics() }\nf()", false)
	if err == nil || !strings.Contains(err.Error(), "internal error") || !strings.HasPrefix(err.Error(), "t.tiny:1:17:") {
		t.Errorf("panics() error = %v, want an internal error at t.tiny:1:17", err)
	}
	if v, err := it.Eval(ctx, "x + 1"); err != nil || v != interp.Int(2) {
		t.Errorf("session lost after a panic: %v, %v", v, err)
	}
}

func TestCompletions(t *testing.T) {
	it := newInterp(t, nil)
	ctx := context.Background()
	it.Exec(ctx, "<stdin>", `weights = [1.0, 2.0]; cfg = {"lr": 1}; st = shapetracker((2, 2))`, false)
	has := func(line, want string) {
		t.Helper()
		for _, c := range it.Completions(line) {
			if c == want {
				return
			}
		}
		t.Errorf("Completions(%q) = %q, want %q among them", line, it.Completions(line), want)
	}
	has("wei", "weights")
	has("x = wh", "x = while")
	has("pri", "print")
	has("weights.su", "weights.sum")
	has("weights.", "weights.shape")
	has("weights.gr", "weights.grad")
	has("weights.gr", "weights.gradient")
	has("weights.requ", "weights.requires_grad")
	has("weights.requ", "weights.requires_grad_")
	has("weights.back", "weights.backward")
	has("cfg.", "cfg.lr")
	has("cfg.ke", "cfg.keys")
	has("st.ren", "st.render")
	has("st.vi", "st.views")
	if c := it.Completions("nothing_here."); len(c) != 0 {
		t.Errorf("Completions of an undefined name = %q", c)
	}
}

func TestEvalErrors(t *testing.T) {
	it := newInterp(t, nil)
	ctx := context.Background()
	if _, err := it.Eval(ctx, "1 +"); err == nil {
		t.Error("Eval of a bad expression succeeded")
	}
	_, err := it.Eval(ctx, "undefined_thing")
	if err == nil || it.FormatError(err) != "<eval>:1:1: error: undefined: undefined_thing\n    undefined_thing\n    ^" {
		t.Errorf("FormatError = %q", it.FormatError(err))
	}
}

// TestREPLErrorSource checks that an error inside a fn defined by an
// earlier REPL input shows that input's line, though every input is
// "<stdin>".
func TestREPLErrorSource(t *testing.T) {
	it := newInterp(t, nil)
	ctx := context.Background()
	if err := it.Exec(ctx, "<stdin>", "fn f(x) { return x / 0 }", true); err != nil {
		t.Fatal(err)
	}
	err := it.Exec(ctx, "<stdin>", "y = 1; f(y)", true)
	want := "<stdin>:1:20: error: division by zero\n    fn f(x) { return x / 0 }\n                       ^\n  in fn f (<stdin>:1:8)"
	if got := it.FormatError(err); got != want {
		t.Errorf("FormatError =\n%s\nwant\n%s", got, want)
	}
}

func TestUnknownDevice(t *testing.T) {
	if _, err := interp.New(interp.Options{Device: "TPU"}); err == nil {
		t.Error("New accepted device TPU")
	}
	if _, err := interp.New(interp.Options{Device: "CPU"}); err != nil {
		t.Error(err)
	}
}

// TestReentrant calls back into the interpreter from a Go builtin, with an
// error inside; the outer call's frames must survive.
func TestReentrant(t *testing.T) {
	it := newInterp(t, nil)
	it.Register("evalgo", func(ctx context.Context, args []interp.Value, kw map[string]interp.Value) (interp.Value, error) {
		_, err := it.Eval(ctx, "1 / 0")
		if err == nil {
			return nil, errors.New("no error")
		}
		return interp.String("inner failed"), nil
	})
	ctx := context.Background()
	err := it.Exec(ctx, "r.tiny", "fn f() { s = evalgo(); return s + 1 }\nfn g() { return f() }\ng()", false)
	want := "r.tiny:1:33: error: unsupported operand types for +: string and int\n    fn f() { s = evalgo(); return s + 1 }\n                                    ^\n  in fn f (r.tiny:2:17)\n  in fn g (r.tiny:3:1)"
	if got := it.FormatError(err); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDefaultDevice checks what Options.Device documents: "" runs on
// devices.Default, not always on CPU.
func TestDefaultDevice(t *testing.T) {
	d, _, err := devices.Default(devices.Options{})
	if err != nil {
		t.Skip(err)
	}
	var out strings.Builder
	it := newInterp(t, &out)
	if err := it.Exec(context.Background(), "<stdin>", "print(zeros(1).device)", false); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != d.Name() {
		t.Errorf("zero Options run on %s, want devices.Default's %s", got, d.Name())
	}
}

func TestExecCell(t *testing.T) {
	tests := []struct {
		src, out, result, err string
	}{
		{src: "1 + 1", result: "2"},
		{src: `"s"`, result: `"s"`},
		{src: "none", result: ""},
		{src: "a = 1", result: ""},
		{src: "a = 2\na\na * 3", out: "2\n", result: "6"},
		{src: "print(1)", out: "1\n", result: ""},
		{src: "fn f() { print(7)\nreturn 8 }\nf()", out: "7\n", result: "8"},
		{src: "b = 1\nb.nope", result: "", err: "<cell>:2:3: error: int has no attribute nope"},
		{src: "zeros(2) + zeros(3)", result: "", err: "<cell>:1:10: error: "},
		{src: "(", err: "<cell>:1:1: error: "},
		{src: "", result: ""},
	}
	for _, tc := range tests {
		var out strings.Builder
		it := newInterp(t, &out)
		res, err := it.ExecCell(context.Background(), "<cell>", tc.src)
		if res != tc.result || out.String() != tc.out {
			t.Errorf("ExecCell(%q) = %q, printed %q; want %q, %q", tc.src, res, out.String(), tc.result, tc.out)
		}
		if got := errString(err); tc.err == "" && err != nil || !strings.HasPrefix(got, tc.err) {
			t.Errorf("ExecCell(%q) error %q, want prefix %q", tc.src, got, tc.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestSetGlobalRefuses: a value that holds itself, an unsigned int past
// int64 and a name no script can write are errors, not a crash or a
// silently wrong value.
func TestSetGlobalRefuses(t *testing.T) {
	it := newInterp(t, nil)
	loop := []any{1, nil}
	loop[1] = loop
	m := map[string]any{}
	m["self"] = m
	for name, v := range map[string]any{"loop": loop, "m": m, "big": uint64(1 << 63), "bigu": uint(1<<64 - 1)} {
		if err := it.SetGlobal(name, v); err == nil {
			t.Errorf("SetGlobal(%q) succeeded", name)
		}
	}
	for _, name := range []string{"", "1x", "a b", "if", "none", "x-y", "é!"} {
		if err := it.SetGlobal(name, 1); err == nil || !strings.Contains(err.Error(), "not a name") {
			t.Errorf("SetGlobal(%q): %v", name, err)
		}
	}
	for _, name := range []string{"x", "_y2", "é", "日本"} {
		if err := it.SetGlobal(name, uint64(1<<63-1)); err != nil {
			t.Errorf("SetGlobal(%q): %v", name, err)
		}
	}
	if v, err := it.Eval(context.Background(), "x - _y2 + é"); err != nil || v != interp.Int(1<<63-1) {
		t.Errorf("x - _y2 + é = %v, %v", v, err)
	}
}

// TestCancelledContextRunsNothing: Exec with a context already done runs
// no statement and says it was interrupted.
func TestCancelledContextRunsNothing(t *testing.T) {
	var out strings.Builder
	it, err := interp.New(interp.Options{Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = it.Exec(ctx, "c.tiny", "print(1)\nx = 2", false)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") || out.Len() > 0 {
		t.Errorf("err %v, output %q", err, out.String())
	}
	if _, ok := it.Global("x"); ok {
		t.Error("x was set")
	}
}
