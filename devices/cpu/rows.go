package cpu

import (
	"fmt"
	"slices"

	"tiny/codegen"
)

// This file runs the register tile codegen records for a matmul (STEP,
// codegen/step.go): in an innermost loop over columns j, several
// multiply-add ACCUMs acc_r[j] += x[j]*s_r that share the run x (a row of
// B) and each scale it by a scalar from outside the loop (an element of
// A). Go does not vectorize, so what pays is loading each x[j] once for
// several rows, and touching each accumulator once for several reduce
// steps: the reduce loop around such a loop runs passSteps of its
// iterations per pass over the accumulators (steps).

// rowAcc is one member of a row group: its accumulators, their index and
// the slot of its scalar factor.
type rowAcc struct {
	acc int
	aff affine
	s   int

	// direct is set when s is a load of buffer buf at index at, of an
	// outer loop, used only here: a stepped loop (steps) then reads the
	// buffer itself instead of running the load's closure.
	direct bool
	buf    int
	at     affine
}

// accumRows builds the closure of row group g, which runs its members in
// order, four per pass over x, and g's snap and apply functions.
func (c *compiler) accumRows(g *rowGroup) vfunc {
	rows := make([]rowAcc, len(g.Accums))
	t := regType(c.u[g.last].DType)
	for r, i := range g.Accums {
		rows[r] = rowAcc{acc: c.u[i].Src[0], aff: c.aff[c.u[i].Src[1]], s: g.scal[r]}
		l := c.u[g.scal[r]]
		if l.Op != codegen.OpLoad || len(l.Src) != 2 || c.uses[g.scal[r]] != 1 || c.inner[c.scope[g.scal[r]]] {
			continue
		}
		b := c.u[l.Src[0]]
		if a, ok := c.aff[l.Src[1]]; ok && b.Op == codegen.OpDefineGlobal && b.DType != codegen.Float16 && regType(b.DType) == t {
			rows[r].direct, rows[r].buf, rows[r].at = true, b.Buf, a
			g.direct = append(g.direct, g.scal[r])
		}
	}
	x := c.in(g.X).slot
	var xs [passSteps]int
	for u := range xs {
		xs[u] = c.temp(t, blockSize)
	}
	sc, of := c.temp(t, passSteps*len(rows)), c.temp(tIx, len(rows))
	switch t {
	case tF32:
		return rowsFns[float32](g, rows, x, xs, sc, of)
	case tF64:
		return rowsFns[float64](g, rows, x, xs, sc, of)
	case tI32:
		return rowsFns[int32](g, rows, x, xs, sc, of)
	case tI64:
		return rowsFns[int64](g, rows, x, xs, sc, of)
	case tI8:
		return rowsFns[int8](g, rows, x, xs, sc, of)
	case tI16:
		return rowsFns[int16](g, rows, x, xs, sc, of)
	case tU16:
		return rowsFns[uint16](g, rows, x, xs, sc, of)
	case tU32:
		return rowsFns[uint32](g, rows, x, xs, sc, of)
	case tU64:
		return rowsFns[uint64](g, rows, x, xs, sc, of)
	}
	return rowsFns[uint8](g, rows, x, xs, sc, of)
}

// passSteps is the number of reduce steps a stepped loop applies per pass
// over the accumulators. One worker, on a matmul's runs: two rows by four
// steps per pass 0.096 ns per flop, four rows by two steps 0.106, four by
// four 0.113 (the scalars no longer fit in registers), four by one 0.15.
const passSteps = 4

