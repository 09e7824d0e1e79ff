package cpu

import (
	"fmt"

	"tiny/codegen"
)

// This file turns a Program into closures. Uops in an innermost loop become
// closures over runs of up to blockSize elements (vector mode); uops of outer
// loops become the same closures over runs of one element (scalar mode).
// Inside an innermost loop, index arithmetic that is affine in the loop
// variable (base + ridx*coef) is never materialized: loads and stores use it
// to alias, broadcast or stride through buffers directly.

type vfunc func(fr *frame, blk, n int)

type stmt func(fr *frame)

// block is one loop, or the top level when rng is -1.
type block struct {
	rng   int // the RANGE uop, whose slot holds the loop variable
	start int // the slot of the loop's start (not 0 for a clipped loop, codegen.OptClip)
	end   int // the slot of the loop's end
	inner bool
	stmts []stmt  // outer loops
	vec   []vfunc // innermost loops
	of    []int   // the uop each statement belongs to

	lastLoop *block    // the last loop started in this block
	nAtLoop  int       // len(stmts) once lastLoop's statement was added
	stepped  *stepLoop // set when the loop applies several iterations per pass (rows.go)
}

// run executes iterations [lo, hi) of the loop. The loop order is the
// program's: codegen walks transposes in square tiles for this device
// (cpuTarget.Tile).
func (b *block) run(fr *frame, lo, hi int) {
	if b.stepped != nil {
		b.stepped.run(fr, b, lo, hi)
		return
	}
	if b.inner {
		for blk := lo; blk < hi; blk += blockSize {
			n := min(blockSize, hi-blk)
			for _, f := range b.vec {
				f(fr, blk, n)
			}
		}
		return
	}
	v := fr.cur.ix[b.rng]
	for i := lo; i < hi; i++ {
		if fr.stop.Load() {
			return // interrupted: RunContext reports it
		}
		v[0] = i
		for _, s := range b.stmts {
			s(fr)
		}
	}
}

// loopStmt runs the whole loop b as one statement of its parent.
func loopStmt(b *block) stmt {
	return func(fr *frame) { b.run(fr, fr.cur.ix[b.start][0], fr.cur.ix[b.end][0]) }
}

// compiler holds the analysis of a program while its closures are built.
type compiler struct {
	p       *codegen.Program
	u       []codegen.UOp
	scope   []int        // the RANGE each uop is inside, -1 at the top level
	inner   map[int]bool // RANGEs with no loop inside
	uses    []int
	aff     map[int]affine
	mat     map[int]bool      // affine values already materialized
	slotted map[int]bool      // affine values of outer loops some use needs in their slot
	fuse    map[int]int       // ALU uop -> the STORE whose memory it computes into
	inMul   map[int]bool      // MULACCs computed by the ACCUM they feed (chained)
	chained map[int]int       // multiply-add ACCUM -> the MULACC factor it computes along with it
	group   map[int]*rowGroup // add-ACCUM -> the row group computing it
	stepAt  map[int]*rowGroup // reduce RANGE -> the row group it steps (STEP)
	slots   []slotInit
	blk     *block // the block being filled
	at      int    // the uop being compiled
	prog    *program
	loaded  map[int]bool // buffers some LOAD reads
}

func (c *compiler) vecMode() bool { return c.blk.inner }

// program is a compiled Program.
type program struct {
	p       *codegen.Program
	slots   []slotInit
	prefix  []stmt // top-level uops before the global loop
	global  *block // the global loop; nil when there is none
	suffix  []stmt // top-level uops after it
	accs    []int  // the DEFINE_ACCs before the global loop, combined across workers for SplitReduce
	stepped int    // reduce loops run several iterations per pass (rows.go), for tests
}

func compile(p *codegen.Program) (prog *program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cpu: compiling %s: %v", p.Name, r)
		}
	}()
	c := &compiler{p: p, u: p.UOps, prog: &program{p: p}}
	c.prepare()
	root := &block{rng: -1}
	stack := []*block{root}
	c.blk = root
	for i, u := range c.u {
		switch u.Op {
		case codegen.OpRange:
			b := &block{rng: i, start: u.Src[0], end: u.Src[1], inner: c.inner[i]}
			if c.blk == root && c.prog.global == nil {
				c.prog.global = b
				c.prog.prefix = root.stmts
				root.stmts = nil
			} else {
				c.at = i
				c.addStmt(loopStmt(b))
				c.blk.lastLoop, c.blk.nAtLoop = b, len(c.blk.stmts)
			}
			stack = append(stack, b)
			c.blk = b
			continue
		case codegen.OpEnd:
			c.steps(c.blk)
			stack = stack[:len(stack)-1]
			c.blk = stack[len(stack)-1]
			continue
		case codegen.OpDefineAcc:
			// Only the accumulators before the global loop hold partials:
			// one defined after it (a reduce reading the one before it)
			// is folded once, after they are combined.
			if c.blk == root && c.prog.global == nil {
				c.prog.accs = append(c.prog.accs, i)
			}
		}
		c.at = i
		f := c.uop(i)
		if f == nil {
			continue
		}
		c.add(f)
	}
	if c.prog.global == nil {
		c.prog.prefix = root.stmts
	} else {
		c.prog.suffix = root.stmts
	}
	c.prog.slots = c.slots
	return c.prog, nil
}

func scalar(f vfunc) stmt { return func(fr *frame) { f(fr, 0, 1) } }

// add appends f to the block being filled.
func (c *compiler) add(f vfunc) {
	if c.blk.inner {
		c.blk.vec = append(c.blk.vec, f)
	} else {
		c.blk.stmts = append(c.blk.stmts, scalar(f))
		c.blk.of = append(c.blk.of, c.at)
	}
}

func (c *compiler) addStmt(s stmt) {
	if c.blk.inner {
		panic("internal error: loop inside an innermost loop")
	}
	c.blk.stmts = append(c.blk.stmts, s)
	c.blk.of = append(c.blk.of, c.at)
}

// temp returns a new scratch slot of n values of type t.
func (c *compiler) temp(t rtype, n int) int {
	c.slots = append(c.slots, slotInit{t: t, n: n})
	return len(c.slots) - 1
}

// opnd is an operand: a run in its slot, or in vector mode a value from an
// outer loop (scalar) that stays the same for the whole run.
type opnd struct {
	slot   int
	scalar bool
}

// in returns src as an operand of the uop being compiled, materializing an
// affine index first if needed.
func (c *compiler) in(s int) opnd {
	if c.vecMode() && c.home(s) != c.blk.rng {
		return opnd{slot: s, scalar: true}
	}
	if a, ok := c.aff[s]; ok && !c.mat[s] {
		c.mat[s] = true
		c.add(func(fr *frame, blk, n int) {
			d := fr.cur.ix[s][:n]
			v := a.base(fr) + a.coef*blk
			for i := range d {
				d[i] = v
				v += a.coef
			}
		})
	}
	return opnd{slot: s}
}
