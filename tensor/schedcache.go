package tensor

import (
	"encoding/binary"
	"math"

	"tiny/codegen"
	"tiny/shape"
	"tiny/symbolic"
)

// The schedule cache, as tinygrad's TinyJit: a training loop builds the
// same graph every step, with new buffers (a new batch, the parameters the
// last step wrote) at the leaves. The scheduler's decisions depend only on
// the graph's structure, so realize writes the structure down, buffers as
// numbered inputs, and reuses the kernels it cut the last time it saw the
// same structure: from the second step on nothing is scheduled or
// compiled, and the kernels run on the step's own buffers.
//
// The structure is every node reachable from the targets through src,
// base and the target of an assign, numbered in the order a depth-first
// walk first meets them, each written as its kind, op, dtype, shape, axes,
// constant value, view tracker and the numbers of the nodes it reads:
// every field the scheduler reads. Two graphs with the same description
// cut into the same kernels. (A field the scheduler starts to read must
// be written here too.)

// cachedItem is an item with its nodes replaced by their numbers.
type cachedItem struct {
	out    int
	inputs []int
	kernel *codegen.Kernel
	key    string // the kernel's cache key (item.cacheKey)
}

// maxSchedules bounds the cache; past it the cache starts over.
const maxSchedules = 256

// graphKey returns the description of the graph under targets and its
// nodes by number.
func (e *Engine) graphKey(targets []*lazy) (string, []*lazy) {
	// Nodes are numbered in place (lazy.walk, lazy.walkID), stamped with
	// this walk's generation: a map would cost more than the rest.
	e.walks++
	gen := e.walks
	nodes := make([]*lazy, 0, e.lastNodes)
	buf := make([]byte, 0, e.lastKey)
	num := func(v int64) { buf = binary.AppendVarint(buf, v) }
	// A node's sources, then its base (a view) and what it is assigned
	// into: the references its description names.
	nrefs := func(n *lazy) int {
		k := len(n.src)
		if n.kind == kView {
			k++
		}
		if n.into != nil {
			k++
		}
		return k
	}
	ref := func(n *lazy, i int) *lazy {
		if i < len(n.src) {
			return n.src[i]
		}
		if i == len(n.src) && n.kind == kView {
			return n.base
		}
		return n.into
	}
	number := func(n *lazy) {
		var srcIDs [3]int
		refs := srcIDs[:0]
		for i := range nrefs(n) {
			refs = append(refs, int(ref(n, i).walkID))
		}
		id := len(nodes)
		n.walk, n.walkID = gen, int32(id)
		nodes = append(nodes, n)
		buf = append(buf, 0xff, byte(n.kind), byte(n.op), byte(n.dtype))
		num(int64(len(n.shape)))
		for _, d := range n.shape {
			num(int64(d))
		}
		num(int64(len(refs)))
		for _, r := range refs {
			num(int64(r))
		}
		num(int64(len(n.axes))) // reduce, gather
		for _, a := range n.axes {
			num(int64(a))
		}
		switch n.kind {
		case kConst:
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(n.val))
		case kView:
			buf = appendTracker(buf, n.st)
		case kBuffer:
			num(int64(n.buf.Len))
		}
	}
	// Sources first, so a node's description names numbers already given;
	// the node is numbered after them. The walk keeps its own stack: a
	// graph may be a million ops deep (a loop without a realize).
	type frame struct {
		n    *lazy
		next int
	}
	var stack []frame
	visit := func(root *lazy) int {
		if root.walk != gen {
			stack = append(stack[:0], frame{n: root})
		}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < nrefs(f.n) {
				c := ref(f.n, f.next)
				f.next++
				if c.walk != gen {
					stack = append(stack, frame{n: c})
				}
				continue
			}
			number(f.n)
			stack = stack[:len(stack)-1]
		}
		return int(root.walkID)
	}
	for _, t := range targets {
		num(int64(visit(t)))
	}
	e.lastNodes, e.lastKey = len(nodes), len(buf)
	return string(buf), nodes
}

// appendTracker writes st's views; a symbolic entry (a variable shape)
// writes its rendering.
func appendTracker(buf []byte, st shape.Tracker) []byte {
	node := func(x *symbolic.Node) {
		if v, ok := x.Int(); ok {
			buf = append(buf, 0)
			buf = binary.AppendVarint(buf, v)
			return
		}
		s := x.Render()
		buf = append(buf, 1)
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	buf = binary.AppendUvarint(buf, uint64(len(st.Views)))
	for _, v := range st.Views {
		buf = binary.AppendUvarint(buf, uint64(len(v.Shape)))
		for i := range v.Shape {
			node(v.Shape[i])
			node(v.Strides[i])
		}
		node(v.Offset)
		if v.Mask == nil {
			buf = append(buf, 0)
		} else {
			buf = append(buf, 1)
			for _, m := range v.Mask {
				node(m[0])
				node(m[1])
			}
		}
		if v.Contiguous {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
	}
	return buf
}

// cachedSchedule returns the schedule for targets, from the engine's cache
// when a graph of the same structure was scheduled before. The engine's
// lock is held.
func (e *Engine) cachedSchedule(targets []*lazy) []*item {
	key, nodes := e.graphKey(targets)
	if c, ok := e.schedules[key]; ok {
		e.stats.ScheduleHits++
		items := make([]*item, len(c))
		for i, ci := range c {
			ins := make([]*lazy, len(ci.inputs))
			for j, x := range ci.inputs {
				ins[j] = nodes[x]
			}
			items[i] = &item{out: nodes[ci.out], inputs: ins, kernel: ci.kernel, key: ci.key}
		}
		return items
	}
	items := schedule(targets)
	ids := make(map[*lazy]int, len(nodes))
	for i, n := range nodes {
		ids[n] = i
	}
	c := make([]cachedItem, len(items))
	for i, it := range items {
		out, ok := ids[it.out]
		if !ok {
			return items // not a node of the walk: do not cache
		}
		ins := make([]int, len(it.inputs))
		for j, in := range it.inputs {
			if ins[j], ok = ids[in]; !ok {
				return items
			}
		}
		c[i] = cachedItem{out: out, inputs: ins, kernel: it.kernel, key: it.cacheKey()}
	}
	if e.schedules == nil || len(e.schedules) >= maxSchedules {
		e.schedules = map[string][]cachedItem{}
	}
	e.schedules[key] = c
	return items
}
