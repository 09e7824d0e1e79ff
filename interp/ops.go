package interp

import (
	"math"
	"strings"

	"tiny/lang"
	"tiny/tensor"
)

// This file defines the operators on scalars, strings, lists and tuples,
// with Python's semantics: // floors, % takes the divisor's sign, int / int
// is a float. Values with their own operators (tensors) implement HasBinary.

func (it *Interp) unary(x *lang.Unary, v Value) Value {
	it.pos = x.Start
	switch x.Op {
	case "not":
		return Bool(!it.truth(x.Start, v))
	case "+":
		switch v.(type) {
		case Int, Uint, Float:
			return v
		case Bool:
			i, _ := toInt(v)
			return Int(i)
		}
	case "~":
		switch n := v.(type) {
		case Int:
			return ^n
		case Uint:
			return it.uintOp(x.Start, "-", Int(-1), n)
		case Bool:
			i, _ := toInt(v)
			return Int(^i)
		case *TensorValue:
			var out Value
			it.guard(x.Start, func() { out = &TensorValue{n.t.BitwiseNot()} })
			return out
		}
	case "-":
		switch n := v.(type) {
		case Int:
			return it.intOp(x.Start, "-", 0, int64(n))
		case Uint:
			return it.uintOp(x.Start, "-", Int(0), n)
		case Float:
			return -n
		case Bool:
			i, _ := toInt(v)
			return Int(-i)
		case *TensorValue:
			var out Value
			it.guard(x.Start, func() { out = &TensorValue{n.t.Neg()} })
			return out
		}
	}
	it.failf(x.Start, "unsupported operand type for unary %s: %s", x.Op, v.Type())
	return nil
}

// truth returns the truthiness of v: none, false, 0, 0.0 and empty
// strings and containers are false; a tensor must have one element.
func (it *Interp) truth(pos lang.Pos, v Value) bool {
	switch x := v.(type) {
	case NoneType:
		return false
	case Bool:
		return bool(x)
	case Int:
		return x != 0
	case Float:
		return x != 0
	case String:
		return x != ""
	case Tuple:
		return len(x) > 0
	case *List:
		return len(x.elems) > 0
	case *Dict:
		return len(x.keys) > 0
	case *Range:
		return x.count() > 0
	case *TensorValue:
		return it.tensorTruth(pos, x)
	}
	return true
}

func (it *Interp) binary(pos lang.Pos, op string, x, y Value) Value {
	if b, ok := x.(HasBinary); ok {
		var v Value
		var err error
		it.guard(pos, func() { v, err = b.Binary(op, y, false) })
		if err != nil {
			it.fail(pos, err)
		}
		if v != nil {
			it.checkSize(pos, v)
			return v
		}
	}
	if b, ok := y.(HasBinary); ok {
		var v Value
		var err error
		it.guard(pos, func() { v, err = b.Binary(op, x, true) })
		if err != nil {
			it.fail(pos, err)
		}
		if v != nil {
			it.checkSize(pos, v)
			return v
		}
	}
	switch op {
	case "==":
		return Bool(equal(x, y))
	case "!=":
		return Bool(!equal(x, y))
	case "<", "<=", ">", ">=":
		c, ok := compare(x, y)
		if !ok {
			it.failf(pos, "cannot compare %s %s %s", x.Type(), op, y.Type())
		}
		return Bool(cmpHolds(op, c))
	}
	if v := it.arith(pos, op, x, y); v != nil {
		return v
	}
	it.failf(pos, "unsupported operand types for %s: %s and %s", op, x.Type(), y.Type())
	return nil
}

