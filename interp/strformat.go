package interp

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"tiny/lang"
)

// strFormat implements "...".format(args): {} takes the next argument, {0}
// argument 0, {name} a keyword argument, and ":spec" Python's basic format
// spec ([[fill]align][sign][#][0][width][.precision][type], type one of
// d b o x X f F e E g G % s).
func strFormat(it *Interp, r Value, c *call) Value {
	s := string(r.(String))
	var b strings.Builder
	next := 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '}' {
			if i+1 < len(s) && s[i+1] == '}' {
				i++
			}
			b.WriteByte('}')
			continue
		}
		if ch != '{' {
			b.WriteByte(ch)
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			it.failf(c.pos, "format: unclosed { in format string")
		}
		field, spec, _ := strings.Cut(s[i+1:i+end], ":")
		i += end
		var v Value
		switch n, err := strconv.Atoi(field); {
		case field == "":
			if next >= len(c.args) {
				it.failf(c.pos, "format: not enough arguments")
			}
			v = c.args[next]
			next++
		case err == nil:
			if n < 0 || n >= len(c.args) {
				it.failf(c.pos, "format: no argument %d", n)
			}
			v = c.args[n]
		default:
			for _, k := range c.kw {
				if k.name == field {
					v = k.value
				}
			}
			if v == nil {
				it.failf(c.pos, "format: no argument %s", field)
			}
		}
		b.WriteString(it.formatSpec(c, v, spec))
	}
	return String(b.String())
}

// maxPrecision caps a format precision: 1074 digits after the point are
// the most a float64 ever needs, so more only adds zeros.
const maxPrecision = 1074

// formatSpec formats v by a Python format spec.
func (it *Interp) formatSpec(c *call, v Value, spec string) string {
	if spec == "" {
		return str(v)
	}
	whole := spec
	fill, align := " ", byte(0)
	if len(spec) >= 2 && strings.IndexByte("<>^", spec[1]) >= 0 {
		fill, align, spec = spec[:1], spec[1], spec[2:]
	} else if len(spec) >= 1 && strings.IndexByte("<>^", spec[0]) >= 0 {
		align, spec = spec[0], spec[1:]
	}
	flags := ""
	if spec != "" && (spec[0] == '+' || spec[0] == ' ' || spec[0] == '-') {
		flags, spec = spec[:1], spec[1:]
	}
	alt := false
	if spec != "" && spec[0] == '#' {
		alt, spec = true, spec[1:]
	}
	zero := false
	if spec != "" && spec[0] == '0' {
		zero, fill, spec = align == 0, "0", spec[1:]
	}
	i := 0
	for i < len(spec) && spec[i] >= '0' && spec[i] <= '9' {
		i++
	}
	width, _ := strconv.Atoi(spec[:i])
	if width > 1e6 || i > 7 {
		it.failf(c.pos, "format: width %s too large", spec[:i])
	}
	spec = spec[i:]
	prec := -1
	if strings.HasPrefix(spec, ".") {
		j := 1
		for j < len(spec) && spec[j] >= '0' && spec[j] <= '9' {
			j++
		}
		if j == 1 {
			it.failf(c.pos, "format: missing precision in spec %q", whole)
		}
		var err error
		prec, err = strconv.Atoi(spec[1:j])
		if err != nil || prec > maxPrecision {
			it.failf(c.pos, "format: precision %s too large (at most %d)", spec[1:j], maxPrecision)
		}
		spec = spec[j:]
	}
	var out string
	switch typ := spec; typ {
	case "d", "b", "o", "x", "X":
		n, ok := toInt(v)
		u, isU := v.(Uint)
		if !ok && !isU {
			it.failf(c.pos, "format: %s needs an int, got %s", typ, v.Type())
		}
		if prec >= 0 {
			it.failf(c.pos, "format: precision not allowed with %s", typ)
		}
		sign, mag := "", uint64(n)
		if isU {
			mag = uint64(u)
		} else if n < 0 {
			sign, mag = "-", -uint64(n)
		} else if flags == "+" || flags == " " {
			sign = flags
		}
		base := map[string]int{"d": 10, "b": 2, "o": 8, "x": 16, "X": 16}[typ]
		digits := strconv.FormatUint(mag, base)
		prefix := ""
		if alt && typ != "d" {
			prefix = "0" + typ
		}
		if typ == "X" {
			digits = strings.ToUpper(digits)
		}
		if zero {
			if k := width - len(sign) - len(prefix) - len(digits); k > 0 {
				digits = strings.Repeat("0", k) + digits
			}
		}
		out = sign + prefix + digits
		if align == 0 {
			align = '>'
		}
	case "f", "e", "g", "%", "F", "E", "G":
		f, ok := toFloat(v)
		if !ok {
			it.failf(c.pos, "format: %s needs a number, got %s", typ, v.Type())
		}
		if prec < 0 {
			prec = 6
		}
		verb := typ
		if typ == "%" {
			f, verb = f*100, "f"
		}
		if verb == "F" {
			verb = "f"
		}
		goFlags := strings.TrimSuffix(flags, "-")
		if alt {
			goFlags += "#"
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			out = map[bool]string{true: "inf", false: "nan"}[math.IsInf(f, 0)]
			if f < 0 {
				out = "-" + out
			} else if goFlags == "+" || goFlags == " " {
				out = goFlags + out
			}
			if strings.ContainsAny(typ, "FEG") {
				out = strings.ToUpper(out)
			}
		} else {
			out = fmt.Sprintf("%"+goFlags+"."+strconv.Itoa(prec)+verb, f)
		}
		if typ == "%" {
			out += "%"
		}
	case "", "s":
		out = str(v)
		if prec >= 0 && len(out) > prec {
			out = out[:prec]
		}
		if _, isNum := toFloat(v); isNum && align == 0 {
			align = '>'
		}
	default:
		it.failf(c.pos, "format: unsupported format spec %q (want [[fill]align][sign][#][0][width][.precision][type], type one of d b o x X f F e E g G %% s)", whole)
	}
	return pad(out, fill, align, width)
}

