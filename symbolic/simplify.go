package symbolic

// Simplify returns an expression equal to n under C semantics for every
// assignment of its variables within their bounds, rewritten by the rules of
// rules.go until none applies. Sources are simplified before their parents.
func Simplify(n *Node) *Node {
	s := simplifier{memo: map[*Node]*Node{}}
	return s.simplify(n, 0)
}

type simplifier struct {
	memo map[*Node]*Node
}

// maxRewrites bounds how many rules may fire on one node; the rules shrink
// or canonicalize expressions, so it is never reached in practice.
const maxRewrites = 64

func (s *simplifier) simplify(n *Node, depth int) *Node {
	if r, ok := s.memo[n]; ok {
		return r
	}
	in := n
	if len(n.Src) == 2 {
		a, b := s.simplify(n.Src[0], depth), s.simplify(n.Src[1], depth)
		if a != n.Src[0] || b != n.Src[1] {
			n = rebuild(n.Op, a, b)
		}
	}
	for i := 0; i < maxRewrites; i++ {
		r := s.rewrite(n)
		if r == nil {
			break
		}
		if depth < maxRewrites {
			r = s.simplify(r, depth+1)
		}
		n = r
	}
	s.memo[in] = n
	return n
}

// rewrite applies the first rule of the table that fires on n, or returns nil.
func (s *simplifier) rewrite(n *Node) *Node {
	if len(n.Src) != 2 {
		return nil
	}
	for _, r := range rules {
		if r.op != anyOp && r.op != n.Op {
			continue
		}
		if out := r.fn(n); out != nil {
			return out
		}
	}
	return nil
}