func cmpHolds(op string, c int) bool {
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

// arith handles + - * / // % ** on numbers and the sequence operators; it
// returns nil for unsupported operand types.
func (it *Interp) arith(pos lang.Pos, op string, x, y Value) Value {
	if a, ok := x.(Bool); ok && (op == "&" || op == "|" || op == "^") {
		if b, ok := y.(Bool); ok {
			return Bool(map[string]bool{"&": bool(a && b), "|": bool(a || b), "^": a != b}[op])
		}
	}
	xi, xInt := toInt(x)
	yi, yInt := toInt(y)
	if xInt && yInt {
		return it.intOp(pos, op, xi, yi)
	}
	if isUint(x) || isUint(y) {
		if v := it.uintOp(pos, op, x, y); v != nil {
			return v
		}
	}
	xf, xNum := toFloat(x)
	yf, yNum := toFloat(y)
	if xNum && yNum {
		return it.floatOp(pos, op, xf, yf)
	}
	switch a := x.(type) {
	case String:
		if b, ok := y.(String); ok && op == "+" {
			it.checkStrLen(pos, len(a)+len(b))
			return a + b
		}
		if op == "%" {
			return it.percentFormat(pos, string(a), y)
		}
		if op == "*" && yInt {
			return String(strings.Repeat(string(a), int(it.repeatCount(pos, yi, len(a), charBytes))))
		}
	case *List:
		if b, ok := y.(*List); ok && op == "+" {
			it.checkLen(pos, len(a.elems)+len(b.elems))
			return NewList(append(append([]Value{}, a.elems...), b.elems...))
		}
		if op == "*" && yInt {
			return NewList(repeat(a.elems, it.repeatCount(pos, yi, len(a.elems), elemBytes)))
		}
	case Tuple:
		if b, ok := y.(Tuple); ok && op == "+" {
			it.checkLen(pos, len(a)+len(b))
			return append(append(Tuple{}, a...), b...)
		}
		if op == "*" && yInt {
			return Tuple(repeat(a, it.repeatCount(pos, yi, len(a), elemBytes)))
		}
	}
	if xInt && op == "*" {
		switch y.(type) {
		case String, *List, Tuple:
			return it.arith(pos, op, y, x)
		}
	}
	return nil
}

// maxLen bounds the length of strings, lists and tuples a script builds,
// so that a doubling loop fails instead of exhausting memory.
const maxLen = 1 << 26

// What a list or tuple element (an interface value) and a string byte count
// against Options.MaxBytes.
const (
	elemBytes = 16
	charBytes = 1
)

// checkLen checks a list or tuple of n elements about to be built.
func (it *Interp) checkLen(pos lang.Pos, n int) { it.checkBudget(pos, "list", n, elemBytes) }

// checkStrLen checks a string of n bytes about to be built.
func (it *Interp) checkStrLen(pos lang.Pos, n int) { it.checkBudget(pos, "string", n, charBytes) }

// checkBudget fails at pos when a value of n elements of per bytes passes
// maxLen, or passes Options.MaxBytes on top of the tensor buffers held.
func (it *Interp) checkBudget(pos lang.Pos, what string, n int, per int64) {
	if n > maxLen {
		it.failf(pos, "result of length %d exceeds the limit of %d", n, maxLen)
	}
	limit := it.opts.MaxBytes
	if limit <= 0 {
		return
	}
	size, held := int64(n)*per, int64(0)
	if it.eng != nil {
		held = it.eng.HeldBytes()
	}
	if size+held > limit {
		unit := "elements"
		if what == "string" {
			unit = "bytes"
		}
		it.failf(pos, "out of memory: a %s of %d %s (%s) on top of the %s of tensors held would pass the limit of %s",
			what, n, unit, tensor.FormatBytes(size), tensor.FormatBytes(held), tensor.FormatBytes(limit))
	}
}

// repeatCount checks x * n for an x of size elements (per bytes each).
func (it *Interp) repeatCount(pos lang.Pos, n int64, size int, per int64) int64 {
	if n < 0 {
		n = 0
	}
	if size > 0 && n > maxLen/int64(size) {
		it.failf(pos, "repeat count %d too large", n)
	}
	if size > 0 {
		it.checkBudget(pos, map[bool]string{true: "string", false: "list"}[per == charBytes], int(n)*size, per)
	}
	return n
}

func repeat(vs []Value, n int64) []Value {
	if len(vs) == 0 {
		return nil
	}
	out := make([]Value, 0, int64(len(vs))*n)
	for i := int64(0); i < n; i++ {
		out = append(out, vs...)
	}
	return out
}

func (it *Interp) intOp(pos lang.Pos, op string, a, b int64) Value {
	switch op {
	case "+":
		if c := a + b; (c > a) == (b > 0) {
			return Int(c)
		}
		it.failf(pos, "integer overflow in %d + %d", a, b)
	case "-":
		if c := a - b; (c < a) == (b > 0) {
			return Int(c)
		}
		it.failf(pos, "integer overflow in %d - %d", a, b)
	case "*":
		if c, ok := mulInt(a, b); ok {
			return Int(c)
		}
		it.failf(pos, "integer overflow in %d * %d", a, b)
	case "/":
		if b == 0 {
			it.failf(pos, "division by zero")
		}
		return Float(float64(a) / float64(b))
	case "//", "%":
		if b == 0 {
			it.failf(pos, "integer division or modulo by zero")
		}
		if b == -1 { // avoid the overflow trap of MinInt64 / -1
			if op == "%" {
				return Int(0)
			}
			return it.intOp(pos, "-", 0, a)
		}
		q, r := a/b, a%b
		if r != 0 && (r < 0) != (b < 0) {
			q, r = q-1, r+b
		}
		if op == "//" {
			return Int(q)
		}
		return Int(r)
	case "&":
		return Int(a & b)
	case "|":
		return Int(a | b)
	case "^":
		return Int(a ^ b)
	case "<<", ">>":
		return it.shift(pos, op, a, b)
	case "**":
		if b < 0 {
			return it.floatOp(pos, op, float64(a), float64(b))
		}
		if r, ok := ipow(a, b); ok {
			return Int(r)
		}
		it.failf(pos, "integer overflow in %d ** %d", a, b)
	}
	return nil
}

// shift returns a << b or a >> b as Python computes them, failing where
// a << b does not fit in an int64.
func (it *Interp) shift(pos lang.Pos, op string, a, b int64) Value {
	if b < 0 {
		it.failf(pos, "negative shift count %d", b)
	}
	if op == ">>" {
		return Int(a >> min(b, 63)) // arithmetic: -1 >> 100 is -1
	}
	if a == 0 {
		return Int(0)
	}
	if b >= 63 || a<<b>>b != a {
		it.failf(pos, "integer overflow in %d << %d", a, b)
	}
	return Int(a << b)
}

// mulInt returns a*b and whether it fits in an int64.
func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return c, true
}

