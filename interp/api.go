package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"

	"tiny/devices"
	"tiny/lang"
	"tiny/tensor"
)

// Options configure an interpreter. The zero value runs on the default
// device, discards output, and allows no imports but the standard library.
type Options struct {
	Stdout, Stderr io.Writer // where print and debug output go; nil discards
	Device         string    // "" is devices.Default (CLANG where a C compiler works, else CPU), else a registered device: "CPU", "CLANG", "GPU", "REF"
	Debug          int       // tinygrad's DEBUG level, passed to the tensor engine
	Imports        fs.FS     // files a script may import; nil means none
	Args           []string  // what args() returns
	MaxBytes       int64     // the most bytes of tensor buffers a script may hold at once; 0 is no bound but 8 GiB a buffer
	Files          bool      // the script may read and write files by path (from_file, safe_save, ...) and read the environment (getenv); false refuses
	// Input reads a line for input(prompt), without its newline; nil
	// makes input() fail. See display_input.go.
	Input func(ctx context.Context, prompt string) (string, error)
	// Display shows pictures and rich values (display, imshow, plot,
	// progress); nil writes their files and prints the paths. See
	// display.go.
	Display Displayer
}

// Interp is an interpreter session: its globals, tensor engine and the
// sources it has run. An Interp is not safe for concurrent use.
type Interp struct {
	opts     Options
	eng      *tensor.Engine
	engErr   error
	globals  *scope
	builtins map[string]Value
	sources  map[string]string
	modules  map[string]*Module
	loading  map[string]bool
	frames   []lang.Frame
	depth    int
	ctx      context.Context
	pos      lang.Pos // the position being evaluated, for internal errors
	ret      Value    // the value of the return statement being executed
	echo     bool
	steps    uint   // counts checkCtx calls
	src      string // the source text of the code being run, for error snippets
	maxNumel int    // the largest tensor a script may build; 0 means no limit
	training bool   // tinygrad's Tensor.training: train(true) sets it (train.go)

	debugPanics bool
	files       map[string]int // display.go: pictures written per default name
}

// New returns an interpreter with the given options.
func New(opts Options) (*Interp, error) {
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.Device != "" {
		if err := devices.Check(opts.Device); err != nil {
			return nil, fmt.Errorf("interp: %v", err)
		}
	}
	it := &Interp{
		opts:     opts,
		globals:  newScope(nil),
		sources:  map[string]string{},
		modules:  map[string]*Module{},
		loading:  map[string]bool{},
		ctx:      context.Background(),
		builtins: map[string]Value{},
		maxNumel: 1 << 31,
	}
	it.addBuiltins()
	return it, nil
}

// engine returns the tensor engine, opening the device on first use.
func (it *Interp) engine() *tensor.Engine {
	if it.eng == nil && it.engErr == nil {
		it.eng, it.engErr = tensor.NewEngine(tensor.Options{
			Device: it.opts.Device, Debug: it.opts.Debug, Log: it.opts.Stdout, MaxBytes: it.opts.MaxBytes,
			Context: func() context.Context { return it.ctx },
		})
	}
	if it.engErr != nil {
		it.failf(it.pos, "%v", it.engErr)
	}
	return it.eng
}

// ExecFile runs a script. Its globals stay in the interpreter, so a later
// Exec or Eval sees them.
func (it *Interp) ExecFile(ctx context.Context, filename string, src []byte) error {
	return it.Exec(ctx, filename, string(src), false)
}

// Exec runs statements. With echo, the value of each top-level expression
// statement that is not none is printed to Stdout, as a REPL does.
func (it *Interp) Exec(ctx context.Context, filename, src string, echo bool) error {
	_, err := it.run(ctx, filename, src, echo, false)
	return err
}

// ExecCell runs statements as Exec with echo does, except for a last
// statement that is an expression: its value is not printed but returned
// as the text echo would print (without the newline), the way a notebook
// shows a cell's result. The text is "" when the last statement is not an
// expression, its value is none, or the cell fails.
func (it *Interp) ExecCell(ctx context.Context, filename, src string) (result string, err error) {
	return it.run(ctx, filename, src, true, true)
}

// run is Exec and, with last, ExecCell.
func (it *Interp) run(ctx context.Context, filename, src string, echo, last bool) (result string, err error) {
	it.sources[filename] = src
	if ctx != nil && ctx.Err() != nil { // an already cancelled context runs nothing
		return "", &EvalError{Msg: "interrupted", Pos: lang.Pos{File: filename, Line: 1, Col: 1}, Err: ctx.Err(), source: src}
	}
	f, err := lang.ParseContext(orBackground(ctx), filename, src)
	if err != nil {
		var le *lang.Error
		if ctx != nil && ctx.Err() != nil && errors.As(err, &le) {
			return "", &EvalError{Msg: le.Msg, Pos: le.Pos, Err: ctx.Err(), source: src}
		}
		return "", err
	}
	defer it.enter(ctx)()
	defer it.recoverTo(&err)
	defer it.running(src)()
	oldEcho := it.echo
	it.echo = echo
	defer func() { it.echo = oldEcho }()
	stmts := f.Stmts
	var tail *lang.ExprStmt
	if n := len(stmts); last && n > 0 {
		if x, ok := stmts[n-1].(*lang.ExprStmt); ok {
			tail, stmts = x, stmts[:n-1]
		}
	}
	if it.execStmts(stmts, it.globals) != ctrlNone || tail == nil {
		return "", nil
	}
	it.pos = tail.Pos()
	if v := it.eval(tail.X, it.globals); v != None {
		it.guard(tail.Pos(), func() { result = v.String() })
	}
	return result, nil
}

