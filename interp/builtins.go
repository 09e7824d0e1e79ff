package interp

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// This file defines the core builtins: print, len, range, min, max, abs,
// int, float, str, type, args, clock, assert, error, and a few more a
// Python user expects (sorted, list, tuple, enumerate, zip, sum, round, repr).

var start = time.Now()

var coreBuiltins = map[string]func(it *Interp, c *call) Value{
	"print":  print_,
	"len":    len_,
	"range":  range_,
	"min":    func(it *Interp, c *call) Value { return it.minMax(c, -1) },
	"max":    func(it *Interp, c *call) Value { return it.minMax(c, 1) },
	"abs":    abs_,
	"int":    func(it *Interp, c *call) Value { var x Value; it.unpack(c, "x", &x); return it.toIntValue(c, x) },
	"float":  func(it *Interp, c *call) Value { var x Value; it.unpack(c, "x", &x); return it.toFloatValue(c, x) },
	"str":    func(it *Interp, c *call) Value { var x Value; it.unpack(c, "x", &x); return String(str(x)) },
	"repr":   func(it *Interp, c *call) Value { var x Value; it.unpack(c, "x", &x); return String(x.String()) },
	"type":   func(it *Interp, c *call) Value { var x Value; it.unpack(c, "x", &x); return String(x.Type()) },
	"args":   args_,
	"clock":  func(it *Interp, c *call) Value { it.unpack(c); return Float(time.Since(start).Seconds()) },
	"assert": assert_,
	"error": func(it *Interp, c *call) Value {
		var msg Value
		it.unpack(c, "msg", &msg)
		it.failf(c.pos, "%s", str(msg))
		return nil
	},
	"sorted":    sorted_,
	"list":      func(it *Interp, c *call) Value { return NewList(it.collect(c)) },
	"tuple":     func(it *Interp, c *call) Value { return Tuple(it.collect(c)) },
	"enumerate": enumerate_,
	"zip":       zip_,
	"sum":       sum_,
	"round":     round_,
	"any":       func(it *Interp, c *call) Value { return it.anyAll(c, true) },
	"all":       func(it *Interp, c *call) Value { return it.anyAll(c, false) },
	"map":       map_,
	"filter":    filter_,
	"reversed": func(it *Interp, c *call) Value {
		vals := it.collect(c)
		for i, j := 0, len(vals)-1; i < j; i, j = i+1, j-1 {
			vals[i], vals[j] = vals[j], vals[i]
		}
		return NewList(vals)
	},
	"dict": func(it *Interp, c *call) Value {
		if len(c.args) > 0 {
			it.failf(c.pos, "dict: want keyword arguments only")
		}
		d := NewDict()
		for _, k := range c.kw {
			d.Set(k.name, k.value)
		}
		return d
	},
}

func (it *Interp) anyAll(c *call, isAny bool) Value {
	for _, v := range it.collect(c) {
		if it.truth(c.pos, v) == isAny {
			return Bool(isAny)
		}
	}
	return Bool(!isAny)
}

func map_(it *Interp, c *call) Value {
	var f, xs Value
	it.unpack(c, "fn", &f, "items", &xs)
	var out []Value
	it.iterate(c, xs, func(v Value) { out = append(out, it.callValue(c.pos, f, []Value{v}, nil)) })
	return NewList(out)
}

func filter_(it *Interp, c *call) Value {
	var f, xs Value
	it.unpack(c, "fn", &f, "items", &xs)
	var out []Value
	it.iterate(c, xs, func(v Value) {
		if it.truth(c.pos, it.callValue(c.pos, f, []Value{v}, nil)) {
			out = append(out, v)
		}
	})
	return NewList(out)
}

func (it *Interp) addBuiltins() {
	for name, fn := range coreBuiltins {
		it.builtins[name] = &Builtin{name: name, fn: fn}
	}
	for name, fn := range tensorBuiltins {
		it.builtins[name] = &Builtin{name: name, fn: fn}
	}
	for name, d := range dtypes {
		it.builtins[name] = DType{d}
	}
	it.builtins["inf"] = Float(math.Inf(1))
	it.builtins["nan"] = Float(math.NaN())
	it.builtins["pi"] = Float(math.Pi)
}

