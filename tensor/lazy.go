package tensor

import (
	"fmt"
	"slices"
	"sync"
	"tiny/codegen"
	"tiny/devices"
	"tiny/shape"
	"weak"
)

// kind says what a lazy node is.
type kind uint8

const (
	kBuffer      kind = iota // data on the device (realized)
	kConst                   // a scalar constant of shape (), broadcast by views
	kElementwise             // op over srcs, all of the node's shape
	kReduce                  // op folds axes of src; the node has the keepdim shape
	kContiguous              // a copy of src into a fresh buffer
	kView                    // base seen through st
	kGather                  // src[0] read along axes[0] at the positions src[1] holds (gather.go)
	kScatter                 // src[0], a copy of its own, with src[2]'s values written along axes[0] at the positions src[1] holds (advindex.go)
)

// lazy is a node of the lazy graph, tinygrad's LazyBuffer. A base (every
// kind but kView) has a contiguous row-major layout of its shape; a view maps
// its own shape onto its base's layout through st.
type lazy struct {
	kind  kind
	op    codegen.Op // elementwise: the ALU op; reduce: OpAdd, OpMax or OpMul
	dtype DType
	shape []int
	src   []*lazy // elementwise, reduce, contiguous: operands of the node's shape (reduce: the input's)
	axes  []int   // reduce: folded axes, increasing
	val   float64 // const: the value

	base *lazy         // view: the base it looks at
	st   shape.Tracker // view: from this node's shape to base's layout

	buf    *devices.Buffer // buffer: the data
	eng    *Engine
	into   *lazy // contiguous made by Assign: the buffer node it may overwrite in place
	assign bool  // made by Assign

	walk   uint64 // the schedule cache's last walk that numbered this node (schedcache.go)
	walkID int32  // its number in that walk

	// Autograd (grad.go). A view collapses onto its base, so it also keeps
	// the node it was made from and the movement that made it: backward
	// undoes the movements one at a time.
	parent       *lazy                // view: the node the movement was applied to
	mv           move                 // view: that movement
	requiresGrad bool                 // Backward stores this node's gradient in grad
	gradSet      bool                 // requiresGrad was set explicitly (tinygrad's requires_grad is True, False or None)
	grad         *lazy                // the gradient Backward stored, nil before
	history      *lazy                // realized buffer: the node it was, kept for backward when a read realized it (see Realize)
	cut          []weak.Pointer[lazy] // realized buffer without history: what it was computed from (cutLeaves)
	custom       *customGrad          // view: a gradient rule of its own (withGrad), in place of parent and mv
}

// baseOf returns the base a node reads: itself unless it is a view.
func (n *lazy) baseOf() *lazy {
	if n.kind == kView {
		return n.base
	}
	return n
}

func newBuffer(e *Engine, b *devices.Buffer, shp []int) *lazy {
	n := &lazy{kind: kBuffer, dtype: b.DType, shape: shp, buf: b, eng: e}
	keepUntilUnreachable(n, b)
	return n
}

func newConst(e *Engine, v float64, d DType) *lazy {
	return &lazy{kind: kConst, dtype: d, shape: []int{}, val: castConst(v, d), eng: e}
}

// castConst rounds v to what a value of dtype d can hold.
func castConst(v float64, d DType) float64 {
	switch d {
	case Bool:
		if v != 0 {
			return 1
		}
		return 0
	case Int8, Uint8, Int16, Uint16, Int32, Uint32, Int64, Uint64:
		return wrapTo(v, d)
	case Float32:
		return float64(float32(v))
	case Float16:
		return float64(codegen.HalfToFloat(codegen.Float64ToHalf(v)))
	}
	return v
}

// elementwise builds an ALU node. All srcs must have shape shp.
func elementwise(op codegen.Op, d DType, shp []int, srcs ...*lazy) *lazy {
	return &lazy{kind: kElementwise, op: op, dtype: d, shape: shp, src: srcs, eng: srcs[0].eng}
}

// view returns n seen through the movement m. Views of views collapse onto
// the same base; the new node remembers n and m for backward. A movement
// that brings a view back to its base's layout still gives a view (with a
// contiguous tracker), not the base itself: the view is the node backward
// must reach when it is a target. Its kernels are those of the base.
func (n *lazy) view(m move) *lazy {
	if v := n.constView(m); v != nil {
		return v
	}
	base, st := n, shape.FromInts(n.shape...)
	if n.kind == kView {
		base, st = n.base, n.st
	}
	nst, err := m.apply(st)
	if err != nil {
		fail("%s: %v", m.op, err)
	}
	shp := nst.IntShape()
	if slices.Equal(shp, base.shape) && nst.Contiguous() && n.kind != kView {
		return base
	}
	return &lazy{kind: kView, dtype: n.dtype, shape: shp, base: base, st: nst, eng: n.eng, parent: n, mv: m}
}

