package shape

// This file defines the composition of views (tinygrad's View.__add__) and
// the tracker simplification built on it.

// Compose returns the one view equivalent to indexing v with u, that is u's
// flat indices read v's elements, and false when one view cannot express it.
func (v View) Compose(u View) (View, bool) {
	if v.Contiguous {
		return u, true
	}
	if u.Contiguous && eqs(u.Shape, v.Shape) {
		return v, true
	}
	if u.Contiguous && eq(u.Size(), v.Size()) {
		if r, ok := v.Reshape(u.Shape); ok {
			return r, true
		}
	}
	return View{}, false
}

// Simplify returns the tracker with its last two views replaced by their
// composition, repeatedly, while one view can express them.
func (st Tracker) Simplify() Tracker {
	for len(st.Views) >= 2 {
		n := len(st.Views)
		v, ok := st.Views[n-2].Compose(st.Views[n-1])
		if !ok {
			break
		}
		st = Tracker{Views: append(append([]View{}, st.Views[:n-2]...), v)}
	}
	return st
}

// Compose returns tinygrad's st + u: the views of u stacked on t one at a
// time, simplifying after each, so u's first view indexes t's shape.
func (st Tracker) Compose(u Tracker) Tracker {
	for _, v := range u.Views {
		st = Tracker{Views: append(append([]View{}, st.Views...), v)}.Simplify()
	}
	return st
}
