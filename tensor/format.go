package tensor

import (
	"math"
	"strconv"
	"strings"

	"tiny/codegen"
	"tiny/devices"
)

// Printing follows NumPy's array repr with tiny's spelling: elements are
// right-aligned to a common width, rows break at 75 columns, tensors of more
// than 1000 elements show 3 items at each edge of every axis around "...",
// floats print in shortest round-trip form for their dtype, bools as
// true/false, and the dtype is named unless it is float32.

const (
	lineWidth = 75
	threshold = 1000
	edgeItems = 3
)

// String returns t as print shows it, for example
// "tensor([[1, 2],\n        [3, 4]], dtype=int32)". It realizes t.
func (t *Tensor) String() string {
	var b strings.Builder
	b.WriteString("tensor(")
	shp := t.n.shape
	if t.Numel() == 0 {
		b.WriteString("[]")
		if len(shp) != 1 {
			b.WriteString(", shape=" + FormatShape(shp))
		}
	} else {
		axes, leaves := t.Shown()
		b.WriteString(formatArray(leaves, shp, axes, strings.Repeat(" ", len("tensor("))))
	}
	if t.n.dtype != Float32 {
		b.WriteString(", dtype=" + t.n.dtype.String())
	}
	b.WriteString(")")
	return b.String()
}