func pad(s, fill string, align byte, width int) string {
	n := width - len([]rune(s))
	if n <= 0 {
		return s
	}
	switch align {
	case '<':
		return s + strings.Repeat(fill, n)
	case '^':
		return strings.Repeat(fill, n/2) + s + strings.Repeat(fill, n-n/2)
	case 0:
		if fill == "0" && (strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+")) {
			return s[:1] + strings.Repeat("0", n) + s[1:]
		}
		if _, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64); err != nil {
			return s + strings.Repeat(fill, n)
		}
	}
	return strings.Repeat(fill, n) + s
}

// percentFormat implements "fmt" % args, Python's printf-style formatting:
// %s %r %d %i %f %e %g %x %% with flags, width and precision.
func (it *Interp) percentFormat(pos lang.Pos, format string, arg Value) Value {
	args := []Value{arg}
	if t, ok := arg.(Tuple); ok {
		args = t
	}
	var b strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			it.failf(pos, "%%: incomplete format")
		}
		spec, verb := format[i+1:j], format[j]
		i = j
		w, pr, _ := strings.Cut(strings.TrimLeft(spec, "-+ #0"), ".")
		if n, err := strconv.Atoi(w); w != "" && (err != nil || n > 1e6) {
			it.failf(pos, "%%: width %s too large", w)
		}
		if n, err := strconv.Atoi(pr); pr != "" && (err != nil || n > maxPrecision) {
			it.failf(pos, "%%: precision %s too large (at most %d)", pr, maxPrecision)
		}
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		if next >= len(args) {
			it.failf(pos, "%%: not enough arguments for format string")
		}
		v := args[next]
		next++
		switch verb {
		case 's':
			fmt.Fprintf(&b, "%"+spec+"s", str(v))
		case 'r':
			fmt.Fprintf(&b, "%"+spec+"s", v.String())
		case 'd', 'i', 'x', 'X', 'o':
			var n any
			n, ok := toInt(v)
			if f, isF := v.(Float); isF {
				n, ok = int64(f), true
			}
			if u, isU := v.(Uint); isU {
				n, ok = uint64(u), true
			}
			if !ok {
				it.failf(pos, "%%%c format: a number is required, not %s", verb, v.Type())
			}
			if verb == 'i' {
				verb = 'd'
			}
			fmt.Fprintf(&b, "%"+spec+string(verb), n)
		case 'f', 'F', 'e', 'E', 'g', 'G':
			f, ok := toFloat(v)
			if !ok {
				it.failf(pos, "%%%c format: a number is required, not %s", verb, v.Type())
			}
			fmt.Fprintf(&b, "%"+spec+string(verb), f)
		default:
			it.failf(pos, "%%: unsupported format character %q", verb)
		}
	}
	if next < len(args) {
		it.failf(pos, "%%: not all arguments converted during string formatting")
	}
	return String(b.String())
}
