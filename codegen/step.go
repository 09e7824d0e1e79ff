package codegen

// This file decides STEP, the applied optimization of a device that runs
// each uop over a run of the innermost loop (devices/cpu): a register tile
// is a RANGE inner loop over columns holding one multiply-add ACCUM per
// row, acc_r[j] += x[j]*s_r, all sharing the run x and each scaling it by
// a scalar s_r from outside the loop. Such a device computes the rows in
// one pass over x, and STEP(r, n) tells it that the reduce loop r (the
// position of its RANGE uop) around the tile may apply n of its iterations
// per pass over the accumulators: every row still takes its steps in
// order, so the bits do not change. Devices that compile loops ignore it.

// Tile is a register tile of a Program, as stepLoops and a device read it.
type Tile struct {
	Loop   int   // the reduce RANGE around the tile's inner loop
	Inner  int   // the inner RANGE over the columns, the last uop of Loop's body before the ENDRANGEs
	X      int   // the run every row scales, a value of Inner
	Accums []int // the rows' ACCUMs, in program order: [acc, Inner, X, s] or [acc, Inner, s, X]
}

// Scalar returns the factor of row ACCUM a that is not the shared run.
func (t Tile) Scalar(u []UOp, a int) int {
	if s := u[a].Src[2]; s != t.X {
		return s
	}
	return u[a].Src[3]
}

// StepTiles returns the tiles of p whose reduce loops its Opts say to step
// (STEP), with the number of iterations per pass of each.
func StepTiles(p *Program) (tiles []Tile, steps []int) {
	for _, o := range p.Opts {
		if o.Op != OptStep {
			continue
		}
		t, ok := tileAt(p.UOps, o.Axis)
		if !ok {
			panic("internal error: " + o.String() + " names no register tile")
		}
		tiles, steps = append(tiles, t), append(steps, o.Arg)
	}
	return tiles, steps
}

// stepLoops returns STEP(r, n) for every reduce loop r of p around a
// register tile, when p has one (INNER and UPCAST) and n > 1.
func stepLoops(p *Program, n int) []Opt {
	if n < 2 || !p.Opts.Has(OptInner) || !p.Opts.Has(OptUpcast) {
		return nil
	}
	var opts []Opt
	for r, u := range p.UOps {
		if u.Op != OpRange || u.Kind != RangeReduce {
			continue
		}
		if _, ok := tileAt(p.UOps, r); ok {
			opts = append(opts, Opt{Op: OptStep, Axis: r, Arg: n})
		}
	}
	return opts
}

// tileAt returns the register tile of reduce loop r: a body of uops
// without effects (no STORE, ACCUM, DEFINE_ACC or accumulator LOAD) ending
// in one inner loop whose only effects are two or more multiply-add
// ACCUMs into distinct accumulators, each at the inner loop's position,
// all scaling the same run of the inner loop by a value from outside it.
func tileAt(u []UOp, r int) (Tile, bool) {
	t := Tile{Loop: r, Inner: -1, X: -1}
	if r < 0 || r >= len(u) || u[r].Op != OpRange || u[r].Kind != RangeReduce {
		return t, false
	}
	scope := map[int]int{} // the loop of each uop of r's body
	stack := []int{r}
	accs := map[int]bool{}
	end := -1
	for j := r + 1; j < len(u) && end < 0; j++ {
		x := u[j]
		h := stack[len(stack)-1]
		scope[j] = h
		switch x.Op {
		case OpRange:
			if t.Inner >= 0 || x.Kind != RangeInner {
				return t, false
			}
			t.Inner = j
			stack = append(stack, j)
		case OpEnd:
			stack = stack[:len(stack)-1]
			if x.Src[0] == r {
				end = j
			} else if u[j+1].Op != OpEnd || u[j+1].Src[0] != r {
				return t, false // something after the inner loop
			}
		case OpStore, OpDefineAcc:
			return t, false
		case OpLoad:
			if u[x.Src[0]].Op == OpDefineAcc {
				return t, false
			}
		case OpAccum:
			if h != t.Inner || x.ReduceOp != OpMulAcc || x.Src[1] != t.Inner || accs[x.Src[0]] {
				return t, false
			}
			in := func(s int) bool { _, ok := scope[s]; return s == t.Inner || ok && scope[s] == t.Inner }
			a, b := x.Src[2], x.Src[3]
			if !in(a) {
				a, b = b, a
			}
			if !in(a) || in(b) || t.X >= 0 && a != t.X {
				return t, false
			}
			t.X = a
			accs[x.Src[0]] = true
			t.Accums = append(t.Accums, j)
		}
	}
	return t, end > 0 && len(t.Accums) >= 2
}
