package tensor

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// This file holds rearrange, einops' pattern language for movement ops as
// tinygrad's Tensor.rearrange reads it, and contiguous_backward.

// SizeArg is one keyword size of rearrange (name=size), kept in the
// order the call gave them.
type SizeArg struct {
	Name string
	Size int
}

// Rearrange moves t's axes as formula says: "lhs -> rhs", each side a list
// of axis names, parenthesized groups (one axis of the tensor split into,
// or merged from, several) and at most one "..." (the axes not named). A
// bare 1 is an empty group: an axis of size 1. sizes gives the sizes of
// split axes (one per group may be left out). The result is a view:
// unflatten the lhs groups, permute, flatten the rhs groups. It panics
// with a *Error naming what is wrong with the formula, as tinygrad's
// assertions do.
func (t *Tensor) Rearrange(formula string, sizes []SizeArg) *Tensor {
	if strings.Count(formula, "->") != 1 {
		fail(`rearrange: need exactly one "->" in formula`)
	}
	sides := strings.Split(formula, "->")
	lhs, lgroups := parseRearrangeSide(sides[0])
	rhs, rgroups := parseRearrangeSide(sides[1])
	for _, s := range sizes {
		if !slices.Contains(lhs, s.Name) {
			fail("rearrange: axis %s is not used in transform", s.Name)
		}
	}
	if !sameNames(lhs, rhs) {
		fail("rearrange: name mismatch in %s", formula)
	}
	for _, name := range append(slices.Clone(lhs), rhs...) {
		if name != "..." && !axisName(name) {
			fail("rearrange: invalid axis name %s", name)
		}
	}
	for _, g := range lgroups {
		if slices.Contains(lhs[g[0]:g[1]], "...") {
			fail("rearrange: cannot have collapsed ellipsis (...) in lhs of %s", formula)
		}
	}
	// (sameNames has ruled out a second "..." on the left.)

	// The ellipsis stands for the axes the other names leave.
	if i := slices.Index(lhs, "..."); i >= 0 {
		named := len(lhs) - 1
		for _, g := range lgroups {
			named -= g[1] - g[0] - 1
		}
		n := t.Ndim() - named
		if n < 0 {
			fail("rearrange: %s names %d axes, the tensor has %d", formula, named, t.Ndim())
		}
		lhs, lgroups = expandEllipsis(lhs, lgroups, n)
		rhs, rgroups = expandEllipsis(rhs, rgroups, n)
	}
	split := len(lhs)
	for _, g := range lgroups {
		split -= g[1] - g[0] - 1
	}
	if split != t.Ndim() {
		fail("rearrange: %s names %d axes, the tensor has %d", formula, split, t.Ndim())
	}

	size := map[string]int{}
	for _, s := range sizes {
		size[s.Name] = s.Size
	}
	x := t
	for _, g := range lgroups {
		parts := make([]int, 0, g[1]-g[0])
		for _, name := range lhs[g[0]:g[1]] {
			v, ok := size[name]
			if !ok {
				v = -1
			}
			parts = append(parts, v)
		}
		x = x.Unflatten(g[0], parts)
	}
	for i, name := range lhs {
		if v, ok := size[name]; ok && v != x.n.shape[i] {
			fail("rearrange: size provided for dimension %s incorrect", name)
		}
	}
	order := make([]int, len(rhs))
	for i, name := range rhs {
		order[i] = slices.Index(lhs, name)
	}
	x = x.Permute(order...)
	for i := len(rgroups) - 1; i >= 0; i-- {
		if g := rgroups[i]; g[0] < g[1] {
			x = x.Flatten(g[0], g[1]-1)
		} else {
			x = x.Unsqueeze(g[0])
		}
	}
	return x
}

// parseRearrangeSide splits one side of a formula into its names and its
// groups, as [start, end) ranges of the names.
func parseRearrangeSide(side string) ([]string, [][2]int) {
	side = strings.ReplaceAll(side, "…", "...")
	side = strings.NewReplacer("(", " ( ", ")", " ) ").Replace(side)
	var toks []string
	for _, f := range strings.Fields(side) {
		if f == "1" {
			toks = append(toks, "(", ")") // a bare 1: an empty group
			continue
		}
		toks = append(toks, f)
	}
	var names []string
	var groups [][2]int
	open := -1
	for _, tok := range toks {
		switch tok {
		case "(":
			if open >= 0 {
				fail("rearrange: bracket mismatch")
			}
			open = len(names)
		case ")":
			if open < 0 {
				fail("rearrange: bracket mismatch")
			}
			groups = append(groups, [2]int{open, len(names)})
			open = -1
		default:
			names = append(names, tok)
		}
	}
	if open >= 0 {
		fail("rearrange: bracket mismatch")
	}
	return names, groups
}

// sameNames reports whether rhs holds the names of lhs, each once.
func sameNames(lhs, rhs []string) bool {
	a, b := slices.Clone(lhs), slices.Clone(rhs)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b) && len(slices.Compact(a)) == len(lhs)
}

// axisName reports whether s is a Python identifier that neither starts
// nor ends with an underscore.
func axisName(s string) bool {
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' {
		return false
	}
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// expandEllipsis replaces "..." in names with n names of its own and moves
// the groups to match (a group around the ellipsis grows with it).
func expandEllipsis(names []string, groups [][2]int, n int) ([]string, [][2]int) {
	i := slices.Index(names, "...")
	if i < 0 {
		return names, groups
	}
	out := slices.Clone(names[:i])
	for j := range n {
		out = append(out, "..."+strconv.Itoa(j))
	}
	out = append(out, names[i+1:]...)
	moved := make([][2]int, len(groups))
	for k, g := range groups {
		for e := range 2 {
			moved[k][e] = g[e]
			if g[e] > i {
				moved[k][e] += n - 1
			}
		}
	}
	return out, moved
}

// ContiguousBackward returns t unchanged, with its gradient made
// contiguous on the way back (tinygrad's contiguous_backward).
func (t *Tensor) ContiguousBackward() *Tensor {
	return withGrad(t, []*Tensor{t}, func(g *Tensor) []*Tensor { return []*Tensor{g.Contiguous()} })
}