// constView is view's short way for a constant reshaped or expanded (the
// scalar of x + 1 broadcast to x's shape): whatever the movements, its
// tracker is one view of stride 0 everywhere, which constTracker keeps per
// shape, instead of two movements through the symbolic trackers (1.9 of
// the 11 us of x + 1 over 64x64 on CLANG). nil when m is another movement
// or is invalid (view's error), when n is a padded or shrunk constant (not
// every element is the constant: eye, the masks of cumsum), or a dim is 0.
func (n *lazy) constView(m move) *lazy {
	base := n
	if n.kind == kView {
		base = n.base
		if !uniform(n.st) {
			return nil // a pad's mask or a shrink's offset: not every element is the constant
		}
	}
	if base.kind != kConst || m.op != mvReshape && m.op != mvExpand || len(m.shape) > maxConstRank {
		return nil
	}
	switch m.op {
	case mvReshape:
		if prod(m.shape) != prod(n.shape) {
			return nil
		}
	case mvExpand:
		if len(m.shape) != len(n.shape) {
			return nil
		}
		for i, d := range m.shape {
			if n.shape[i] != d && n.shape[i] != 1 {
				return nil
			}
		}
	}
	if slices.Contains(m.shape, 0) {
		return nil
	}
	shp := slices.Clone(m.shape)
	return &lazy{kind: kView, dtype: n.dtype, shape: shp, base: base, st: constTracker(shp), eng: n.eng, parent: n, mv: m}
}

// uniform reports whether st is one view with no mask and every stride 0:
// a constant seen through it is the constant at every element.
func uniform(st shape.Tracker) bool {
	if len(st.Views) != 1 || st.Views[0].Mask != nil {
		return false
	}
	for _, s := range st.Views[0].Strides {
		if v, ok := s.Int(); !ok || v != 0 {
			return false
		}
	}
	return true
}

// maxConstRank is the highest rank constTracker keeps trackers for.
const maxConstRank = 6

// constTrackers holds constTracker's trackers by shape, at most
// maxConstTrackers of them (then it starts over).
var constTrackers = struct {
	sync.Mutex
	m map[constKey]shape.Tracker
}{m: map[constKey]shape.Tracker{}}

const maxConstTrackers = 1024

type constKey struct {
	rank int
	dims [maxConstRank]int
}

// constTracker returns the tracker of a constant seen with shape shp (no
// dim 0, rank at most maxConstRank): shp's view with every stride 0, as
// reshaping the scalar to ones and expanding gives it.
func constTracker(shp []int) shape.Tracker {
	k := constKey{rank: len(shp)}
	copy(k.dims[:], shp)
	constTrackers.Lock()
	defer constTrackers.Unlock()
	if st, ok := constTrackers.m[k]; ok {
		return st
	}
	ones := make([]int, len(shp))
	for i := range ones {
		ones[i] = 1
	}
	st, err := shape.FromInts(ones...).ExpandInts(shp)
	if err != nil {
		panic(fmt.Sprintf("internal error: a constant's view of %v: %v", shp, err))
	}
	if len(constTrackers.m) >= maxConstTrackers {
		clear(constTrackers.m)
	}
	constTrackers.m[k] = st
	return st
}

// reshape returns n with a new shape of the same size.
func (n *lazy) reshape(shp []int) *lazy {
	if slices.Equal(shp, n.shape) {
		return n
	}
	return n.view(move{op: mvReshape, shape: shp})
}

// expand returns n broadcast to shp (same rank, dims of 1 grow).
func (n *lazy) expand(shp []int) *lazy {
	if slices.Equal(shp, n.shape) {
		return n
	}
	return n.view(move{op: mvExpand, shape: shp})
}

// moveOp names a movement op.
type moveOp uint8

const (
	mvReshape moveOp = iota
	mvPermute
	mvExpand
	mvPad
	mvShrink
	mvFlip
	mvStride
)

var moveNames = [...]string{"reshape", "permute", "expand", "pad", "shrink", "flip", "stride"}

func (o moveOp) String() string { return moveNames[o] }

// move is one movement op with its argument.
type move struct {
	op     moveOp
	shape  []int    // reshape, expand: the new shape
	order  []int    // permute: axis i of the result is axis order[i]
	bounds [][2]int // pad: elements before and after; shrink: [lo, hi)
	flip   []bool   // flip: the axes reversed
	steps  []int    // stride: keep every steps[i]-th element (steps > 0)
}

// apply returns st moved by m.
func (m move) apply(st shape.Tracker) (shape.Tracker, error) {
	switch m.op {
	case mvReshape:
		return st.ReshapeInts(m.shape)
	case mvPermute:
		return st.Permute(m.order)
	case mvExpand:
		return st.ExpandInts(m.shape)
	case mvPad:
		return st.PadInts(m.bounds)
	case mvShrink:
		return st.ShrinkInts(m.bounds)
	case mvFlip:
		return st.Flip(m.flip)
	}
	return st.Stride(m.steps)
}
