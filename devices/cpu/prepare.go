package cpu

import (
	"fmt"

	"tiny/codegen"
)

// This file prepares the closures (codegen's analysis is its own: plan.go's
// analyze): which loop each uop is in, which index values are affine in an
// innermost loop variable, and how this device runs some uops without a
// run of their own: ALU results computed in place in the output (fusions),
// a MULACC computed inside the dot product that is its only use (chains).
// These are ways of running the Program, not decisions about it; the
// register tiles to run as row groups come from its Opts (STEP).

// term is one scalar index value times a constant.
type term struct{ slot, mul int }

// affine is an index value base + coef*ridx inside an innermost loop, where
// base = k + sum(terms) is fixed for the whole loop.
type affine struct {
	coef, k int
	terms   []term
}

func (a affine) base(fr *frame) int {
	b := a.k
	for _, t := range a.terms {
		b += fr.cur.ix[t.slot][0] * t.mul
	}
	return b
}

// add returns a+b, with one term per slot.
func (a affine) add(b affine) affine {
	t := append([]term{}, a.terms...)
next:
	for _, y := range b.terms {
		for i, x := range t {
			if x.slot == y.slot {
				t[i].mul += y.mul
				continue next
			}
		}
		t = append(t, y)
	}
	return affine{coef: a.coef + b.coef, k: a.k + b.k, terms: t}
}

func (a affine) scale(c int) affine {
	t := make([]term, len(a.terms))
	for i, x := range a.terms {
		t[i] = term{x.slot, x.mul * c}
	}
	return affine{coef: a.coef * c, k: a.k * c, terms: t}
}

// home returns the loop a value varies with: its own loop for a RANGE.
func (c *compiler) home(i int) int {
	if c.u[i].Op == codegen.OpRange {
		return i
	}
	return c.scope[i]
}

// prepare fills scope, inner, uses, loaded and the slot table, finds the
// affine indices, the fusions and the chains, and takes the row groups
// from the Opts.
func (c *compiler) prepare() {
	c.scope = make([]int, len(c.u))
	c.uses = make([]int, len(c.u))
	c.inner, c.aff, c.mat, c.fuse, c.loaded = map[int]bool{}, map[int]affine{}, map[int]bool{}, map[int]int{}, map[int]bool{}
	stack := []int{-1}
	for i, u := range c.u {
		c.scope[i] = stack[len(stack)-1]
		for _, s := range u.Src {
			c.uses[s]++
		}
		switch u.Op {
		case codegen.OpRange:
			c.inner[i] = true
			if top := stack[len(stack)-1]; top >= 0 {
				c.inner[top] = false
			}
			stack = append(stack, i)
		case codegen.OpEnd:
			stack = stack[:len(stack)-1]
		case codegen.OpLoad:
			if b := c.u[u.Src[0]]; b.Op == codegen.OpDefineGlobal {
				c.loaded[b.Buf] = true
			}
		}
	}
	c.slots = make([]slotInit, len(c.u))
	for i, u := range c.u {
		s := slotInit{t: regType(u.DType), n: 1}
		switch {
		case u.Op == codegen.OpConst:
			s.val, s.isK = u.Val, true
		case u.Op == codegen.OpDefineVar:
			s.name = u.Name
		case u.Op == codegen.OpDefineAcc:
			s.n = max(u.Size, 1)
		case u.Op == codegen.OpDefineGlobal || u.Op == codegen.OpEnd || u.Op == codegen.OpStore || u.Op == codegen.OpAccum:
			s.n = 0
		case c.inner[c.home(i)]:
			s.n = blockSize
		}
		c.slots[i] = s
	}
	c.affines()
	c.fusions()
	c.rowGroups()
	c.chains()
}

// chains finds the add-ACCUMs into one accumulator (a reduce loop
// innermost) of a product one of whose factors is a MULACC of the same
// loop used only there: the ACCUM then folds sum((x*y+z)*w) in one pass
// over the run, with no temporary for x*y+z (the fused row of the suite).
func (c *compiler) chains() {
	c.inMul, c.chained = map[int]bool{}, map[int]int{}
	for i, u := range c.u {
		h := c.scope[i]
		if u.Op != codegen.OpAccum || u.ReduceOp != codegen.OpMulAcc || h < 0 || !c.inner[h] || c.home(u.Src[1]) == h {
			continue
		}
		for _, q := range u.Src[2:] {
			if c.u[q].Op == codegen.OpMulAcc && c.uses[q] == 1 && c.home(q) == h {
				c.chained[i], c.inMul[q] = q, true
				break
			}
		}
	}
}

