package symbolic

// This file defines the folds that look at a whole sum: division and modulo
// by a constant, comparisons of sums, and unrolled divisions. They follow
// tinygrad's div_and_mod_folding, lt_folding, fold_unrolled_divs and
// canonicalize_simplex, which reason with floor division.
//
// NOTE: floor and C division agree when the numerator is not negative, and
// only then. tinygrad at the reference commit applies its floor reasoning to
// numerators that can be negative ((2-r)//2 becomes ((r*-1)//2)+1, wrong in C
// for r == 1). Here every fold that produces or removes a division requires
// the numerators involved to be provably non-negative from their bounds; the
// one fold that needs no division (a quotient constant over the whole range)
// uses truncation and holds for any sign.

// splitAdd returns the terms of a sum, left to right.
func splitAdd(n *Node) []*Node {
	if n.Op != OpAdd {
		return []*Node{n}
	}
	return append(splitAdd(n.Src[0]), splitAdd(n.Src[1])...)
}

// constFactor returns the largest known integer dividing n (its value for a
// constant, possibly negative; the coefficient of a product by a constant).
func constFactor(n *Node) int64 {
	switch n.Op {
	case OpConst:
		return n.Val
	case OpAdd:
		return gcd(constFactor(n.Src[0]), constFactor(n.Src[1]))
	case OpMul:
		if isC(n.Src[0]) {
			return n.Src[0].Val
		}
		if isC(n.Src[1]) {
			return n.Src[1].Val
		}
	}
	return 1
}

// divides returns n/v when v is known to divide n exactly, or nil.
func divides(n *Node, v int64) *Node {
	if v == 1 {
		return n
	}
	if v == 0 {
		return nil
	}
	switch n.Op {
	case OpConst:
		if !n.IsBool && fmod(n.Val, v) == 0 {
			return C(fdiv(n.Val, v))
		}
	case OpAdd:
		a, b := divides(n.Src[0], v), divides(n.Src[1], v)
		if a != nil && b != nil {
			return Add(a, b)
		}
	case OpMul:
		if a := divides(n.Src[0], v); a != nil {
			return Mul(a, n.Src[1])
		}
		if b := divides(n.Src[1], v); b != nil {
			return Mul(n.Src[0], b)
		}
	}
	return nil
}

// term is one non-constant summand f*v of a numerator, with f = q*c + r.
type term struct {
	f, q, r int64
	v       *Node
}

// divModFold simplifies x//c (mod false) or x%c (mod true) for c > 0, or
// returns nil.
func divModFold(x *Node, c int64, mod bool) *Node {
	if q := x.min / c; q == x.max/c { // truncation is monotonic: one quotient
		if mod {
			return Add(x, C(-q*c))
		}
		return C(q)
	}
	if x.min < 0 {
		return nil // floor reasoning below would be wrong in C
	}
	terms, cnst, changed, ok := splitTerms(x, c, mod)
	if !ok {
		return nil
	}
	div, g, offset := int64(1), c, int64(0)
	for _, t := range terms {
		if t.f > 1 && c%t.f == 0 && (div == 1 || div > t.f) {
			div = t.f
		}
		g = gcd(t.r, g)
		offset += t.r * t.v.min
	}
	offset = fmod(offset+fmod(cnst, c), c)
	if len(terms) == 1 && terms[0].v.max-terms[0].v.min == 1 {
		return foldTwoValues(terms[0], cnst, offset, c, mod)
	}
	if r := foldInRange(terms, cnst, offset, c, mod); r != nil {
		return r
	}
	if g != 1 {
		changed = true
	}
	if !changed {
		if !mod && 1 < div && div < c {
			if nx := divModFold(x, div, false); nx != nil {
				return Div(nx, C(c/div))
			}
		}
		return nil
	}
	return foldGCD(terms, cnst, g, c, mod)
}

// splitTerms splits x into its non-constant terms and the sum of its
// constants. Inside a modulo by c, a term a%(k*c) is replaced by a: they
// differ by a multiple of c (for a >= 0; a < 0 is refused). changed reports
// whether folding would change something even if no bound allows it.
func splitTerms(x *Node, c int64, mod bool) (terms []term, cnst int64, changed, ok bool) {
	for _, u := range splitAdd(x) {
		if mod && u.Op == OpMod && isC(u.Src[1]) && fmod(u.Src[1].Val, c) == 0 {
			if u.Src[0].min < 0 {
				return nil, 0, false, false
			}
			u, changed = u.Src[0], true
		}
		f := constFactor(u)
		v := divides(u, f)
		if v == nil {
			return nil, 0, false, false
		}
		q, r := fdiv(f, c), fmod(f, c)
		if r == 0 || ((mod || u.Op == OpConst) && r != f) {
			changed = true
		}
		if u.Op == OpConst {
			cnst += f
			continue
		}
		terms = append(terms, term{f, q, r, v})
	}
	return terms, cnst, changed, true
}

// foldTwoValues folds a numerator f*v+cnst whose v takes two values: the
// result is linear in v through the two points.
func foldTwoValues(t term, cnst, offset, c int64, mod bool) *Node {
	r := fmod(offset+t.r, c) - fmod(offset, c)
	offset -= r * t.v.min
	if mod {
		return Add(Mul(C(r), t.v), C(offset))
	}
	return Add(Mul(C(fdiv(t.f-r, c)), t.v), C(fdiv(cnst-offset, c)))
}

