package cpu

import (
	"tiny/codegen"
)

// This file builds the loads, stores and accumulator updates. In an
// innermost loop an affine, ungated index is the fast path: a contiguous
// load aliases the buffer, a contiguous store copies (or was computed in
// place), other strides walk the buffer with a step. Everything else
// gathers or scatters through a materialized index run.

// memFn returns the memory a load or store works on for one frame.
type memFn[T any] func(fr *frame) []T

// mem returns the memory of a DEFINE_GLOBAL or DEFINE_ACC of type T.
func mem[T num](c *compiler, src int) memFn[T] {
	u := c.u[src]
	if u.Op == codegen.OpDefineAcc {
		return func(fr *frame) []T { return get[T](&fr.own)[src] }
	}
	b := u.Buf
	return func(fr *frame) []T { return get[T](&fr.g)[b] }
}

func halfMem(c *compiler, src int) memFn[uint16] {
	b := c.u[src].Buf
	return func(fr *frame) []uint16 { return fr.h[b] }
}

// access describes the index of a load or store: affine (fast path) or an
// operand run with an optional gate.
type access struct {
	fast  bool
	aff   affine
	idx   opnd
	gate  opnd
	gated bool
}

func (c *compiler) access(idx int, gate int) access {
	if a, ok := c.fastIndex(idx); ok && gate < 0 {
		return access{fast: true, aff: a}
	}
	if a, ok := c.fastIndex(idx); ok && c.vecMode() && c.home(gate) != c.blk.rng {
		// A gate fixed for the whole run (a gather's range check on a
		// position loaded outside the loop): one test per run, then the
		// affine path.
		return access{fast: true, aff: a, gate: c.in(gate), gated: true}
	}
	ac := access{idx: c.in(idx)}
	if gate >= 0 {
		ac.gate, ac.gated = c.in(gate), true
	}
	return ac
}

// fastIndex returns the affine form of index idx when a memory uop of the
// block being filled can use it directly: in an innermost loop, an index
// that varies with the loop; in an outer loop, any affine index.
func (c *compiler) fastIndex(idx int) (affine, bool) {
	a, ok := c.aff[idx]
	if !ok || (c.vecMode() && c.home(idx) != c.blk.rng) {
		return affine{}, false
	}
	return a, true
}

func (c *compiler) load(i int) vfunc {
	u := c.u[i]
	gate := -1
	if len(u.Src) > 2 {
		gate = u.Src[2]
	}
	ac := c.access(u.Src[1], gate)
	src := c.u[u.Src[0]]
	if src.Op == codegen.OpDefineGlobal && src.DType == codegen.Float16 {
		return loadv(i, halfMem(c, u.Src[0]), ac, float32(u.Val), codegen.HalfToFloat)
	}
	return types[regType(u.DType)].load(c, i, ac)
}

// loadv loads memory of type S into a run of R, converting with conv when
// the types differ (float16 halves).
func loadv[S, R num](dst int, m memFn[S], ac access, alt R, conv func(S) R) vfunc {
	if ac.fast {
		a := ac.aff
		if ac.gated {
			// Copies, never aliases the buffer: a run with the gate off
			// writes alt into the register.
			g := ac.gate.slot
			return func(fr *frame, blk, n int) {
				d := get[R](&fr.cur)[dst][:n]
				if fr.cur.u8[g][0] == 0 {
					for i := range d {
						d[i] = alt
					}
					return
				}
				src, j := m(fr), a.base(fr)+a.coef*blk
				for i := range d {
					if conv != nil {
						d[i] = conv(src[j])
					} else {
						d[i] = R(src[j])
					}
					j += a.coef
				}
			}
		}
		if a.coef == 1 && conv == nil {
			return func(fr *frame, blk, n int) {
				off := a.base(fr) + blk
				get[R](&fr.cur)[dst] = as[R](m(fr)[off : off+n])
			}
		}
		return func(fr *frame, blk, n int) {
			src, d := m(fr), get[R](&fr.cur)[dst][:n]
			j := a.base(fr) + a.coef*blk
			for i := range d {
				if conv != nil {
					d[i] = conv(src[j])
				} else {
					d[i] = R(src[j])
				}
				j += a.coef
			}
		}
	}
	is, gs := step(ac.idx), step(ac.gate)
	return func(fr *frame, _, n int) {
		src, d := m(fr), get[R](&fr.cur)[dst][:n]
		idx := fr.cur.ix[ac.idx.slot]
		var g []uint8
		if ac.gated {
			g = fr.cur.u8[ac.gate.slot]
		}
		for i := range d {
			if ac.gated && g[i*gs] == 0 {
				d[i] = alt
				continue
			}
			if conv != nil {
				d[i] = conv(src[idx[i*is]])
			} else {
				d[i] = R(src[idx[i*is]])
			}
		}
	}
}

