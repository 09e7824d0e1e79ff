package cpu

import (
	"fmt"
	"math"

	"tiny/codegen"
)

// This file builds the closure of each uop, dispatching once, at compile
// time, on the op and the register types.

// uop returns the closure computing uop i, or nil when it needs none
// (constants, buffers, variables and affine indices).
func (c *compiler) uop(i int) vfunc {
	u := c.u[i]
	switch u.Op {
	case codegen.OpConst, codegen.OpDefineGlobal, codegen.OpDefineVar:
		return nil
	case codegen.OpDefineAcc:
		return c.defineAcc(i)
	case codegen.OpLoad:
		return c.load(i)
	case codegen.OpStore:
		return c.store(i)
	case codegen.OpAccum:
		return c.accum(i)
	}
	if a, ok := c.aff[i]; ok && c.slotted[i] {
		return func(fr *frame, _, n int) { fill(fr.cur.ix[i][:n], a.base(fr)) }
	}
	if _, ok := c.aff[i]; ok || c.inMul[i] {
		return nil
	}
	var f vfunc
	switch {
	case u.Op == codegen.OpCast:
		f = c.cast(i)
	case u.Op == codegen.OpWhere:
		f = c.where(i)
	case u.Op == codegen.OpMulAcc:
		f = c.mulAcc(i)
	case u.Op.IsUnary():
		f = c.unary(i)
	case u.Op.IsBinary():
		f = c.binary(i)
	default:
		panic(fmt.Sprintf("uop %d: unsupported op %s", i, u.Op))
	}
	if s, ok := c.fuse[i]; ok {
		f = c.bindStore(i, s, f)
	}
	return f
}

// bindStore makes uop i compute into the window of the output buffer that
// STORE s writes.
func (c *compiler) bindStore(i, s int, f vfunc) vfunc {
	st := c.u[s]
	buf, a := c.u[st.Src[0]].Buf, c.aff[st.Src[1]]
	return types[regType(c.u[i].DType)].bindRun(i, buf, a, f)
}

func bindRun[T num](i, buf int, a affine, f vfunc) vfunc {
	return func(fr *frame, blk, n int) {
		off := a.base(fr) + blk
		get[T](&fr.cur)[i] = get[T](&fr.g)[buf][off : off+n]
		f(fr, blk, n)
	}
}

func (c *compiler) defineAcc(i int) vfunc {
	u := c.u[i]
	return types[regType(u.DType)].accInit(i, u.Val)
}

func accInit[T num](i int, v T) vfunc {
	return func(fr *frame, _, _ int) { fill(get[T](&fr.own)[i], v) }
}

func (c *compiler) binary(i int) vfunc {
	u := c.u[i]
	a, b := c.in(u.Src[0]), c.in(u.Src[1])
	t := regType(c.u[u.Src[0]].DType)
	if t2 := regType(c.u[u.Src[1]].DType); t2 != t {
		panic(fmt.Sprintf("uop %d: %s of %s and %s", i, u.Op, c.u[u.Src[0]].DType, c.u[u.Src[1]].DType))
	}
	if u.Op.IsCompare() {
		return types[t].compare(c, i, a, b)
	}
	return types[t].arith(c, i, a, b)
}

func cmpv[T num](c *compiler, i int, a, b opnd) vfunc {
	vv, vs := compare[T](c.u[i].Op)
	return binv(c, i, a, b, vv, vs)
}

