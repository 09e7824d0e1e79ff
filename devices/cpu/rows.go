package cpu

import "tiny/codegen"

// This file computes the register tile codegen emits for a matmul: in an
// innermost loop over columns j, several add-ACCUMs acc_r[j] += x[j]*s_r
// that share the run x (a row of B) and each scale it by a scalar from
// outside the loop (an element of A). Go does not vectorize, so what pays is
// loading each x[j] once for several rows, and touching each accumulator
// once for two reduce steps: the reduce loop around such a loop runs its
// iterations in pairs (pairs), one pass over the accumulators per pair.

// rowAcc is one member of a row group: its accumulators, their index and
// the slot of its scalar factor.
type rowAcc struct {
	acc int
	aff affine
	s   int
}

// accumRows builds the closure of row group g, which runs its members in
// order, four per pass over x, and g's pair functions.
func (c *compiler) accumRows(g *rowGroup) vfunc {
	rows := make([]rowAcc, len(g.accums))
	for r, i := range g.accums {
		rows[r] = rowAcc{acc: c.u[i].Src[0], aff: c.aff[c.u[i].Src[1]], s: g.scal[r]}
	}
	x := c.in(g.x).slot
	t := regType(c.u[g.last].DType)
	xs0, xs1, sc, of := c.temp(t), c.temp(t), c.temp(t), c.temp(tIx)
	switch t {
	case tF32:
		return rowsFns[float32](g, rows, x, xs0, xs1, sc, of)
	case tF64:
		return rowsFns[float64](g, rows, x, xs0, xs1, sc, of)
	case tI32:
		return rowsFns[int32](g, rows, x, xs0, xs1, sc, of)
	case tI64:
		return rowsFns[int64](g, rows, x, xs0, xs1, sc, of)
	}
	return rowsFns[uint8](g, rows, x, xs0, xs1, sc, of)
}

// rowsFns returns the closure of a row group over x and sets g.snap and
// g.pair: snap records reduce step u (its run of x, copied when it lives
// in x's own memory, which the next step overwrites; the scalars; the
// offsets) in the scratch slots xs0 or xs1, sc and of; pair then applies
// both steps in one pass, row by row in order.
func rowsFns[T num](g *rowGroup, rows []rowAcc, x, xs0, xs1, sc, of int) vfunc {
	nr := len(rows)
	g.snap = func(fr *frame, u, blk, n int) {
		cur, own := get[T](&fr.cur), get[T](&fr.own)
		xs, run := xs0, cur[x][:n]
		if u == 1 {
			xs = xs1
		}
		if &run[0] == &own[x][0] {
			copy(own[xs], run)
			run = own[xs][:n]
		}
		cur[xs] = run
		s, o := own[sc][u*nr:], fr.own.ix[of][u*nr:]
		for r, q := range rows {
			s[r] = cur[q.s][0]
			o[r] = q.aff.base(fr) + blk
		}
	}
	g.pair = func(fr *frame, n int) {
		cur, own := get[T](&fr.cur), get[T](&fr.own)
		x0, x1 := cur[xs0][:n], cur[xs1][:n]
		s0, s1 := own[sc][:nr], own[sc][nr:2*nr]
		o0, o1 := fr.own.ix[of][:nr], fr.own.ix[of][nr:2*nr]
		r := 0
		for ; r+4 <= nr; r += 4 {
			if o0[r] != o1[r] || o0[r+1] != o1[r+1] || o0[r+2] != o1[r+2] || o0[r+3] != o1[r+3] {
				break
			}
			a := func(k int) []T { return own[rows[r+k].acc][o0[r+k] : o0[r+k]+n] }
			mulAdd4x2(a(0), a(1), a(2), a(3), x0, x1, s0[r:r+4], s1[r:r+4])
		}
		for ; r < nr; r++ {
			a := own[rows[r].acc]
			if o0[r] == o1[r] {
				mulAdd1x2(a[o0[r]:o0[r]+n], x0, x1, s0[r], s1[r])
				continue
			}
			d := a[o0[r] : o0[r]+n]
			mulAdd(d, x0, s0[r:], 0, d, 1)
			d = a[o1[r] : o1[r]+n]
			mulAdd(d, x1, s1[r:], 0, d, 1)
		}
	}
	return func(fr *frame, blk, n int) {
		cur, own := get[T](&fr.cur), get[T](&fr.own)
		xs := cur[x][:n]
		r := 0
		for ; r+4 <= nr; r += 4 {
			q := rows[r : r+4 : r+4]
			o0, o1, o2, o3 := q[0].aff.base(fr)+blk, q[1].aff.base(fr)+blk, q[2].aff.base(fr)+blk, q[3].aff.base(fr)+blk
			mulAdd4(own[q[0].acc][o0:o0+n], own[q[1].acc][o1:o1+n], own[q[2].acc][o2:o2+n], own[q[3].acc][o3:o3+n],
				xs, cur[q[0].s][0], cur[q[1].s][0], cur[q[2].s][0], cur[q[3].s][0])
		}
		for ; r < nr; r++ {
			q := rows[r]
			o := q.aff.base(fr) + blk
			a := own[q.acc][o : o+n]
			mulAdd(a, xs, cur[q.s], 0, a, 1)
		}
	}
}

