package cpu

import (
	"slices"

	"tiny/codegen"
)

// This file instantiates the device's generic code once per register type.
// Where the compiler picks code by a value's rtype, it calls the method of
// types[t] instead of switching over the eleven Go types.

// typed is the generic code for one register type.
type typed interface {
	alloc(fr *frame, i int, s slotInit)
	clone(r *regs, i int) any
	accInit(i int, v float64) vfunc
	bindRun(i, buf int, a affine, f vfunc) vfunc
	load(c *compiler, i int, ac access) vfunc
	store(c *compiler, buf int, ac access, v opnd) vfunc
	accum(acc int, op codegen.Op, ac access, v opnd) vfunc
	compare(c *compiler, i int, a, b opnd) vfunc
	where(dst int, cond, a, b opnd) vfunc
	castFrom(dst int, a opnd, to rtype, toBool, toHalf bool) vfunc
	mulAdd(dst int, x, y, z opnd) vfunc
	accumFMA(acc int, ac access, x, y opnd) vfunc
	accumDot(acc int, ac access, x, y opnd) vfunc
	accumChain(acc int, idx, x, y, z, w opnd) vfunc
	unary(dst int, a opnd, op codegen.Op) vfunc
	arith(c *compiler, i int, a, b opnd) vfunc
}

var types = [...]typed{
	tF32: floatType[float32]{}, tF64: floatType[float64]{},
	tI32: intType[int32]{}, tI64: intType[int64]{}, tU8: intType[uint8]{}, tIx: intType[int]{},
	tI8: intType[int8]{}, tI16: intType[int16]{}, tU16: intType[uint16]{}, tU32: intType[uint32]{}, tU64: intType[uint64]{},
}

// numType holds what every register type does alike; floatType and
// intType add the ops that differ.
type numType[T num] struct{}

type floatType[T float] struct{ numType[T] }

type intType[T integer] struct{ numType[T] }

// constant converts a uop's value to T: integers wrap as the CPU converts.
func constant[T num](v float64) T {
	var z T
	switch any(z).(type) {
	case float32, float64:
		return T(v)
	case int:
		return T(ival[int64](v))
	case int8:
		return T(ival[int8](v))
	case int16:
		return T(ival[int16](v))
	case int32:
		return T(ival[int32](v))
	case int64:
		return T(ival[int64](v))
	case uint8:
		return T(ival[uint8](v))
	case uint16:
		return T(ival[uint16](v))
	case uint32:
		return T(ival[uint32](v))
	}
	return T(ival[uint64](v))
}

func (numType[T]) alloc(fr *frame, i int, s slotInit) { alloc(fr, i, s, constant[T](s.val)) }

func (numType[T]) clone(r *regs, i int) any { return slices.Clone(get[T](r)[i]) }

func (numType[T]) accInit(i int, v float64) vfunc { return accInit(i, constant[T](v)) }

func (numType[T]) bindRun(i, buf int, a affine, f vfunc) vfunc { return bindRun[T](i, buf, a, f) }

func (numType[T]) load(c *compiler, i int, ac access) vfunc {
	u := c.u[i]
	return loadv[T, T](i, mem[T](c, u.Src[0]), ac, constant[T](u.Val), nil)
}

func (numType[T]) store(c *compiler, buf int, ac access, v opnd) vfunc {
	return storev[T, T](mem[T](c, buf), ac, v, nil)
}

func (numType[T]) accum(acc int, op codegen.Op, ac access, v opnd) vfunc {
	return accumv[T](acc, op, ac, v)
}

func (numType[T]) compare(c *compiler, i int, a, b opnd) vfunc { return cmpv[T](c, i, a, b) }

func (numType[T]) where(dst int, cond, a, b opnd) vfunc { return wherev[T](dst, cond, a, b) }

func (numType[T]) castFrom(dst int, a opnd, to rtype, toBool, toHalf bool) vfunc {
	return castFrom[T](dst, a, to, toBool, toHalf)
}

func (numType[T]) mulAdd(dst int, x, y, z opnd) vfunc { return mulAddv[T](dst, x, y, z) }

func (numType[T]) accumFMA(acc int, ac access, x, y opnd) vfunc { return accumFMAv[T](acc, ac, x, y) }

func (numType[T]) accumDot(acc int, ac access, x, y opnd) vfunc { return accumDot[T](acc, ac, x, y) }

func (numType[T]) accumChain(acc int, idx, x, y, z, w opnd) vfunc {
	return accumChainv[T](acc, idx, x, y, z, w)
}

func (floatType[T]) unary(dst int, a opnd, op codegen.Op) vfunc {
	return unv(dst, a, unaryFloat[T](op))
}

func (intType[T]) unary(dst int, a opnd, op codegen.Op) vfunc { return unv(dst, a, unaryInt[T](op)) }

func (floatType[T]) arith(c *compiler, i int, a, b opnd) vfunc {
	vv, vs := floatArith[T](c.u[i].Op)
	return binv(c, i, a, b, vv, vs)
}

func (intType[T]) arith(c *compiler, i int, a, b opnd) vfunc {
	vv, vs := intArith[T](c.u[i].Op)
	return binv(c, i, a, b, vv, vs)
}