// Eval evaluates one expression and returns its value.
func (it *Interp) Eval(ctx context.Context, expr string) (v Value, err error) {
	const name = "<eval>"
	it.sources[name] = expr
	x, err := lang.ParseExpr(name, expr)
	if err != nil {
		return nil, err
	}
	defer it.enter(ctx)()
	defer it.recoverTo(&err)
	defer it.running(expr)()
	return it.eval(x, it.globals), nil
}

// running records src as the source being run and returns the function
// restoring the previous one. Errors keep the source of the code that
// failed, so a REPL that runs every input as "<stdin>" still shows the
// right line of an earlier input's fn.
func (it *Interp) running(src string) func() {
	old := it.src
	it.src = src
	return func() { it.src = old }
}

// enter installs ctx for one API call and returns the function restoring
// the previous state.
func orBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

func (it *Interp) enter(ctx context.Context) func() {
	if ctx == nil {
		ctx = context.Background()
	}
	old, frames, depth := it.ctx, len(it.frames), it.depth
	it.ctx = ctx
	return func() {
		// An error unwinds past the frames it skipped; a Go builtin may
		// also call back into the interpreter, so restore, not reset.
		it.ctx, it.frames, it.depth = old, it.frames[:frames], depth
	}
}

// SetGlobal binds a global variable to a Go value: a Value, nil, a bool, an
// integer or float type, a string, a TensorData (see Tensor), []float32,
// []float64, []int32, []int64, []int or []bool (as 1-D tensors), a *tensor.Tensor, []any or
// map[string]any (converted element by element). It returns an error for a
// name no script can use (not an identifier, or a keyword), an unsigned
// value past int64, and data that holds itself.
func (it *Interp) SetGlobal(name string, v any) (err error) {
	defer it.recoverTo(&err)
	if !lang.IsName(name) {
		return fmt.Errorf("interp: SetGlobal: %q is not a name a script can use", name)
	}
	val, err := it.fromGo(v)
	if err != nil {
		return err
	}
	it.globals.vars[name] = val
	return nil
}

// Global returns a global variable as a Go value: nil, bool, int64,
// float64, string, []any (tuples and lists), map[string]any (dicts),
// TensorData (tensors, which it realizes), or the Value itself for other
// types. It reports whether the global exists.
func (it *Interp) Global(name string) (any, bool) {
	v, ok := it.globals.vars[name]
	if !ok {
		return nil, false
	}
	return toGoSafely(v), true
}

// toGoSafely is toGo, returning the Value itself if converting it fails
// (a tensor whose realization fails).
func toGoSafely(v Value) (out any) {
	defer func() {
		if recover() != nil {
			out = v
		}
	}()
	return toGo(v)
}

// Globals returns the names of the global variables, sorted.
func (it *Interp) Globals() []string { return it.globals.names() }

// GoFunc is a Go function callable from scripts. Returning a non-nil error
// raises it as a runtime error at the call.
type GoFunc func(ctx context.Context, args []Value, kwargs map[string]Value) (Value, error)

// Register makes fn callable from scripts as the builtin name. A nil Value
// result is none.
func (it *Interp) Register(name string, fn GoFunc) {
	it.builtins[name] = &Builtin{name: name, fn: func(it *Interp, c *call) Value {
		kw := make(map[string]Value, len(c.kw))
		for _, k := range c.kw {
			kw[k.name] = k.value
		}
		v, err := fn(it.ctx, c.args, kw)
		if err != nil {
			it.fail(c.pos, err)
		}
		if v == nil {
			return None
		}
		return v
	}}
}

// FormatError renders err as the contract prints it: the header, the
// source line with a caret (from whichever file the error is in, as long as
// this interpreter ran it), and the call frames.
func (it *Interp) FormatError(err error) string {
	var ee *EvalError
	errors.As(err, &ee)
	return lang.FormatWith(err, func(file string) string {
		if ee != nil && ee.source != "" && file == ee.Pos.File {
			return ee.source
		}
		return it.sources[file]
	})
}

// Source returns the source text the interpreter ran or imported under
// filename.
func (it *Interp) Source(filename string) (string, bool) {
	s, ok := it.sources[filename]
	return s, ok
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