// ipow returns a**b (b >= 0) and whether it fits in an int64.
func ipow(a, b int64) (int64, bool) {
	r := int64(1)
	ok := true
	for b > 0 {
		var o bool
		if b&1 == 1 {
			r, o = mulInt(r, a)
			ok = ok && o
		}
		b >>= 1
		if b > 0 {
			a, o = mulInt(a, a)
			ok = ok && o
		}
		if !ok {
			return 0, false
		}
	}
	return r, true
}

func (it *Interp) floatOp(pos lang.Pos, op string, a, b float64) Value {
	switch op {
	case "+":
		return Float(a + b)
	case "-":
		return Float(a - b)
	case "*":
		return Float(a * b)
	case "/":
		if b == 0 {
			it.failf(pos, "division by zero")
		}
		return Float(a / b)
	case "//":
		if b == 0 {
			it.failf(pos, "division by zero")
		}
		return Float(math.Floor(a / b))
	case "%":
		if b == 0 {
			it.failf(pos, "division by zero")
		}
		m := math.Mod(a, b)
		if m != 0 && (m < 0) != (b < 0) {
			m += b
		}
		return Float(m)
	case "**":
		if a == 0 && b < 0 {
			it.failf(pos, "zero to a negative power")
		}
		return Float(math.Pow(a, b))
	}
	return nil
}