func print_(it *Interp, c *call) Value {
	sep, end := " ", "\n"
	for _, k := range c.kw {
		s, ok := k.value.(String)
		switch {
		case !ok:
			it.failf(c.pos, "print: %s must be a string", k.name)
		case k.name == "sep":
			sep = string(s)
		case k.name == "end":
			end = string(s)
		default:
			it.failf(c.pos, "print: unexpected keyword argument %s", k.name)
		}
	}
	parts := make([]string, len(c.args))
	for i, a := range c.args {
		parts[i] = str(a)
	}
	if _, err := it.opts.Stdout.Write([]byte(strings.Join(parts, sep) + end)); err != nil {
		// A full disk or a closed pipe: the output is lost, so the run
		// fails rather than ending as if it had printed.
		it.failf(c.pos, "print: cannot write the output: %v", err)
	}
	return None
}

func len_(it *Interp, c *call) Value {
	var x Value
	it.unpack(c, "x", &x)
	switch s := x.(type) {
	case *Range:
		if s.count() > math.MaxInt64 {
			it.failf(c.pos, "len: range too long: %s has %d values", s.String(), s.count())
		}
		return Int(s.Len())
	case Sequence:
		return Int(s.Len())
	case *Dict:
		return Int(s.Len())
	}
	it.failf(c.pos, "len: %s has no length", x.Type())
	return nil
}

func range_(it *Interp, c *call) Value {
	var a, b, s Value = None, None, None
	it.unpack(c, "start", &a, "stop?", &b, "step?", &s)
	ints := make([]int64, 0, 3)
	for _, v := range []Value{a, b, s} {
		if v == None {
			continue
		}
		i, ok := toInt(v)
		if !ok {
			it.failf(c.pos, "range: arguments must be ints, got %s", v.Type())
		}
		ints = append(ints, i)
	}
	r := &Range{step: 1}
	switch len(ints) {
	case 1:
		r.stop = ints[0]
	case 2:
		r.start, r.stop = ints[0], ints[1]
	case 3:
		r.start, r.stop, r.step = ints[0], ints[1], ints[2]
	}
	if r.step == 0 {
		it.failf(c.pos, "range: step cannot be zero")
	}
	return r
}

// collect returns the elements of c's one iterable argument (none: empty).
func (it *Interp) collect(c *call) []Value {
	var x Value = Tuple{}
	it.unpack(c, "items?", &x)
	// Check the length before building: list(range(10**12)) must fail at
	// once, not after filling the memory.
	if r, ok := x.(*Range); ok && r.count() > maxLen {
		it.failf(c.pos, "%s: %s has %d values, more than the limit of %d", c.name, r, r.count(), maxLen)
	}
	var out []Value
	it.iterate(c, x, func(v Value) {
		it.checkLen(c.pos, len(out)+1)
		out = append(out, v)
	})
	return out
}

func (it *Interp) minMax(c *call, sign int) Value {
	var key Value = None
	var rest []kwarg
	for _, k := range c.kw {
		if k.name == "key" {
			key = k.value
		} else {
			rest = append(rest, k)
		}
	}
	if len(rest) > 0 {
		it.failf(c.pos, "%s: unexpected keyword argument %s", c.name, rest[0].name)
	}
	if len(c.args) == 0 {
		it.failf(c.pos, "%s: got no values", c.name)
	}
	vals := c.args
	if t, ok := vals[0].(*TensorValue); ok && len(vals) == 1 && key == None {
		if sign < 0 {
			return itemValue(&TensorValue{t.t.Min(nil, false)})
		}
		return itemValue(&TensorValue{t.t.Max(nil, false)})
	}
	if len(vals) == 1 {
		vals = nil
		it.iterate(c, c.args[0], func(v Value) { vals = append(vals, v) })
	}
	if len(vals) == 0 {
		it.failf(c.pos, "%s: got no values", c.name)
	}
	best, bestKey := vals[0], vals[0]
	if key != None {
		bestKey = it.callValue(c.pos, key, []Value{best}, nil)
	}
	for _, v := range vals[1:] {
		k := v
		if key != None {
			k = it.callValue(c.pos, key, []Value{v}, nil)
		}
		o, ok := compare(k, bestKey)
		if !ok {
			it.failf(c.pos, "%s: cannot compare %s and %s", c.name, k.Type(), bestKey.Type())
		}
		if o*sign > 0 {
			best, bestKey = v, k
		}
	}
	return best
}

func abs_(it *Interp, c *call) Value {
	var x Value
	it.unpack(c, "x", &x)
	switch v := x.(type) {
	case Int:
		if v == math.MinInt64 {
			it.failf(c.pos, "integer overflow in abs(%d)", v)
		}
		if v < 0 {
			return -v
		}
		return v
	case Uint:
		return v
	case Float:
		return Float(math.Abs(float64(v)))
	case Bool:
		i, _ := toInt(v)
		return Int(i)
	case *TensorValue:
		return &TensorValue{v.t.Abs()}
	}
	it.failf(c.pos, "abs: want a number, got %s", x.Type())
	return nil
}