// binv builds a binary op over operands that are runs or scalars.
func binv[T, R num](c *compiler, dst int, a, b opnd, vv vvFn[T, R], vs vsFn[T, R]) vfunc {
	if vv == nil {
		panic(fmt.Sprintf("uop %d: unsupported %s on this dtype", dst, c.u[dst].Op))
	}
	switch {
	case !a.scalar && !b.scalar:
		return func(fr *frame, _, n int) {
			t := get[T](&fr.cur)
			vv(get[R](&fr.cur)[dst][:n], t[a.slot][:n], t[b.slot][:n])
		}
	case !a.scalar:
		return func(fr *frame, _, n int) {
			t := get[T](&fr.cur)
			vs(get[R](&fr.cur)[dst][:n], t[a.slot][:n], t[b.slot][0])
		}
	case !b.scalar && commutative(c.u[dst].Op) && !(c.u[dst].Op == codegen.OpMax && c.u[dst].DType.IsFloat()):
		// (A float MAX keeps its order: a tie gives the first operand.)
		return func(fr *frame, _, n int) {
			t := get[T](&fr.cur)
			vs(get[R](&fr.cur)[dst][:n], t[b.slot][:n], t[a.slot][0])
		}
	case !b.scalar:
		tmp := c.temp(c.slots[a.slot].t, blockSize)
		return func(fr *frame, _, n int) {
			t := get[T](&fr.cur)
			x := t[tmp][:n]
			fill(x, t[a.slot][0])
			vv(get[R](&fr.cur)[dst][:n], x, t[b.slot][:n])
		}
	}
	return func(fr *frame, _, n int) {
		t := get[T](&fr.cur)
		d := get[R](&fr.cur)[dst][:n]
		vv(d[:1], t[a.slot][:1], t[b.slot][:1])
		fill(d[1:], d[0])
	}
}

func (c *compiler) unary(i int) vfunc {
	u := c.u[i]
	if u.Op == codegen.OpExp2 && len(u.Src) > 1 {
		return c.exp2Scaled(i)
	}
	a := c.in(u.Src[0])
	return types[regType(u.DType)].unary(i, a, u.Op)
}

func unv[T num](dst int, a opnd, f func(d, a []T)) vfunc {
	if f == nil {
		panic(fmt.Sprintf("uop %d: unsupported unary op on this dtype", dst))
	}
	if a.scalar {
		return func(fr *frame, _, n int) {
			t := get[T](&fr.cur)
			d := t[dst][:n]
			f(d[:1], t[a.slot][:1])
			fill(d[1:], d[0])
		}
	}
	return func(fr *frame, _, n int) {
		t := get[T](&fr.cur)
		f(t[dst][:n], t[a.slot][:n])
	}
}

func (c *compiler) where(i int) vfunc {
	u := c.u[i]
	cond, a, b := c.in(u.Src[0]), c.in(u.Src[1]), c.in(u.Src[2])
	return types[regType(u.DType)].where(i, cond, a, b)
}

func step(o opnd) int {
	if o.scalar {
		return 0
	}
	return 1
}

func wherev[T num](dst int, cond, a, b opnd) vfunc {
	cs, as, bs := step(cond), step(a), step(b)
	return func(fr *frame, _, n int) {
		t := get[T](&fr.cur)
		cv, av, bv, d := fr.cur.u8[cond.slot], t[a.slot], t[b.slot], t[dst][:n]
		for i := range d {
			if cv[i*cs] != 0 {
				d[i] = av[i*as]
			} else {
				d[i] = bv[i*bs]
			}
		}
	}
}

func (c *compiler) cast(i int) vfunc {
	u := c.u[i]
	from := c.u[u.Src[0]].DType
	a := c.in(u.Src[0])
	toBool := u.DType == codegen.Bool && from != codegen.Bool
	toHalf := u.DType == codegen.Float16 && from != codegen.Float16
	return types[regType(from)].castFrom(i, a, regType(u.DType), toBool, toHalf)
}

func castFrom[S num](dst int, a opnd, to rtype, toBool, toHalf bool) vfunc {
	var z S
	fromFloat := false
	switch any(z).(type) {
	case float32, float64:
		fromFloat = true
	}
	switch to {
	case tF32:
		return castv(dst, a, castLoop[S, float32](toBool, toHalf, false))
	case tF64:
		return castv(dst, a, castLoop[S, float64](toBool, toHalf, false))
	case tI32:
		return castv(dst, a, castLoop[S, int32](toBool, toHalf, fromFloat))
	case tI64:
		return castv(dst, a, castLoop[S, int64](toBool, toHalf, fromFloat))
	case tI8:
		return castv(dst, a, castLoop[S, int8](toBool, toHalf, fromFloat))
	case tI16:
		return castv(dst, a, castLoop[S, int16](toBool, toHalf, fromFloat))
	case tU16:
		return castv(dst, a, castLoop[S, uint16](toBool, toHalf, fromFloat))
	case tU32:
		return castv(dst, a, castLoop[S, uint32](toBool, toHalf, fromFloat))
	case tU64:
		return castv(dst, a, castLoop[S, uint64](toBool, toHalf, fromFloat))
	case tU8:
		return castv(dst, a, castLoop[S, uint8](toBool, toHalf, fromFloat))
	}
	return castv(dst, a, castLoop[S, int](toBool, toHalf, fromFloat))
}