// rowsFns returns the closure of a row group over x and sets g.snap and
// g.apply: snap records reduce step u (its run of x, copied when it lives
// in x's own memory, which the next step overwrites; each row's scalar and
// offset, the same for every step) in the scratch slots xs[u], sc and of;
// apply then adds all passSteps steps in one pass, two rows at a time, each
// row's steps in order.
func rowsFns[T num](g *rowGroup, rows []rowAcc, x int, xs [passSteps]int, sc, of int) vfunc {
	nr := len(rows)
	g.snap = func(fr *frame, u, blk, n int) {
		cur, own := get[T](&fr.cur), get[T](&fr.own)
		run := cur[x][:n]
		if &run[0] == &own[x][0] {
			copy(own[xs[u]], run)
			run = own[xs[u]][:n]
		}
		cur[xs[u]] = run
		s, o, bufs := own[sc], fr.own.ix[of], get[T](&fr.g)
		for r, q := range rows {
			if q.direct {
				s[r*passSteps+u] = bufs[q.buf][q.at.base(fr)]
			} else {
				s[r*passSteps+u] = cur[q.s][0]
			}
			o[r] = q.aff.base(fr) + blk
		}
	}
	g.apply = func(fr *frame, n int) {
		cur, own := get[T](&fr.cur), get[T](&fr.own)
		x0, x1, x2, x3 := cur[xs[0]][:n], cur[xs[1]][:n], cur[xs[2]][:n], cur[xs[3]][:n]
		s, o := own[sc], fr.own.ix[of]
		r := 0
		for ; r+2 <= nr; r += 2 {
			a, b := own[rows[r].acc][o[r]:], own[rows[r+1].acc][o[r+1]:]
			mulAdd2x4(a[:n], b[:n], x0, x1, x2, x3, s[r*passSteps:], s[(r+1)*passSteps:])
		}
		if r < nr {
			a := own[rows[r].acc][o[r]:]
			mulAdd1x4(a[:n], x0, x1, x2, x3, s[r*passSteps:])
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
		a0[j] = fma(v, s0, a0[j])
		a1[j] = fma(v, s1, a1[j])
		a2[j] = fma(v, s2, a2[j])
		a3[j] = fma(v, s3, a3[j])
	}
}

// mulAdd2x4 adds four reduce steps to two rows of accumulators: a[j] +=
// x0[j]*s[0] + ... + x3[j]*s[3], and the same for b with t, each step a
// fused multiply-add, one after the other.
func mulAdd2x4[T num](a, b, x0, x1, x2, x3, s, t []T) {
	n := len(x0)
	a, b, x1, x2, x3 = a[:n], b[:n], x1[:n], x2[:n], x3[:n]
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	t0, t1, t2, t3 := t[0], t[1], t[2], t[3]
	j := 0
	if f, ok := any(a).([]float32); ok && useFMA && n >= 8 {
		g, y0, y1, y2, y3 := any(b).([]float32), any(x0).([]float32), any(x1).([]float32), any(x2).([]float32), any(x3).([]float32)
		sf, tf := &any(s).([]float32)[:4][0], &any(t).([]float32)[:4][0]
		if useAVX512 && n >= 16 {
			j = n &^ 15
			mulAdd2x4AVX512(&f[0], &g[0], &y0[0], &y1[0], &y2[0], &y3[0], j, sf, tf)
		}
		if k := n &^ 7; k > j {
			mulAdd2x4AVX2(&f[j], &g[j], &y0[j], &y1[j], &y2[j], &y3[j], k-j, sf, tf)
			j = k
		}
	}
	for ; j < n; j++ {
		v0, v1, v2, v3 := x0[j], x1[j], x2[j], x3[j]
		a[j] = fma(v3, s3, fma(v2, s2, fma(v1, s1, fma(v0, s0, a[j]))))
		b[j] = fma(v3, t3, fma(v2, t2, fma(v1, t1, fma(v0, t0, b[j]))))
	}
}

// mulAdd1x4 is mulAdd2x4 for one row.
func mulAdd1x4[T num](a, x0, x1, x2, x3, s []T) {
	n := len(x0)
	a, x1, x2, x3 = a[:n], x1[:n], x2[:n], x3[:n]
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	j := 0
	if f, ok := any(a).([]float32); ok && useFMA && n >= 8 {
		y0, y1, y2, y3 := any(x0).([]float32), any(x1).([]float32), any(x2).([]float32), any(x3).([]float32)
		sf := &any(s).([]float32)[:4][0]
		if useAVX512 && n >= 16 {
			j = n &^ 15
			mulAdd1x4AVX512(&f[0], &y0[0], &y1[0], &y2[0], &y3[0], j, sf)
		}
		if k := n &^ 7; k > j {
			mulAdd1x4AVX2(&f[j], &y0[j], &y1[j], &y2[j], &y3[j], k-j, sf)
			j = k
		}
	}
	for ; j < n; j++ {
		a[j] = fma(x3[j], s3, fma(x2[j], s2, fma(x1[j], s1, fma(x0[j], s0, a[j]))))
	}
}

// steps makes the reduce loop b apply passSteps of its iterations per
// pass when the Program's Opts say so (STEP): its body is statements
// without effects (the group's scalars and indices) and then the tile's
// inner loop, whose only effect is row group g, computed last. For each run
// of the inner loop and each of the iterations, the statements and the
// loop's closures before g's run and g records the step (reading the
// members' scalars that are plain loads from their buffers itself, without
// the loads' statements); then g applies them all.
func (c *compiler) steps(b *block) {
	g := c.stepAt[b.rng]
	if g == nil {
		return
	}
	in := b.lastLoop
	if in == nil || in.rng != g.Inner || len(b.stmts) != b.nAtLoop || g.apply == nil {
		panic(fmt.Sprintf("internal error: reduce loop %d is not the tile codegen recorded", b.rng))
	}
	c.prog.stepped++
	var pre []stmt
	for k, f := range b.stmts[:len(b.stmts)-1] {
		if !slices.Contains(g.direct, b.of[k]) {
			pre = append(pre, f)
		}
	}
	b.stepped = &stepLoop{pre: pre, in: in, feed: in.vec[:len(in.vec)-1], g: g}
}

// stepLoop is a reduce loop that applies passSteps iterations per pass
// (see steps).
type stepLoop struct {
	pre  []stmt
	in   *block
	feed []vfunc
	g    *rowGroup
}

func (p *stepLoop) run(fr *frame, b *block, lo, hi int) {
	v := fr.cur.ix[b.rng]
	m := fr.cur.ix[p.in.end][0]
	i := lo
	for ; i+passSteps <= hi; i += passSteps {
		for blk := 0; blk < m; blk += blockSize {
			n := min(blockSize, m-blk)
			for u := range passSteps {
				v[0] = i + u
				runStmts(fr, p.pre)
				for _, f := range p.feed {
					f(fr, blk, n)
				}
				p.g.snap(fr, u, blk, n)
			}
			p.g.apply(fr, n)
		}
	}
	for ; i < hi; i++ {
		v[0] = i
		runStmts(fr, b.stmts)
	}
}
