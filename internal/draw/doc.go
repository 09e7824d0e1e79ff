// Package draw makes the pictures tiny shows in notebooks and writes to
// files: index grids of views (ShapeTracker diagrams), graphs of boxes
// (kernel ASTs, lazy graphs), grids of images (PNG) and plots (SVG or PNG,
// drawn with gonum.org/v1/plot). It knows nothing of tensors or of the
// language: the interpreter hands it numbers and labels.
//
// Every SVG is self-contained (no script, no external font or image) and
// sized in pixels, so that a notebook, a browser and an HTML export all
// show it as it is.
package draw
