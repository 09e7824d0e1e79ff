package shape

import (
	"fmt"
	"strings"

	"tiny/symbolic"
)

// View is one strided window onto a buffer: element (i0, i1, ...) of a view
// of the given Shape reads buffer index Offset + sum(ik*Strides[k]) and is
// valid only if every ik lies in [Mask[k][0], Mask[k][1]). A nil Mask means
// every element is valid. Contiguous reports that the view is the plain
// row-major layout of its shape with offset 0 and no mask.
//
// Views are values: every method returns a new View. Build them with NewView,
// which canonicalizes them exactly as tinygrad's View.create does.
type View struct {
	Shape, Strides []*symbolic.Node
	Offset         *symbolic.Node
	Mask           [][2]*symbolic.Node // nil when no mask; [begin, end)
	Contiguous     bool
}

// NewView returns the canonical view of shape with the given strides (nil
// means row-major), offset (nil means 0) and mask (nil means none):
// size-1 dims get stride 0; a shape holding a 0 gets zero strides, offset 0 and
// no mask; a mask covering every dim fully is dropped; an empty mask dim makes
// every element invalid (zero strides, offset 0, mask (0, 0) everywhere); a
// mask dim admitting exactly one index gets stride 0 with its contribution
// moved into the offset. It returns an error for a negative dim, for strides
// or a mask of the wrong length, or for a mask outside the shape.
func NewView(shape, strides []*symbolic.Node, offset *symbolic.Node, mask [][2]*symbolic.Node) (View, error) {
	if err := checkView(shape, strides, mask); err != nil {
		return View{}, err
	}
	return create(shape, strides, offset, mask), nil
}

func checkView(shape, strides []node, mask [][2]node) error {
	for _, s := range shape {
		if s.Min() < 0 {
			return fmt.Errorf("view: negative dimension %s in %s", s.Render(), Tuple(shape))
		}
	}
	if strides != nil && len(strides) != len(shape) {
		return fmt.Errorf("view: got %d strides for shape %s, want %d", len(strides), Tuple(shape), len(shape))
	}
	if mask == nil {
		return nil
	}
	if len(mask) != len(shape) {
		return fmt.Errorf("view: got %d mask dims for shape %s, want %d", len(mask), Tuple(shape), len(shape))
	}
	for i, m := range mask {
		if m[0].Min() < 0 || m[1].Min() < 0 || m[0].Min() > shape[i].Max() || m[1].Min() > shape[i].Max() {
			return fmt.Errorf("view: mask %s is outside shape %s", pairs(mask), Tuple(shape))
		}
	}
	return nil
}

// create is tinygrad's View.create on arguments already checked.
func create(shape, strides []node, offset node, mask [][2]node) View {
	if offset == nil {
		offset = c(0)
	}
	shape = simplified(shape)
	if strides == nil {
		strides = rowMajor(shape)
	} else {
		strides = canonicalStrides(shape, strides)
	}
	n := len(shape)
	for _, s := range shape {
		if isInt(s, 0) {
			return View{Shape: shape, Strides: zeros(n), Offset: c(0), Contiguous: true}
		}
	}
	if mask != nil && fullMask(mask, shape) {
		mask = nil
	}
	if mask != nil {
		strides, offset, mask = foldSingle(strides, offset, mask)
	}
	offset = symbolic.Simplify(offset)
	contiguous := isInt(offset, 0) && mask == nil && eqs(strides, rowMajor(shape))
	return View{Shape: shape, Strides: strides, Offset: offset, Mask: mask, Contiguous: contiguous}
}

// foldSingle gives stride 0 to every mask dim that admits at most one index,
// moving its contribution into the offset; an empty dim invalidates all.
func foldSingle(strides []node, offset node, mask [][2]node) ([]node, node, [][2]node) {
	elim := make([]bool, len(mask))
	any := false
	for i, m := range mask {
		// Only a dim known to admit at most one index folds (tinygrad's
		// resolve defaults to "more than one" when bounds cannot tell).
		elim[i] = symbolic.Simplify(symbolic.Lt(add(m[0], c(1)), m[1])).IsFalse()
		any = any || elim[i]
	}
	if !any {
		return strides, offset, mask
	}
	for _, m := range mask {
		if symbolic.Simplify(symbolic.Lt(m[0], m[1])).IsFalse() {
			empty := make([][2]node, len(mask))
			for i := range empty {
				empty[i] = [2]node{c(0), c(0)}
			}
			return zeros(len(mask)), c(0), empty
		}
	}
	ns := make([]node, len(strides))
	for i, st := range strides {
		ns[i] = st
		if elim[i] {
			offset = add(offset, mul(st, mask[i][0]))
			ns[i] = c(0)
		}
	}
	return ns, offset, mask
}

// simplified returns ns with every symbolic entry simplified, so that equal
// dims compare equal and constant ones are constants.
func simplified(ns []node) []node {
	out := ns
	for i, n := range ns {
		if n.IsConst() {
			continue
		}
		if s := symbolic.Simplify(n); s != n {
			if &out[0] == &ns[0] {
				out = append([]node{}, ns...)
			}
			out[i] = s
		}
	}
	return out
}

func canonicalStrides(shape, strides []node) []node {
	out := make([]node, len(strides))
	for i, st := range strides {
		out[i] = st
		if isInt(shape[i], 1) {
			out[i] = c(0)
		}
	}
	return out
}

func fullMask(mask [][2]node, shape []node) bool {
	for i, m := range mask {
		if !isInt(m[0], 0) || !eq(m[1], shape[i]) {
			return false
		}
	}
	return true
}

func zeros(n int) []node {
	out := make([]node, n)
	for i := range out {
		out[i] = c(0)
	}
	return out
}

// Size returns the number of elements the view's shape holds.
func (v View) Size() *symbolic.Node { return prod(v.Shape) }

// String returns the view in tinygrad's repr, such as
// View(shape=(3,), strides=(0,), offset=0, mask=None, contiguous=False).
func (v View) String() string {
	mask := "None"
	if v.Mask != nil {
		mask = pairs(v.Mask)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "View(shape=%s, strides=%s, offset=%s, mask=%s, contiguous=%s)",
		Tuple(v.Shape), Tuple(v.Strides), v.Offset.Render(), mask, map[bool]string{true: "True", false: "False"}[v.Contiguous])
	return b.String()
}
