package codegen

import (
	"strconv"
	"strings"
)

// KernelName returns tinygrad's style of name for k: E_ for an elementwise
// kernel and r_ for one with a reduce, followed by the sizes of the kernel's
// axes after size-1 axes are dropped and mergeable axes merged (a contiguous
// (4096, 4096) add is E_16777216; x.sum(axis=1) over (4, 8) is r_4_8).
func KernelName(k *Kernel) string {
	pl, err := analyze(k)
	if err != nil {
		return "E_invalid"
	}
	pl.refine()
	pl.dropOnes()
	pl.merge()
	return pl.name()
}

// name returns the plan's kernel name.
func (pl *plan) name() string {
	prefix := "E"
	if len(pl.reduces) > 0 {
		prefix = "r"
	}
	parts := []string{prefix}
	for _, d := range pl.shape {
		parts = append(parts, strconv.Itoa(d))
	}
	if len(pl.shape) == 0 {
		parts = append(parts, "1")
	}
	return strings.Join(parts, "_")
}

// estimate fills in the program's global loop size, iteration count, and
// its FLOP and byte estimates: each ALU uop on data counts once per
// iteration of its loops; each buffer is moved once.
func (p *Program) estimate() {
	mult := []int64{1}
	inner := []bool{}
	for i, u := range p.UOps {
		switch {
		case u.Op == OpRange:
			n := int64(p.UOps[u.Src[1]].Val)
			if u.Val > 0 {
				n = int64(u.Val) // a clipped loop: at most its extent
			}
			if len(mult) == 1 && p.Global == 0 {
				p.Global = int(n)
			}
			if len(inner) > 0 {
				inner[len(inner)-1] = false
			}
			mult = append(mult, mult[len(mult)-1]*n)
			inner = append(inner, true)
		case u.Op == OpEnd:
			if inner[len(inner)-1] {
				p.Work += mult[len(mult)-1]
			}
			mult, inner = mult[:len(mult)-1], inner[:len(inner)-1]
		case u.DType != Index && (u.Op.IsElementwise() || u.Op == OpAccum) && !p.indexOnly(i):
			n := int64(1)
			switch {
			case u.Op == OpMulAcc || u.Op == OpAccum && u.ReduceOp == OpMulAcc:
				n = 2 // a MUL and an ADD
			case u.Op == OpExp2:
				n = int64(len(u.Src)) // with the folded MUL and ADD
			}
			p.Flops += n * mult[len(mult)-1]
		}
	}
	if p.Work == 0 {
		p.Work = 1
	}
	for _, b := range p.Bufs {
		p.Bytes += int64(b.Size * b.DType.Size())
	}
}

// indexOnly reports whether uop i only combines index arithmetic (a valid test).
func (p *Program) indexOnly(i int) bool {
	for _, s := range p.UOps[i].Src {
		d := p.UOps[s].DType
		if d != Index && !(d == Bool && p.UOps[s].Op != OpLoad && p.indexOnly(s)) {
			return false
		}
	}
	return len(p.UOps[i].Src) > 0
}