func (c *compiler) store(i int) vfunc {
	u := c.u[i]
	if _, ok := c.fuse[u.Src[2]]; ok {
		return nil
	}
	gate := -1
	if len(u.Src) > 3 {
		gate = u.Src[3]
	}
	ac := c.access(u.Src[1], gate)
	v := c.in(u.Src[2])
	dst := c.u[u.Src[0]]
	if dst.DType == codegen.Float16 {
		return storev(halfMem(c, u.Src[0]), ac, v, codegen.FloatToHalf)
	}
	return types[regType(dst.DType)].store(c, u.Src[0], ac, v)
}

// storev stores a run of R (or a scalar) into memory of type S.
func storev[S, R num](m memFn[S], ac access, v opnd, conv func(R) S) vfunc {
	vs := step(v)
	if ac.fast {
		a := ac.aff
		var f vfunc
		if a.coef == 1 && conv == nil && vs == 1 {
			f = func(fr *frame, blk, n int) {
				off := a.base(fr) + blk
				copy(m(fr)[off:off+n], as[S](get[R](&fr.cur)[v.slot][:n]))
			}
		} else {
			f = func(fr *frame, blk, n int) {
				d, x := m(fr), get[R](&fr.cur)[v.slot]
				j := a.base(fr) + a.coef*blk
				for i := range n {
					if conv != nil {
						d[j] = conv(x[i*vs])
					} else {
						d[j] = S(x[i*vs])
					}
					j += a.coef
				}
			}
		}
		if ac.gated {
			// A gate fixed for the whole run (a scatter's range check on
			// a position loaded outside the loop): one test per run.
			g, run := ac.gate.slot, f
			f = func(fr *frame, blk, n int) {
				if fr.cur.u8[g][0] != 0 {
					run(fr, blk, n)
				}
			}
		}
		return f
	}
	is, gs := step(ac.idx), step(ac.gate)
	return func(fr *frame, _, n int) {
		d, x := m(fr), get[R](&fr.cur)[v.slot]
		idx := fr.cur.ix[ac.idx.slot]
		var g []uint8
		if ac.gated {
			g = fr.cur.u8[ac.gate.slot]
		}
		for i := range n {
			if ac.gated && g[i*gs] == 0 {
				continue
			}
			if conv != nil {
				d[idx[i*is]] = conv(x[i*vs])
			} else {
				d[idx[i*is]] = S(x[i*vs])
			}
		}
	}
}

func (c *compiler) accum(i int) vfunc {
	u := c.u[i]
	acc := u.Src[0]
	var ac access
	if a, ok := c.fastIndex(u.Src[1]); ok {
		ac = access{fast: true, aff: a}
	} else {
		ac = access{idx: c.in(u.Src[1])}
	}
	if g, ok := c.group[i]; ok {
		if i != g.last {
			return nil
		}
		return c.accumRows(g)
	}
	if q, ok := c.chained[i]; ok {
		return c.accumChain(i, q)
	}
	if u.ReduceOp == codegen.OpMulAcc {
		x, y := c.mulOps(u.Src[2], u.Src[3])
		if dot := ac.idx.scalar || ac.fast && ac.aff.coef == 1 && c.vecMode(); dot && !x.scalar {
			return types[regType(u.DType)].accumDot(acc, ac, x, y)
		}
		// Scattered accumulators: one multiply-add each.
		return types[regType(u.DType)].accumFMA(acc, ac, x, y)
	}
	return types[regType(u.DType)].accum(acc, u.ReduceOp, ac, c.in(u.Src[2]))
}