func castv[S, D num](dst int, a opnd, f func(d []D, a []S)) vfunc {
	if a.scalar {
		return func(fr *frame, _, n int) {
			d := get[D](&fr.cur)[dst][:n]
			f(d[:1], get[S](&fr.cur)[a.slot][:1])
			fill(d[1:], d[0])
		}
	}
	return func(fr *frame, _, n int) {
		f(get[D](&fr.cur)[dst][:n], get[S](&fr.cur)[a.slot][:n])
	}
}

// mulOps returns the factors a and b as operands, the run first.
func (c *compiler) mulOps(a, b int) (x, y opnd) {
	x, y = c.in(a), c.in(b)
	if x.scalar {
		x, y = y, x
	}
	return x, y
}

// mulAcc builds MULACC i, d = x*y + z.
func (c *compiler) mulAcc(i int) vfunc {
	u := c.u[i]
	x, y := c.mulOps(u.Src[0], u.Src[1])
	z := c.in(u.Src[2])
	return types[regType(u.DType)].mulAdd(i, x, y, z)
}

func mulAddv[T num](dst int, x, y, z opnd) vfunc {
	ys, zs := step(y), step(z)
	if x.scalar { // both factors fixed for the run
		return func(fr *frame, _, n int) {
			t := get[T](&fr.cur)
			a, b, d, c := t[x.slot][0], t[y.slot][0], t[dst][:n], t[z.slot]
			for i := range d {
				d[i] = fma(a, b, c[i*zs])
			}
		}
	}
	return func(fr *frame, _, n int) {
		t := get[T](&fr.cur)
		mulAdd(t[dst][:n], t[x.slot][:n], t[y.slot], ys, t[z.slot], zs)
	}
}

// exp2Scaled builds EXP2 i of a folded argument, x*s or (x+k)*s or
// (x-k)*s with k and s fixed for the run: the float32 loop computes the
// argument as it goes.
func (c *compiler) exp2Scaled(i int) vfunc {
	u := c.u[i]
	x, mul := c.in(u.Src[0]).slot, c.in(u.Src[len(u.Src)-1]).slot
	add, neg := -1, u.ReduceOp == codegen.OpSub
	if len(u.Src) == 3 {
		add = c.in(u.Src[1]).slot
	}
	if regType(u.DType) == tF64 {
		exp := codegen.IsExp(c.u, u)
		return func(fr *frame, _, n int) {
			t := fr.cur.f64
			k, m := exp2Scaling(t, add, mul, neg)
			for j, v := range t[x][:n] {
				if exp {
					t[i][j] = math.Exp(v + k)
				} else {
					t[i][j] = math.Exp2((v + k) * m)
				}
			}
		}
	}
	hi, lo, konst := codegen.Exp2Scale(c.u, u)
	pow := u.ReduceOp == codegen.OpLog2 // a folded pow: x is the logarithm's operand
	return func(fr *frame, _, n int) {
		t := fr.cur.f32
		k, m := exp2Scaling(t, add, mul, neg)
		s := float64(m)
		if konst {
			s = float64(hi) + float64(lo)
		}
		if pow {
			powRun(t[i][:n], t[x][:n], s)
			return
		}
		exp2ScaledRun(t[i][:n], t[x][:n], k, s)
	}
}

// exp2Scaling returns the addend and the factor of a folded exp2 argument:
// x - k is x + -k exactly.
func exp2Scaling[T float](t [][]T, add, mul int, neg bool) (k, m T) {
	if add >= 0 {
		k = t[add][0]
		if neg {
			k = -k
		}
	}
	return k, t[mul][0]
}