// mulAdd4 computes a_r[j] += x[j]*s_r for four runs of accumulators in one
// pass over x.
func mulAdd4[T num](a0, a1, a2, a3, x []T, s0, s1, s2, s3 T) {
	a0, a1, a2, a3 = a0[:len(x)], a1[:len(x)], a2[:len(x)], a3[:len(x)]
	for j, v := range x {
		a0[j] += v * s0
		a1[j] += v * s1
		a2[j] += v * s2
		a3[j] += v * s3
	}
}

// mulAdd4x2 is mulAdd4 for two reduce steps, x with scalars s and then y
// with scalars t, rounding as the two steps one after the other do.
func mulAdd4x2[T num](a0, a1, a2, a3, x, y, s, t []T) {
	n := len(x)
	a0, a1, a2, a3, y = a0[:n], a1[:n], a2[:n], a3[:n], y[:n]
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	t0, t1, t2, t3 := t[0], t[1], t[2], t[3]
	for j := 0; j < n; j++ {
		v, w := x[j], y[j]
		a0[j] = a0[j] + v*s0 + w*t0
		a1[j] = a1[j] + v*s1 + w*t1
		a2[j] = a2[j] + v*s2 + w*t2
		a3[j] = a3[j] + v*s3 + w*t3
	}
}

// mulAdd1x2 is mulAdd4x2 for one row.
func mulAdd1x2[T num](a, x, y []T, s, t T) {
	n := len(x)
	a, y = a[:n], y[:n]
	for j := 0; j < n; j++ {
		a[j] = a[j] + x[j]*s + y[j]*t
	}
}

// pairs makes the reduce loop b run its iterations in pairs when its body
// is statements without effects (the group's scalars and indices) and then
// one innermost loop whose only effect is one row group g, computed last:
// for each run of the inner loop and each of two iterations, the statements
// and the loop's closures before g's run and g records the step; then g
// applies both. Accumulators must be
// distinct members' own, so that only each row's order of steps matters.
func (c *compiler) pairs(b *block) {
	in := b.lastLoop
	if b.rng < 0 || b.inner || in == nil || !in.inner || len(b.stmts) != b.nAtLoop || len(in.vec) == 0 {
		return
	}
	var g *rowGroup
	for j := b.rng + 1; c.u[j].Op != codegen.OpEnd || c.u[j].Src[0] != b.rng; j++ {
		u := c.u[j]
		switch u.Op {
		case codegen.OpStore, codegen.OpDefineAcc:
			return
		case codegen.OpLoad:
			if c.u[u.Src[0]].Op == codegen.OpDefineAcc {
				return
			}
		case codegen.OpAccum:
			m := c.group[j]
			if m == nil || (g != nil && m != g) || c.scope[j] != in.rng {
				return
			}
			g = m
		}
	}
	if g == nil || g.pair == nil || 2*len(g.accums) > blockSize {
		return
	}
	seen := map[int]bool{}
	for _, i := range g.accums {
		if seen[c.u[i].Src[0]] {
			return
		}
		seen[c.u[i].Src[0]] = true
	}
	c.prog.paired++
	b.paired = &pairLoop{pre: b.stmts[:len(b.stmts)-1], in: in, feed: in.vec[:len(in.vec)-1], g: g}
}

// pairLoop is a reduce loop run in pairs of iterations (see pairs).
type pairLoop struct {
	pre  []stmt
	in   *block
	feed []vfunc
	g    *rowGroup
}

func (p *pairLoop) run(fr *frame, b *block, lo, hi int) {
	v := fr.cur.ix[b.rng]
	m := fr.cur.ix[p.in.end][0]
	i := lo
	for ; i+2 <= hi; i += 2 {
		for blk := 0; blk < m; blk += blockSize {
			n := min(blockSize, m-blk)
			for u := range 2 {
				v[0] = i + u
				runStmts(fr, p.pre)
				for _, f := range p.feed {
					f(fr, blk, n)
				}
				p.g.snap(fr, u, blk, n)
			}
			p.g.pair(fr, n)
		}
	}
	for ; i < hi; i++ {
		v[0] = i
		runStmts(fr, b.stmts)
	}
}
