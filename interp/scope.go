package interp

import "sort"

// scope is one level of lexical scope: the globals of a file, or the locals
// of one fn call, whose parent is the scope where the fn was defined.
type scope struct {
	vars   map[string]Value
	parent *scope
}

func newScope(parent *scope) *scope {
	return &scope{vars: map[string]Value{}, parent: parent}
}

// lookup finds name in s or its parents.
func (s *scope) lookup(name string) (Value, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

// update sets name in the nearest scope that has it and reports whether one
// did.
func (s *scope) update(name string, v Value) bool {
	for ; s != nil; s = s.parent {
		if _, ok := s.vars[name]; ok {
			s.vars[name] = v
			return true
		}
	}
	return false
}

// names returns the names bound in s, sorted.
func (s *scope) names() []string {
	out := make([]string, 0, len(s.vars))
	for k := range s.vars {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