// accumv folds a run into accumulators: into one (a reduce loop innermost),
// element by element (an output loop innermost), or through an index run.
func accumv[T num](acc int, op codegen.Op, ac access, v opnd) vfunc {
	vs := step(v)
	switch {
	case ac.idx.scalar && vs == 1:
		return func(fr *frame, _, n int) {
			a := get[T](&fr.own)[acc]
			j := fr.cur.ix[ac.idx.slot][0]
			a[j] = combine(op, a[j], reduceRun(op, get[T](&fr.cur)[v.slot][:n]))
		}
	case ac.idx.scalar && vs == 0 && op == codegen.OpAdd:
		// A constant summed along the run: pairwise, as a run of it.
		return func(fr *frame, _, n int) {
			var run [blockSize]T
			x := get[T](&fr.cur)[v.slot][0]
			for i := range n {
				run[i] = x
			}
			a := get[T](&fr.own)[acc]
			j := fr.cur.ix[ac.idx.slot][0]
			a[j] += pairSum(run[:n])
		}
	case ac.fast && ac.aff.coef == 1 && vs == 1:
		vv, _ := arith[T](op)
		return func(fr *frame, blk, n int) {
			off := ac.aff.base(fr) + blk
			a := get[T](&fr.own)[acc][off : off+n]
			vv(a, a, get[T](&fr.cur)[v.slot][:n])
		}
	case ac.fast:
		return func(fr *frame, blk, n int) {
			a, x := get[T](&fr.own)[acc], get[T](&fr.cur)[v.slot]
			j := ac.aff.base(fr) + ac.aff.coef*blk
			for i := range n {
				a[j] = combine(op, a[j], x[i*vs])
				j += ac.aff.coef
			}
		}
	}
	is := step(ac.idx)
	return func(fr *frame, _, n int) {
		a, x := get[T](&fr.own)[acc], get[T](&fr.cur)[v.slot]
		idx := fr.cur.ix[ac.idx.slot]
		for i := range n {
			j := idx[i*is]
			a[j] = combine(op, a[j], x[i*vs])
		}
	}
}

// accumDot adds x*y into accumulators: a dot product into one, or
// acc[j] += x[j]*y[j] along an output loop (matmul's inner loop).
func accumDot[T num](acc int, ac access, x, y opnd) vfunc {
	ys := step(y)
	switch {
	case ac.idx.scalar:
		return func(fr *frame, _, n int) {
			t := get[T](&fr.cur)
			a := get[T](&fr.own)[acc]
			j := fr.cur.ix[ac.idx.slot][0]
			a[j] += dot(t[x.slot][:n], t[y.slot], ys)
		}
	case ac.fast && ac.aff.coef == 1:
		return func(fr *frame, blk, n int) {
			t := get[T](&fr.cur)
			off := ac.aff.base(fr) + blk
			a := get[T](&fr.own)[acc][off : off+n]
			mulAdd(a, t[x.slot][:n], t[y.slot], ys, a, 1)
		}
	}
	panic("internal error: dot product into scattered accumulators")
}

// accumChain builds acc[j] += sum((x*y+z)*w) for multiply-add ACCUM i
// into one accumulator, whose factor q is the MULACC x*y+z.
func (c *compiler) accumChain(i, q int) vfunc {
	u := c.u[i]
	w := u.Src[2]
	if w == q {
		w = u.Src[3]
	}
	x, y := c.mulOps(c.u[q].Src[0], c.u[q].Src[1])
	zo, wo, idx := c.in(c.u[q].Src[2]), c.in(w), c.in(u.Src[1])
	return types[regType(u.DType)].accumChain(u.Src[0], idx, x, y, zo, wo)
}

func accumChainv[T num](acc int, idx, x, y, z, w opnd) vfunc {
	ys, zs, ws := step(y), step(z), step(w)
	return func(fr *frame, _, n int) {
		t := get[T](&fr.cur)
		a := get[T](&fr.own)[acc]
		j := fr.cur.ix[idx.slot][0]
		a[j] += dotChain(t[x.slot][:n], t[y.slot], ys, t[z.slot], zs, t[w.slot], ws)
	}
}

// accumFMAv adds x*y into accumulators one multiply-add at a time: into
// one, element by element, or through an index run, where the products do
// not make a dot product (both factors fixed for the run, or scattered
// accumulators).
func accumFMAv[T num](acc int, ac access, x, y opnd) vfunc {
	xs, ys := step(x), step(y)
	switch {
	case ac.idx.scalar:
		return func(fr *frame, _, n int) {
			t, a := get[T](&fr.cur), get[T](&fr.own)[acc]
			j := fr.cur.ix[ac.idx.slot][0]
			for i := range n {
				a[j] = fma(t[x.slot][i*xs], t[y.slot][i*ys], a[j])
			}
		}
	case ac.fast:
		return func(fr *frame, blk, n int) {
			t, a := get[T](&fr.cur), get[T](&fr.own)[acc]
			j := ac.aff.base(fr) + ac.aff.coef*blk
			for i := range n {
				a[j] = fma(t[x.slot][i*xs], t[y.slot][i*ys], a[j])
				j += ac.aff.coef
			}
		}
	}
	is := step(ac.idx)
	return func(fr *frame, _, n int) {
		t, a := get[T](&fr.cur), get[T](&fr.own)[acc]
		idx := fr.cur.ix[ac.idx.slot]
		for i := range n {
			j := idx[i*is]
			a[j] = fma(t[x.slot][i*xs], t[y.slot][i*ys], a[j])
		}
	}
}
