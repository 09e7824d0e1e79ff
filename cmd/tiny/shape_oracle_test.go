package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"tiny/internal/oracle"
	"tiny/interp"
)

// TestShapeOracle replays tinygrad's random movement-op sequences in the
// language, twice: on a shapetracker, whose print must be tinygrad's repr
// of the same views, and on a tensor arange(n) padded with -1, whose values
// must be the oracle's index map.
func TestShapeOracle(t *testing.T) {
	_, cases := oracle.ShapeCases(t)
	pass := 0
	for _, c := range cases {
		if msg := runShapeCase(c); msg != "" {
			t.Errorf("%s: %s", c.ID, msg)
			continue
		}
		pass++
	}
	t.Logf("shape oracle through the language: %d/%d", pass, len(cases))
}

func runShapeCase(c oracle.ShapeCase) string {
	st, ten := "st = shapetracker("+tuple(c.StartShape)+")", fmt.Sprintf("t = arange(%d).reshape(%s)", prod(c.StartShape), tuple(c.StartShape))
	for _, raw := range c.Ops {
		var op []json.RawMessage
		var name string
		if json.Unmarshal(raw, &op) != nil || len(op) != 2 || json.Unmarshal(op[0], &name) != nil {
			return "bad op " + string(raw)
		}
		s, tn := movement(name, op[1])
		if s == "" {
			return "unknown op " + string(raw)
		}
		st += "." + s
		ten += tn
	}
	src := st + "\ns = str(st)\n" + ten + "\nr = t.flatten().tolist()\n"
	it, err := interp.New(interp.Options{Device: "CPU"})
	if err != nil {
		return err.Error()
	}
	if err := it.Exec(context.Background(), c.ID+".tiny", src, false); err != nil {
		return fmt.Sprintf("%s\n%s", it.FormatError(err), src)
	}
	if got, want := global(it, "s"), oracle.Repr(c.Views); got != want {
		return fmt.Sprintf("shapetracker\n%s\nprints\n%s\nwant\n%s", src, got, want)
	}
	if got, want := global(it, "r"), fmt.Sprint(c.IndexMap); got != want && !(len(c.IndexMap) == 1 && got == fmt.Sprint(c.IndexMap[0])) {
		return fmt.Sprintf("tensor\n%s\ngives\n%s\nwant\n%s", src, got, want)
	}
	return ""
}

// movement returns the op as a shapetracker method call and as a tensor
// method chain or index.
func movement(name string, arg json.RawMessage) (string, string) {
	switch name {
	case "reshape", "permute", "expand":
		var a []int
		json.Unmarshal(arg, &a)
		call := name + "(" + tuple(a) + ")"
		return call, "." + call
	case "pad", "shrink":
		var a [][2]int
		json.Unmarshal(arg, &a)
		pairs := make([]string, len(a))
		for i, p := range a {
			pairs[i] = fmt.Sprintf("(%d, %d)", p[0], p[1])
		}
		arg := "(" + strings.Join(pairs, ", ") + commaIf(len(pairs) == 1) + ")"
		if name == "pad" {
			return "pad(" + arg + ")", ".pad(" + arg + ", value=-1)"
		}
		return "shrink(" + arg + ")", ".shrink(" + arg + ")"
	case "flip":
		var a []bool
		json.Unmarshal(arg, &a)
		steps := make([]int, len(a))
		var axes []int
		for i, f := range a {
			steps[i] = 1
			if f {
				steps[i] = -1
				axes = append(axes, i)
			}
		}
		if len(axes) == 0 {
			return "stride(" + tuple(steps) + ")", ""
		}
		return "stride(" + tuple(steps) + ")", ".flip(" + tuple(axes) + ")"
	case "stride":
		var a []int
		json.Unmarshal(arg, &a)
		subs := make([]string, len(a))
		for i, k := range a {
			subs[i] = "::" + strconv.Itoa(k)
		}
		return "stride(" + tuple(a) + ")", "[" + strings.Join(subs, ", ") + "]"
	}
	return "", ""
}

// global returns a global of it as text: lists as Go prints []any of ints.
func global(it *interp.Interp, name string) string {
	v, _ := it.Global(name)
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// tuple prints ints as a tuple: (1, 2), (3,), ().
func tuple(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return "(" + strings.Join(s, ", ") + commaIf(len(xs) == 1) + ")"
}

func commaIf(b bool) string {
	if b {
		return ","
	}
	return ""
}

func prod(xs []int) int {
	p := 1
	for _, x := range xs {
		p *= x
	}
	return p
}
