// Package interp is the tree-walking evaluator of the tiny language and its
// embedding API.
//
// An Interp holds the global variables of a session, the tensor engine, and
// the sources it has run (so that errors can be formatted with their source
// line). ExecFile runs a script, Exec runs statements (echoing expression
// values for a REPL), Eval evaluates one expression; SetGlobal and Global move
// values between Go and the script, and Register adds Go functions as
// builtins.
//
// # Values
//
// Every script value implements Value. The types are:
//
//	NoneType   none
//	Bool       true, false
//	Int        64-bit integers
//	Float      64-bit floats
//	String     immutable text
//	Tuple      (1, 2), (3,), ()
//	*List      mutable sequence; a bracket literal that is not a tensor
//	*Dict      string keys in insertion order; d.lr reads d["lr"]
//	*Range     range(start, stop, step)
//	*Function  a fn: a closure over the scope that defined it
//	*Builtin   a function written in Go
//	*Tensor    a lazy tensor of package tensor
//	*Tracker   a ShapeTracker (package shape)
//	*View      a single View
//	*Var       a symbolic variable, from var(name, lo, hi)
//	DType      a tensor element type (float32, int32, ...)
//	*Module    the globals of an imported file
//	*Method    a method bound to its receiver (t.sum)
//
// Optional interfaces add behaviour: HasAttrs (x.name), Callable (f(x)),
// HasBinary (operators on tensors and trackers), Iterable (for loops) and
// Sequence (len and indexing).
//
// # Errors
//
// Runtime errors are *EvalError values carrying the position of the failing
// expression and the call frames; their Error method is the one-line header
// "file:line:col: error: msg", and FormatError adds the source line, a caret
// and "  in fn name (file:line:col)" lines. Inside the package failures
// panic with an *EvalError and are recovered at the API boundary, as are
// *tensor.Error panics (given the position of the call or operator) and any
// other panic (reported as "internal error: ..."). No input makes the Go
// program panic.
//
// # Semantics
//
// Scopes are lexical: a fn call gets a new scope whose parent is the scope
// where the fn was defined; blocks (if, for, while) do not make scopes. A
// plain assignment binds in the current scope. An augmented assignment
// (x += 1) updates x in the nearest scope that has it, so a closure can keep
// a counter.
package interp
