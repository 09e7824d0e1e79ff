package interp

import (
	"math"
	"math/big"

	"tiny/lang"
)

// Ints past int64 (Uint, from uint64 tensors) compute through math/big:
// exact, an Int again when the result fits int64, an overflow error when it
// passes 2**64-1 or falls below -2**63.

// bigOf returns v as a big.Int if it is an int (Int, Uint) or a bool.
func bigOf(v Value) (*big.Int, bool) {
	if u, ok := v.(Uint); ok {
		return new(big.Int).SetUint64(uint64(u)), true
	}
	i, ok := toInt(v)
	if !ok {
		return nil, false
	}
	return big.NewInt(i), true
}

func isUint(v Value) bool { _, ok := v.(Uint); return ok }

// intValue returns b as an Int, or a Uint past int64, or false beyond both.
func intValue(b *big.Int) (Value, bool) {
	if b.IsInt64() {
		return Int(b.Int64()), true
	}
	if b.IsUint64() {
		return Uint(b.Uint64()), true
	}
	return nil, false
}

// uintOp is intOp when an operand is a Uint; nil when op is not an
// integer op (true division and the float ops take the float path).
func (it *Interp) uintOp(pos lang.Pos, op string, x, y Value) Value {
	a, aok := bigOf(x)
	b, bok := bigOf(y)
	if !aok || !bok {
		return nil
	}
	r := new(big.Int)
	switch op {
	case "+":
		r.Add(a, b)
	case "-":
		r.Sub(a, b)
	case "*":
		r.Mul(a, b)
	case "//", "%":
		if b.Sign() == 0 {
			it.failf(pos, "integer division by zero")
		}
		m := new(big.Int)
		r.DivMod(a, b, m) // Euclidean: m >= 0
		if m.Sign() != 0 && b.Sign() < 0 {
			r.Add(r, big.NewInt(1)) // Python floors: the remainder takes b's sign
			m.Add(m, b)
		}
		if op == "%" {
			r = m
		}
	case "**":
		if b.Sign() < 0 {
			return nil // a negative power is a float
		}
		if b.BitLen() > 7 && a.CmpAbs(big.NewInt(1)) > 0 {
			it.failf(pos, "integer overflow in %s ** %s", x, y)
		}
		r.Exp(a, b, nil)
	case "&":
		r.And(a, b)
	case "|":
		r.Or(a, b)
	case "^":
		r.Xor(a, b)
	default:
		return nil
	}
	v, ok := intValue(r)
	if !ok {
		it.failf(pos, "integer overflow in %s %s %s", x, op, y)
	}
	return v
}

// uintFloat is a Uint as the nearest float64.
func uintFloat(u Uint) float64 {
	f := float64(uint64(u))
	return math.Min(f, math.MaxUint64)
}
