// Package shape holds tiny's ShapeTracker: the views that let movement ops
// (reshape, permute, expand, pad, shrink, stride and flip) cost nothing,
// because they change how a buffer is indexed instead of moving its data.
//
// Glossary (as in gomlx): an axis is an index into the shape, a dimension (dim)
// is the size along one axis, and the rank is the number of axes. Dims,
// strides, offsets and mask bounds are symbolic nodes (package symbolic), so a
// shape may hold a variable such as k in (k, 3); most shapes are constants,
// and Ints and the *Ints methods take plain ints.
//
// A View maps an index (i0, i1, ...) of its shape to the buffer index
// offset + i0*stride0 + i1*stride1 + ..., valid when every ik lies inside the
// mask. A Tracker is a stack of views: the last has the tracker's shape, and
// each earlier one is indexed by the row-major unravelling of the flat index
// the view above it computes. One view suffices until a reshape cannot be
// expressed by strides alone, for example a transpose followed by a reshape.
//
// The (idx, valid) contract: for output indices idxs, Tracker.IndexExpr
// returns two simplified symbolic nodes; the element reads buffer[idx] when
// valid is true and is the padding value (0) when it is false. idx is
// simplified knowing that valid holds, so where valid is false it may be any
// value, even outside the buffer: never read without checking valid. Render
// prints them in tinygrad's notation, ((ridx0*2)+ridx1) and True, with C's
// truncating // and %.
//
// The files: view.go (View and its canonical creation), movement.go (permute,
// expand, pad, shrink, stride), reshape.go (merging and splitting dims, with
// masks), compose.go (one view for two, and Tracker.Simplify), tracker.go
// (the stack of views), index.go (index expressions), arith.go (arithmetic on
// dims and tuple printing).
//
// Everything follows tinygrad at commit a2a4ff30: View creation canonicalizes
// views the same way, String prints tinygrad's repr, and the oracle test in
// this package compares both with vectors recorded from tinygrad. Bad
// arguments return errors naming the shapes in tuple form; a reshape that one
// view cannot hold is not an error (View.Reshape returns false and
// Tracker.Reshape stacks a view).
package shape