// affines finds the index values that are affine in loop variables. In an
// innermost loop, coef is the multiple of the loop's own variable, which the
// closures of a run step through; in an outer loop, coef is 0 and the terms
// read the variables of the loops themselves, so that a load or store there
// computes its index with no closure for the index arithmetic (matmul's
// loads of A). Outer affine values still get a slot when some use needs one
// (slotted).
func (c *compiler) affines() {
	for i, u := range c.u {
		h := c.home(i)
		if h < 0 || u.DType != codegen.Index {
			continue
		}
		switch u.Op {
		case codegen.OpRange:
			if c.inner[h] {
				c.aff[i] = affine{coef: 1}
			}
		case codegen.OpAdd:
			a, aok := c.affOf(u.Src[0], h)
			b, bok := c.affOf(u.Src[1], h)
			if aok && bok {
				c.aff[i] = a.add(b)
			}
		case codegen.OpMul:
			for j := range 2 {
				a, aok := c.affOf(u.Src[j], h)
				k := c.u[u.Src[1-j]]
				if aok && k.Op == codegen.OpConst {
					c.aff[i] = a.scale(int(k.Val))
					break
				}
			}
		}
	}
	c.slotted = map[int]bool{}
	for j, u := range c.u {
		for n, s := range u.Src {
			if a, ok := c.aff[s]; !ok || c.inner[c.home(s)] || c.slotted[s] || a.coef != 0 {
				continue
			}
			if _, ok := c.aff[j]; ok && u.DType == codegen.Index {
				continue
			}
			mem := n == 1 && (u.Op == codegen.OpLoad && len(u.Src) == 2 || u.Op == codegen.OpStore && len(u.Src) == 3 || u.Op == codegen.OpAccum)
			if mem && !c.inner[c.scope[j]] {
				continue
			}
			c.slotted[s] = true
			c.mat[s] = true
		}
	}
}

// affOf returns src as an affine value of loop h: affine already, the
// variable of an outer loop, a constant, or a scalar from outside the loop.
func (c *compiler) affOf(s, h int) (affine, bool) {
	if a, ok := c.aff[s]; ok {
		return a, true
	}
	if u := c.u[s]; u.Op == codegen.OpRange && !c.inner[s] {
		return affine{terms: []term{{s, 1}}}, true
	}
	if c.home(s) == h {
		return affine{}, false
	}
	if k := c.u[s]; k.Op == codegen.OpConst {
		return affine{k: int(k.Val)}, true
	}
	return affine{terms: []term{{s, 1}}}, true
}

// fusions finds ALU results that can be computed straight into the output
// buffer: stored once, contiguously, ungated, in the buffer's own type, to a
// buffer no load reads.
func (c *compiler) fusions() {
	for i, u := range c.u {
		if u.Op != codegen.OpStore || len(u.Src) != 3 {
			continue
		}
		buf, idx, v := c.u[u.Src[0]], u.Src[1], u.Src[2]
		a, ok := c.aff[idx]
		vu := c.u[v]
		if !ok || a.coef != 1 || c.uses[v] != 1 || c.home(v) != c.scope[i] || !vu.Op.IsElementwise() ||
			buf.DType == codegen.Float16 || regType(buf.DType) != regType(vu.DType) || c.loaded[buf.Buf] {
			continue
		}
		c.fuse[v] = i
	}
}

// rowGroup is a register tile the Program's Opts say to step (STEP,
// codegen/step.go): one multiply-add ACCUM per row, acc_r[j] += x[j]*s_r,
// sharing the run x (a row of B) and each scaling it by a scalar from
// outside the loop (an element of A). The last member computes them all in
// one pass over x; the others compute nothing.
type rowGroup struct {
	codegen.Tile
	last   int   // the member that computes the group
	scal   []int // each member's scalar factor
	direct []int // the scalars that are loads snap reads itself (rows.go)

	// Set when the group is compiled (rows.go): snap records one reduce
	// step, apply adds passSteps recorded steps.
	snap  func(fr *frame, u, blk, n int)
	apply func(fr *frame, n int)
}

// rowGroups takes the register tiles to step from the Program's Opts.
func (c *compiler) rowGroups() {
	c.group, c.stepAt = map[int]*rowGroup{}, map[int]*rowGroup{}
	tiles, steps := codegen.StepTiles(c.p)
	for k, t := range tiles {
		if steps[k] != passSteps {
			panic(fmt.Sprintf("STEP(%d, %d): this device steps %d iterations per pass", t.Loop, steps[k], passSteps))
		}
		g := &rowGroup{Tile: t, last: t.Accums[len(t.Accums)-1]}
		for _, a := range t.Accums {
			g.scal = append(g.scal, t.Scalar(c.u, a))
			c.group[a] = g
		}
		c.stepAt[t.Loop] = g
	}
}
