// Package interp is the tree-walking evaluator of the tiny language and its
// embedding API.
//
// An Interp holds the global variables of a session, the tensor engine, and
// the sources it has run (so that errors can be formatted with their source
// line). ExecFile runs a script, Exec runs statements (echoing expression
// values for a REPL), ExecCell runs a notebook cell (returning its last
// value), Eval evaluates one expression; SetGlobal and Global move
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
//	*TensorValue  a lazy tensor of package tensor
//	*Tracker   a ShapeTracker (package shape)
//	*View      a single View
//	*Var       a symbolic integer, from var(name, lo, hi)
//	DType      a tensor element type (float32, int32, ...); callable as a cast
//	*Module    the globals of an imported file
//	*Method    a method bound to its receiver (t.sum)
//	Kernel     one kernel of t.schedule()
//
// Optional interfaces add behaviour: HasAttrs (x.name), Callable (f(x)),
// HasBinary (operators on tensors, trackers and vars), Iterable (for loops)
// and Sequence (len, indexing and unpacking). Methods of the built-in types
// live in per-type tables (methods_core.go, methods_tensor.go,
// methods_shape.go).
//
// A bracket literal is a tensor when every element is a number or bool or
// a nested bracket literal of one shape (int32, float32 if any element is a
// float, bool if all are bools), and a list otherwise. Iterating a tensor
// yields its slices along the first axis.
//
// Go values cross the boundary with SetGlobal and Global; Tensor builds
// TensorData from a Go slice and a shape. A script may build tensors of at
// most 2**31 elements and strings, lists and tuples of at most 2**26, and
// calls nest at most 1000 deep; past these limits it gets an error, so that
// no script exhausts memory or the Go stack.
//
// # Errors
//
// Runtime errors are *EvalError values carrying the position of the failing
// expression (the operator of a binary expression, the start of a call or
// index, the name of an attribute) and the call frames; their Error method is the one-line header
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