func (it *Interp) toIntValue(c *call, x Value) Value {
	switch v := x.(type) {
	case Int, Uint:
		return v
	case Bool:
		i, _ := toInt(v)
		return Int(i)
	case Float:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) >= 1<<63 {
			it.failf(c.pos, "%s: cannot convert %s to an int", c.name, v.String())
		}
		return Int(int64(f))
	case String:
		i, err := strconv.ParseInt(strings.TrimSpace(string(v)), 0, 64)
		if err != nil {
			it.failf(c.pos, "%s: invalid literal %s", c.name, v.String())
		}
		return Int(i)
	case *TensorValue:
		return it.toIntValue(c, itemValue(v))
	}
	it.failf(c.pos, "%s: cannot convert %s to an int", c.name, x.Type())
	return nil
}

func (it *Interp) toFloatValue(c *call, x Value) Value {
	switch v := x.(type) {
	case String:
		f, err := strconv.ParseFloat(strings.TrimSpace(string(v)), 64)
		if err != nil {
			it.failf(c.pos, "%s: invalid literal %s", c.name, v.String())
		}
		return Float(f)
	case *TensorValue:
		return it.toFloatValue(c, itemValue(v))
	}
	f, ok := toFloat(x)
	if !ok {
		it.failf(c.pos, "%s: cannot convert %s to a float", c.name, x.Type())
	}
	return Float(f)
}

func args_(it *Interp, c *call) Value {
	it.unpack(c)
	out := make([]Value, len(it.opts.Args))
	for i, a := range it.opts.Args {
		out[i] = String(a)
	}
	return NewList(out)
}

func assert_(it *Interp, c *call) Value {
	var cond Value
	var msg Value = String("assertion failed")
	it.unpack(c, "cond", &cond, "msg?", &msg)
	if !it.truth(c.pos, cond) {
		it.failf(c.pos, "%s", str(msg))
	}
	return None
}

func sorted_(it *Interp, c *call) Value {
	var xs, key Value = nil, None
	reverse := false
	it.unpack(c, "items", &xs, "key?", &key, "reverse?", &reverse)
	var vals []Value
	it.iterate(c, xs, func(v Value) { vals = append(vals, v) })
	it.sortValues(c, vals, key, reverse)
	return NewList(vals)
}

func enumerate_(it *Interp, c *call) Value {
	var xs Value
	start := 0
	it.unpack(c, "items", &xs, "start?", &start)
	var out []Value
	it.iterate(c, xs, func(v Value) { out = append(out, Tuple{Int(start + len(out)), v}) })
	return NewList(out)
}

func zip_(it *Interp, c *call) Value {
	cols := make([][]Value, len(c.args))
	n := -1
	for i, a := range c.args {
		it.iterate(c, a, func(v Value) { cols[i] = append(cols[i], v) })
		if n < 0 || len(cols[i]) < n {
			n = len(cols[i])
		}
	}
	out := make([]Value, max(n, 0))
	for k := range out {
		row := make(Tuple, len(cols))
		for i := range cols {
			row[i] = cols[i][k]
		}
		out[k] = row
	}
	return NewList(out)
}

func sum_(it *Interp, c *call) Value {
	var xs Value
	var acc Value = Int(0)
	it.unpack(c, "items", &xs, "start?", &acc)
	it.iterate(c, xs, func(v Value) { acc = it.binary(c.pos, "+", acc, v) })
	return acc
}

func round_(it *Interp, c *call) Value {
	var x Value
	nd := optInt{}
	it.unpack(c, "x", &x, "ndigits?", &nd)
	if t, ok := x.(*TensorValue); ok {
		return &TensorValue{t.t.Round()}
	}
	f, ok := toFloat(x)
	if !ok {
		it.failf(c.pos, "round: want a number, got %s", x.Type())
	}
	if !nd.Set {
		if i, isInt := toInt(x); isInt {
			return Int(i)
		}
		r := math.RoundToEven(f)
		if !(r >= math.MinInt64 && r < math.MaxInt64) { // NaN, infinities and past int64
			it.failf(c.pos, "round: cannot convert %s to an int", Float(f))
		}
		return Int(int64(r))
	}
	p := math.Pow(10, float64(nd.V))
	return Float(math.RoundToEven(f*p) / p)
}