// foldInRange removes the division when the remainders, shifted by
// multiples of c, keep the numerator's remainder within [0, c) over the
// whole range, so no term can carry into the quotient.
func foldInRange(terms []term, cnst, offset, c int64, mod bool) *Node {
	lo, hi := offset, offset
	rs := make([]int64, len(terms))
	for i, t := range terms {
		r := t.r
		if r > c/2 {
			r -= c
			if lo += r * (t.v.max - t.v.min); lo < 0 {
				return nil
			}
		} else if hi += r * (t.v.max - t.v.min); hi >= c {
			return nil
		}
		offset -= r * t.v.min
		rs[i] = r
	}
	if mod {
		acc := C(offset)
		for i, t := range terms {
			acc = Add(acc, Mul(C(rs[i]), t.v))
		}
		return acc
	}
	acc := C(fdiv(cnst-offset, c))
	for i, t := range terms {
		acc = Add(acc, Mul(C(fdiv(t.f-rs[i], c)), t.v))
	}
	return acc
}

// foldGCD divides the remainders by their common divisor g with c and moves
// whole multiples of c out of the division. The new numerator must be
// non-negative for C's division to agree with floor's.
func foldGCD(terms []term, cnst, g, c int64, mod bool) *Node {
	quo, rem := C(fdiv(cnst, c)), C(fdiv(fmod(cnst, c), g))
	for _, t := range terms {
		if !mod && t.r != 0 {
			rem = Add(rem, Mul(C(fdiv(t.f, g)), t.v))
		} else {
			rem = Add(rem, Mul(C(fdiv(t.r, g)), t.v))
			quo = Add(quo, Mul(C(t.q), t.v))
		}
	}
	if rem.min < 0 {
		return nil
	}
	if mod {
		return Add(Mul(C(g), Mod(rem, C(c/g))), C(fmod(cnst, g)))
	}
	return Add(Div(rem, C(c/g)), quo)
}

// ltFolding rewrites sum<c when a common divisor d of c and of the terms'
// coefficients exceeds what the unit-coefficient terms can add: then
// sum<c iff (multiples/d) < c/d. Exact integer reasoning, no division.
func ltFolding(x *Node, c int64) *Node {
	var p, np []*Node
	for _, u := range splitAdd(x) {
		if constFactor(u) == 1 {
			p = append(p, u)
		} else {
			np = append(np, u)
		}
	}
	if len(np) == 0 {
		return nil
	}
	d := c
	for _, u := range np {
		d = gcd(constFactor(u), d)
	}
	lo, hi := int64(0), int64(0)
	for _, u := range p {
		lo, hi = lo+u.min, hi+u.max
	}
	if d <= 1 || lo < 0 || hi >= d {
		return nil
	}
	q := divides(Sum(np...), d)
	if q == nil {
		return nil
	}
	return Lt(q, C(c/d))
}

// unrolledDivs folds (x//d)+((x+1)//d)+...+((x+d-1)//d) to x (for x >= 0,
// where truncation is floor); leading terms already folded to 0 may be
// missing.
func unrolledDivs(n *Node) *Node {
	var ans *Node
	den := int64(0)
	seen := map[int64]bool{}
	count := 0
	for _, u := range splitAdd(n) {
		if u.Op != OpDiv || !isC(u.Src[1]) {
			return nil
		}
		if den == 0 {
			den = u.Src[1].Val
		}
		if den != u.Src[1].Val {
			return nil
		}
		s, k := u.Src[0], int64(0)
		if s.Op == OpAdd && isC(s.Src[1]) {
			s, k = s.Src[0], s.Src[1].Val
		}
		if ans == nil {
			ans = s
		}
		if !Equal(ans, s) {
			return nil
		}
		seen[k] = true
		count++
	}
	if ans == nil || den <= 0 || ans.min < 0 {
		return nil
	}
	for i := int64(0); i < den-int64(count); i++ {
		if ans.max+i < den {
			seen[i] = true
			count++
		}
	}
	if int64(count) != den || int64(len(seen)) != den {
		return nil
	}
	for i := int64(0); i < den; i++ {
		if !seen[i] {
			return nil
		}
	}
	return ans
}

// canonicalSimplex returns a+b+... for x = a*c0+b*c1+... with every ci > 0
// and every term a non-negative variable or constant: then x > 0 iff the
// plain sum is. It returns nil when x is not of that form or has no
// coefficient to drop.
func canonicalSimplex(x *Node) *Node {
	changed := false
	var ret []*Node
	for _, u := range splitAdd(x) {
		if u.Op == OpMul && isC(u.Src[1]) && u.Src[1].Val > 0 {
			changed, u = true, u.Src[0]
		}
		if (u.Op != OpVar && u.Op != OpConst) || u.min < 0 {
			return nil
		}
		ret = append(ret, u)
	}
	if !changed {
		return nil
	}
	return Sum(ret...)
}

func gcd(a, b int64) int64 {
	a, b = abs(a), abs(b)
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// fdiv and fmod are floor division and modulo, as Python computes them on
// the integer coefficients of the folds.
func fdiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func fmod(a, b int64) int64 { return a - fdiv(a, b)*b }
