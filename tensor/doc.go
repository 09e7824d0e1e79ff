// Package tensor is tiny's front end: lazy tensors, the scheduler that cuts
// their graph into kernels, and realization on a device.
//
// Glossary (after gomlx): an axis is an index into a shape, a dimension is the
// size along one axis, and the rank is the number of axes.
//
// The model, after tinygrad:
//
//  1. Lazy graph (lazy.go). Every operation returns at once with a Tensor that
//     points at a lazy node. A node is a base (data already on the device, a
//     constant, an elementwise op, a reduce, or a contiguous copy) or a view: a
//     base seen through a shape.Tracker. Movement ops (reshape, permute, pad,
//     slicing, ...) only build views, so no data moves.
//  2. Schedule (schedule.go). Reading a value (Item, Floats, String, Realize)
//     walks the graph from the wanted nodes and decides which bases become
//     buffers: the targets, contiguous copies, computed values that are
//     expanded, and reduces that are padded or cannot fuse into their
//     consumer. Everything else is inlined (a padded value as
//     where(valid, value, 0)):
//     an elementwise chain becomes one kernel, a reduce carries its elementwise
//     inputs and its elementwise consumer, and constants become CONST leaves
//     with stride-0 trackers. Each buffer to compute becomes one
//     codegen.Kernel, an AST rooted at a STORE, in dependency order.
//  3. Realize (realize.go). Each kernel is lowered by codegen, compiled once by
//     the engine's device (runners are cached by the kernel's text), and run
//     over buffers from the devices pool. Intermediate buffers are freed after
//     their last use; a realized target keeps its buffer, and its node forgets
//     its sources. A buffer returns to the pool when its node is garbage.
//  4. Gradients (grad.go). Gradient and Backward walk the lazy graph from a
//     scalar loss back to the targets, with one rule per elementwise op,
//     reduce and movement (views remember the movement that made them), and
//     return lazy tensors: the backward pass schedules and fuses like any
//     other graph.
//
// Reading: Shape, DType, Numel; Floats, Ints, Bools and ToList for data;
// Item and Value for one element; String prints NumPy-style, ListString as a
// Python list. Looking inside: Schedule returns the kernels (Kernel.String
// prints seed 003's tree), Explain adds their uops and code, ShapeTracker
// gives a tensor's view, and Options.Debug 1-4 logs kernels, schedules,
// uops and code as tinygrad's DEBUG does.
//
// An Engine (engine.go) carries the device and the DEBUG settings; tensors
// carry their engine, and an op uses the engine of its operands.
//
// Bad input (shapes that do not broadcast, a bad axis, a reshape to another
// size, ...) makes the chainable methods panic with a *Error, as documented on
// each method; Catch and Try turn such a panic into an ordinary error.
package tensor