// ListString returns t as a Python list prints ([[1, 2], [3, 4]], [0.5,
// 1.0], [true, false]; a rank-0 tensor prints its value), with floats in
// their dtype's shortest form like String. It realizes t.
func (t *Tensor) ListString() string {
	leaves := t.leafStrings()
	var rec func(axis, off int) string
	rec = func(axis, off int) string {
		if axis == len(t.n.shape) {
			return leaves[off]
		}
		step := prod(t.n.shape[axis+1:])
		parts := make([]string, t.n.shape[axis])
		for i := range parts {
			parts[i] = rec(axis+1, off+i*step)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return rec(0, 0)
}

// leafStrings returns every element formatted, row-major.
func (t *Tensor) leafStrings() []string {
	offs := make([]int, t.Numel())
	for i := range offs {
		offs[i] = i
	}
	return t.pickStrings(offs)
}

// pickStrings returns the elements at the given row-major offsets,
// formatted, reading nothing else.
func (t *Tensor) pickStrings(offs []int) []string {
	out := make([]string, len(offs))
	if v, ok := constValue(t.n); ok {
		b := alloc("print", t.n.dtype, 1)
		writeFloats(b, []float64{v})
		for i := range out {
			out[i] = elemString(b, 0)
		}
		b.Free()
		return out
	}
	t.withData(func(b *devices.Buffer) {
		for i, o := range offs {
			out[i] = elemString(b, o)
		}
	})
	return out
}

// elemString formats element i of b.
func elemString(b *devices.Buffer, i int) string {
	switch b.DType {
	case Bool:
		return strconv.FormatBool(b.Bytes()[i] != 0)
	case Uint8:
		return strconv.Itoa(int(b.Bytes()[i]))
	case Int32:
		return strconv.Itoa(int(b.Int32s()[i]))
	case Int64:
		return strconv.FormatInt(b.Int64s()[i], 10)
	case Float16:
		return FormatFloat(float64(codegen.HalfToFloat(b.Uint16s()[i])), Float16)
	case Float32:
		return FormatFloat(float64(b.Float32s()[i]), Float32)
	case Uint64:
		return strconv.FormatUint(devices.Elems[uint64](b)[i], 10)
	case Int8:
		return strconv.Itoa(int(devices.Elems[int8](b)[i]))
	case Int16:
		return strconv.Itoa(int(devices.Elems[int16](b)[i]))
	case Uint16:
		return strconv.Itoa(int(devices.Elems[uint16](b)[i]))
	case Uint32:
		return strconv.Itoa(int(devices.Elems[uint32](b)[i]))
	}
	return FormatFloat(b.Float64s()[i], Float64)
}

// FormatFloat prints v, a value of float dtype d, in shortest round-trip
// form for d as Python's repr does: "1.0", "0.1", "1e-05", "1.5e+16", "inf",
// "nan".
func FormatFloat(v float64, d DType) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	bits := 64
	if d == Float32 {
		bits = 32
	}
	if d == Float16 {
		return formatHalf(v)
	}
	e := strconv.FormatFloat(v, 'e', -1, bits)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= 16 {
		return e
	}
	s := strconv.FormatFloat(v, 'f', -1, bits)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// formatHalf prints a float16 value with the fewest digits that read back
// to the same half.
func formatHalf(v float64) string {
	h := codegen.FloatToHalf(float32(v))
	for prec := 1; prec < 17; prec++ {
		s := strconv.FormatFloat(v, 'g', prec, 64)
		if f, err := strconv.ParseFloat(s, 64); err == nil && codegen.FloatToHalf(float32(f)) == h {
			return FormatFloat(f, Float64)
		}
	}
	return FormatFloat(v, Float64)
}

// Shown returns what a print of t shows: for each axis the indices of the
// items shown (all of them up to 1000 elements; beyond, the first and last 3
// of every longer axis, with -1 where "..." stands for the rest), and the
// shown elements formatted, by row-major offset. It realizes t.
func (t *Tensor) Shown() (axes [][]int, elems map[int]string) {
	shp := t.n.shape
	summarize := t.Numel() > threshold
	axes = make([][]int, len(shp))
	for i, n := range shp {
		axes[i] = shownItems(n, summarize)
	}
	if t.Numel() == 0 {
		return axes, map[int]string{}
	}
	var offs []int
	var visit func(axis, off int)
	visit = func(axis, off int) {
		if axis == len(shp) {
			offs = append(offs, off)
			return
		}
		for _, i := range axes[axis] {
			if i >= 0 {
				visit(axis+1, off+i*prod(shp[axis+1:]))
			}
		}
	}
	visit(0, 0)
	strs := t.pickStrings(offs)
	elems = make(map[int]string, len(offs))
	for i, o := range offs {
		elems[o] = strs[i]
	}
	return axes, elems
}

// formatArray lays out leaves (by row-major offset, of shape shp, showing
// the items axes lists) NumPy-style; indent is the hanging indent of
// continuation lines.
func formatArray(leaves map[int]string, shp []int, axes [][]int, indent string) string {
	if len(shp) == 0 {
		return leaves[0]
	}
	width := 0
	for _, l := range leaves {
		width = max(width, len(l))
	}
	var rec func(axis, off int, hang string, cur int) string
	rec = func(axis, off int, hang string, cur int) string {
		step := prod(shp[axis+1:])
		items := axes[axis]
		left := len(shp) - axis
		var s strings.Builder
		if left == 1 {
			line := hang
			for k, i := range items {
				word := "..."
				if i >= 0 {
					word = strings.Repeat(" ", width-len(leaves[off+i*step])) + leaves[off+i*step]
				}
				if len(line)+len(word) > cur-1 && len(line) > len(hang) {
					s.WriteString(strings.TrimRight(line, " ") + "\n")
					line = hang
				}
				line += word
				if k < len(items)-1 {
					line += ", "
				}
			}
			s.WriteString(line)
		} else {
			sep := "," + strings.Repeat("\n", left-1)
			for k, i := range items {
				s.WriteString(hang)
				if i < 0 {
					s.WriteString("...")
				} else {
					s.WriteString(rec(axis+1, off+i*step, hang+" ", cur-1))
				}
				if k < len(items)-1 {
					s.WriteString(sep)
				}
			}
		}
		return "[" + s.String()[len(hang):] + "]"
	}
	return rec(0, 0, indent+" ", lineWidth)
}

// shownItems lists the indices printed along an axis of size n; -1 marks
// the "..." of a summarized axis.
func shownItems(n int, summarize bool) []int {
	var out []int
	if summarize && n > 2*edgeItems {
		for i := 0; i < edgeItems; i++ {
			out = append(out, i)
		}
		out = append(out, -1)
		for i := n - edgeItems; i < n; i++ {
			out = append(out, i)
		}
		return out
	}
	for i := 0; i < n; i++ {
		out = append(out, i)
	}
	return out
}
