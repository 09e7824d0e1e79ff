package interp

import (
	"strings"

	"tiny/symbolic"
)

// This file defines equality and ordering: numbers by value, strings
// lexicographically, tuples and lists element by element, trackers, views
// and vars by value, other values by identity.

// equal reports whether x == y: numbers by value, containers element by
// element, other values by identity.
func equal(x, y Value) bool { return equalDepth(x, y, 0) }

func equalDepth(x, y Value, d int) bool {
	if d > maxNesting {
		return false
	}
	if xi, ok := toInt(x); ok {
		if yi, ok := toInt(y); ok {
			return xi == yi
		}
	}
	if a, ok := bigOf(x); ok && (isUint(x) || isUint(y)) {
		if b, ok := bigOf(y); ok {
			return a.Cmp(b) == 0
		}
	}
	if xf, ok := toFloat(x); ok {
		yf, ok := toFloat(y)
		return ok && xf == yf
	}
	switch a := x.(type) {
	case NoneType:
		return y == None
	case String:
		b, ok := y.(String)
		return ok && a == b
	case Tuple:
		b, ok := y.(Tuple)
		return ok && equalSlices(a, b, d)
	case *List:
		b, ok := y.(*List)
		return ok && (a == b || equalSlices(a.elems, b.elems, d))
	case *Dict:
		b, ok := y.(*Dict)
		if !ok || len(a.keys) != len(b.keys) {
			return false
		}
		for _, k := range a.keys {
			bv, ok := b.m[k]
			if !ok || !equalDepth(a.m[k], bv, d+1) {
				return false
			}
		}
		return true
	case DType:
		b, ok := y.(DType)
		return ok && a == b
	case *Range:
		b, ok := y.(*Range)
		return ok && *a == *b
	case *Tracker:
		b, ok := y.(*Tracker)
		return ok && a.String() == b.String()
	case *View:
		b, ok := y.(*View)
		return ok && a.String() == b.String()
	case *Var:
		b, ok := y.(*Var)
		return ok && symbolic.Equal(a.n, b.n)
	}
	return x == y
}

func equalSlices(a, b []Value, d int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equalDepth(a[i], b[i], d+1) {
			return false
		}
	}
	return true
}

// compare orders numbers, strings, and tuples or lists lexicographically.
// One-element tensors compare as their value.
func compare(x, y Value) (int, bool) { return compareDepth(x, y, 0) }

func compareDepth(x, y Value, d int) (int, bool) {
	if d > maxNesting {
		return 0, false
	}
	if t, ok := x.(*TensorValue); ok && t.t.Numel() == 1 {
		x = itemValue(t)
	}
	if t, ok := y.(*TensorValue); ok && t.t.Numel() == 1 {
		y = itemValue(t)
	}
	if xi, ok := toInt(x); ok {
		if yi, ok := toInt(y); ok {
			return cmp3(xi < yi, xi > yi), true
		}
	}
	if a, ok := bigOf(x); ok && (isUint(x) || isUint(y)) {
		if b, ok := bigOf(y); ok {
			return a.Cmp(b), true
		}
	}
	if xf, ok := toFloat(x); ok {
		if yf, ok := toFloat(y); ok {
			return cmp3(xf < yf, xf > yf), true
		}
		return 0, false
	}
	switch a := x.(type) {
	case String:
		if b, ok := y.(String); ok {
			return strings.Compare(string(a), string(b)), true
		}
	case Tuple:
		if b, ok := y.(Tuple); ok {
			return compareSlices(a, b, d)
		}
	case *List:
		if b, ok := y.(*List); ok {
			return compareSlices(a.elems, b.elems, d)
		}
	}
	return 0, false
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

func compareSlices(a, b []Value, d int) (int, bool) {
	for i := 0; i < len(a) && i < len(b); i++ {
		if equalDepth(a[i], b[i], d+1) {
			continue
		}
		return compareDepth(a[i], b[i], d+1)
	}
	return cmp3(len(a) < len(b), len(a) > len(b)), true
}
