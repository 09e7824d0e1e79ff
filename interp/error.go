package interp

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"tiny/lang"
	"tiny/tensor"
)

// EvalError is a runtime error: the message, the position of the failing
// expression, and the call frames active when it happened, innermost first
// (each the called fn's name and the position of the call). Its Error
// method returns the one-line header "file:line:col: error: msg".
type EvalError struct {
	Msg   string
	Pos   lang.Pos
	Stack []lang.Frame
	More  int   // the frames left out of Stack
	Err   error // the underlying error, if any (a *tensor.Error, a Go builtin's error, context.Canceled)

	source string // the text of the file Pos is in, as it was when the code ran
}

func (e *EvalError) Error() string { return lang.Header(e.Pos, e.Msg) }

// Unwrap returns the underlying error.
func (e *EvalError) Unwrap() error { return e.Err }

// Position returns where the error happened.
func (e *EvalError) Position() lang.Pos { return e.Pos }

// Frames returns the call frames, innermost first.
func (e *EvalError) Frames() []lang.Frame { return e.Stack }

// MoreFrames returns how many frames the error left out.
func (e *EvalError) MoreFrames() int { return e.More }

// failf panics with an *EvalError at pos.
func (it *Interp) failf(pos lang.Pos, format string, args ...any) {
	panic(it.newError(pos, fmt.Sprintf(format, args...), nil))
}

// fail panics with an *EvalError at pos wrapping err (whose message is kept).
func (it *Interp) fail(pos lang.Pos, err error) {
	var ee *EvalError
	if errors.As(err, &ee) {
		panic(ee)
	}
	panic(it.newError(pos, err.Error(), err))
}

func (it *Interp) newError(pos lang.Pos, msg string, err error) *EvalError {
	stack, more := it.stack()
	return &EvalError{Msg: msg, Pos: pos, Stack: stack, More: more, Err: err, source: it.src}
}

// maxFrames bounds the frames an error keeps: a frame repeated more than
// three times in a row is kept three times, and past maxFrames the rest are
// only counted, so that a runaway recursion's trace ends with
// "... N more frames".
const maxFrames = 20

// stack returns the frames to report, innermost first, and how many it
// left out.
func (it *Interp) stack() ([]lang.Frame, int) {
	var stack []lang.Frame
	for i := len(it.frames) - 1; i >= 0 && len(stack) < maxFrames; i-- {
		f := it.frames[i]
		if n := len(stack); n >= 3 && stack[n-1] == f && stack[n-2] == f && stack[n-3] == f {
			continue
		}
		stack = append(stack, f)
	}
	return stack, len(it.frames) - len(stack)
}

// guard runs f, turning a *tensor.Error panic (or any non-EvalError error
// panic) into an *EvalError at pos. It is used at builtin, method and
// operator boundaries so that engine errors get the script's position.
func (it *Interp) guard(pos lang.Pos, f func()) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		switch e := r.(type) {
		case *EvalError:
			panic(r)
		case *tensor.Error:
			panic(it.newError(pos, e.Msg, e))
		case error:
			if errors.Is(e, context.Canceled) || errors.Is(e, context.DeadlineExceeded) {
				panic(it.newError(pos, "interrupted", e))
			}
		}
		panic(r)
	}()
	f()
}

// recoverTo is deferred at the API boundary: it turns any panic into err,
// reporting panics that are not *EvalError as internal errors at the
// position being evaluated.
func (it *Interp) recoverTo(err *error) {
	r := recover()
	if r == nil {
		return
	}
	switch e := r.(type) {
	case *EvalError:
		*err = e
	case *tensor.Error:
		*err = &EvalError{Msg: e.Msg, Pos: it.pos, Err: e, source: it.src}
	default:
		if it.debugPanics {
			fmt.Printf("%v\n%s", r, debug.Stack())
		}
		*err = &EvalError{Msg: fmt.Sprintf("internal error: %v", r), Pos: it.pos, source: it.src}
	}
}
