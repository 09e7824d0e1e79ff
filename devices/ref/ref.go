// Package ref is tiny's reference device: it runs a codegen.Program one uop
// at a time, in program order, on one goroutine, with every value held on
// its own. It is slow and plain on purpose: its code is the definition of
// what each uop means, and every other device (CPU, CLANG, GPU) is checked
// against it by the kernel tests and the fuzzers. DEVICE=REF runs a whole
// program on it, to tell a device's bug from a codegen bug.
//
// The uops, as this device runs them (codegen/uop.go gives their operands):
//
//	DEFINE_GLOBAL  kernel buffer Buf; memory uops name it as their first operand
//	DEFINE_VAR     the value of symbolic variable Name (an index)
//	CONST          Val converted to DType (see constant)
//	DEFINE_ACC     Size accumulators of DType, each set to Val, every time the uop runs
//	RANGE          a loop: its variable takes start, start+1, ..., end-1; the body
//	               (the uops up to the matching ENDRANGE) runs once per value, and
//	               not at all when start >= end
//	ENDRANGE       the end of the loop body: the next value, or on after the loop
//	LOAD           element idx of a buffer or accumulator array; with a gate that
//	               is false, Val in DType instead, and no memory is read
//	STORE          value into element idx of a buffer (rounded to its dtype) or
//	               accumulator array, unless a gate is false
//	ACCUM          acc[idx] = ReduceOp(acc[idx], value); with ReduceOp MULACC and
//	               operands [acc, idx, a, b], acc[idx] = a*b + acc[idx]
//	the ALU ops    alu.go: the result of the operation, in DType
//	MULACC         [a, b, c]: a*b + c, a float rounded once (fused: C's fma, fmaf)
//	EXP2           [x]: exp2(x); [x, s]: exp2(x*s); [x, k, s]: exp2((x ReduceOp k)*s),
//	               ReduceOp ADD or SUB, each step rounded as if on its own;
//	               [x, s] with ReduceOp LOG2: exp2(log2(x)*s), the logarithm and
//	               the product unrounded (a folded pow)
//
// An index outside its buffer or accumulator array is an error, not a
// crash. The program's global loop runs in order like any loop: a
// SplitReduce program's partial accumulators and a device's worker split
// are execution strategies that may change a float sum's rounding, never
// its meaning. Programs run here give the same bits on every run.
package ref

import (
	"context"
	"fmt"
	"math"

	"tiny/codegen"
	"tiny/devices"
)

func init() { devices.Register("REF", Open) }

// Device is the reference device.
type Device struct{}

// Open returns the reference device; it has no options.
func Open(devices.Options) (devices.Device, error) { return &Device{}, nil }

// Name returns "REF".
func (*Device) Name() string { return "REF" }

// Compile checks that p is well formed: every operand is an earlier uop,
// every op is a uop, loops nest, memory uops name a buffer or an
// accumulator array, loads and stores of a buffer have its dtype.
func (*Device) Compile(p *codegen.Program) (devices.Runner, error) {
	end := make([]int, len(p.UOps))
	var open []int
	for i, u := range p.UOps {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("ref: %s: uop %d (%s): %s", p.Name, i, u.Op, fmt.Sprintf(format, args...))
		}
		for _, s := range u.Src {
			if s < 0 || s >= i {
				return nil, bad("operand %d is not an earlier uop", s)
			}
		}
		if n, ok := operands[u.Op]; !ok {
			return nil, bad("not an op a device runs")
		} else if len(u.Src) != n && !(u.Op == codegen.OpLoad && len(u.Src) == 3 || u.Op == codegen.OpStore && len(u.Src) == 4 ||
			u.Op == codegen.OpAccum && len(u.Src) == 4 && u.ReduceOp == codegen.OpMulAcc || u.Op == codegen.OpExp2 && len(u.Src) <= 3) {
			return nil, bad("%d operands", len(u.Src))
		}
		switch u.Op {
		case codegen.OpDefineGlobal:
			if u.Buf < 0 || u.Buf >= len(p.Bufs) {
				return nil, bad("buffer %d of %d", u.Buf, len(p.Bufs))
			}
		case codegen.OpRange:
			open = append(open, i)
		case codegen.OpEnd:
			if len(open) == 0 || open[len(open)-1] != u.Src[0] {
				return nil, bad("ends %d, not the innermost open loop", u.Src[0])
			}
			end[u.Src[0]] = i
			open = open[:len(open)-1]
		case codegen.OpLoad, codegen.OpStore, codegen.OpAccum:
			m := p.UOps[u.Src[0]]
			switch {
			case m.Op == codegen.OpDefineAcc:
			case m.Op == codegen.OpDefineGlobal && u.Op != codegen.OpAccum:
				d := u.DType
				if u.Op == codegen.OpStore {
					d = p.UOps[u.Src[2]].DType
				}
				if d != p.Bufs[m.Buf].DType {
					return nil, bad("%s value, %s buffer", d, p.Bufs[m.Buf].DType)
				}
			default:
				return nil, bad("operand %d is a %s, not memory", u.Src[0], m.Op)
			}
		}
	}
	if len(open) > 0 {
		return nil, fmt.Errorf("ref: %s: loop %d has no ENDRANGE", p.Name, open[len(open)-1])
	}
	return &runner{p: p, end: end}, nil
}

// operands gives the number of operands of each op a Program may hold (a
// LOAD and a STORE may have one more, a gate).
var operands = map[codegen.Op]int{
	codegen.OpDefineGlobal: 0, codegen.OpDefineVar: 0, codegen.OpConst: 0, codegen.OpDefineAcc: 0,
	codegen.OpRange: 2, codegen.OpEnd: 1, codegen.OpLoad: 2, codegen.OpStore: 3, codegen.OpAccum: 3,
	codegen.OpNeg: 1, codegen.OpExp2: 1, codegen.OpLog2: 1, codegen.OpSin: 1, codegen.OpSqrt: 1,
	codegen.OpRecip: 1, codegen.OpCast: 1, codegen.OpNot: 1,
	codegen.OpAdd: 2, codegen.OpSub: 2, codegen.OpMul: 2, codegen.OpDiv: 2, codegen.OpIDiv: 2,
	codegen.OpMod: 2, codegen.OpMax: 2, codegen.OpCmpLt: 2, codegen.OpCmpNe: 2, codegen.OpCmpEq: 2,
	codegen.OpAnd: 2, codegen.OpOr: 2, codegen.OpXor: 2, codegen.OpWhere: 3, codegen.OpMulAcc: 3,
}

type runner struct {
	p   *codegen.Program
	end []int // RANGE -> its ENDRANGE
}

// Run runs the program over bufs.
func (r *runner) Run(bufs []*devices.Buffer, vars map[string]int64) error {
	return r.RunContext(context.Background(), bufs, vars)
}

// RunContext runs the program over bufs, stopping with ctx's error once
// ctx is done (checked every few thousand loop iterations).
func (r *runner) RunContext(ctx context.Context, bufs []*devices.Buffer, vars map[string]int64) error {
	p := r.p
	if err := devices.CheckBuffers("ref", p, bufs); err != nil {
		return err
	}
	for _, b := range bufs {
		b.Sync() // the host copy is the one read and written
	}
	us := p.UOps
	regs := make([]value, len(us))   // each uop's value; a RANGE's is its loop variable
	accs := make([][]value, len(us)) // each DEFINE_ACC's accumulators
	mem := func(pc int) memory {     // the memory a LOAD, STORE or ACCUM names
		if m := us[us[pc].Src[0]]; m.Op == codegen.OpDefineGlobal {
			return memory{buf: bufs[m.Buf]}
		}
		return memory{acc: accs[us[pc].Src[0]]}
	}
	steps := 0
	for pc := 0; pc < len(us); pc++ {
		u := &us[pc]
		var err error
		switch u.Op {
		case codegen.OpDefineGlobal:
		case codegen.OpDefineVar:
			v, ok := vars[u.Name]
			if !ok {
				return fmt.Errorf("ref: %s: no value for variable %s", p.Name, u.Name)
			}
			regs[pc] = value{i: v}
		case codegen.OpConst:
			regs[pc] = constant(u.Val, u.DType)
		case codegen.OpDefineAcc:
			if accs[pc] == nil {
				accs[pc] = make([]value, max(u.Size, 1))
			}
			for i := range accs[pc] {
				accs[pc][i] = constant(u.Val, u.DType)
			}
		case codegen.OpRange:
			start, end := regs[u.Src[0]].i, regs[u.Src[1]].i
			if start >= end {
				pc = r.end[pc]
				continue
			}
			regs[pc] = value{i: start}
		case codegen.OpEnd:
			loop := u.Src[0]
			regs[loop].i++
			if regs[loop].i < regs[us[loop].Src[1]].i {
				pc = loop
			}
			if steps++; steps%4096 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
		case codegen.OpLoad:
			if len(u.Src) == 3 && regs[u.Src[2]].i == 0 {
				regs[pc] = constant(u.Val, u.DType)
				break
			}
			regs[pc], err = mem(pc).load(regs[u.Src[1]].i)
		case codegen.OpStore:
			if len(u.Src) == 4 && regs[u.Src[3]].i == 0 {
				break
			}
			err = mem(pc).store(regs[u.Src[1]].i, regs[u.Src[2]])
		case codegen.OpAccum:
			m, i := mem(pc), regs[u.Src[1]].i
			var acc value
			if acc, err = m.load(i); err == nil && u.ReduceOp == codegen.OpMulAcc {
				// acc[i] = a*b + acc[i], a float rounded once.
				err = m.store(i, alu(codegen.OpMulAcc, u.DType, u.DType, regs[u.Src[2]], regs[u.Src[3]], acc))
			} else if err == nil {
				err = m.store(i, alu(u.ReduceOp, u.DType, u.DType, acc, regs[u.Src[2]], value{}))
			}
		case codegen.OpExp2:
			// exp2(x), exp2(x*s), exp2(log2(x)*s) or exp2((x ReduceOp k)*s): x ReduceOp k
			// rounded, the product not (codegen.Exp2Scale says why, and
			// what a constant s stands for); the power rounded once.
			x := regs[u.Src[0]]
			if u.ReduceOp == codegen.OpLog2 {
				// A folded pow (codegen.OptPow): the logarithm unrounded.
				x = value{f: math.Log2(x.f)}
			}
			if len(u.Src) == 3 {
				x = alu(u.ReduceOp, u.DType, u.DType, x, regs[u.Src[1]], value{})
			}
			if codegen.IsExp(p.UOps, *u) {
				regs[pc] = value{f: math.Exp(x.f)}
				break
			}
			if len(u.Src) > 1 {
				s := regs[u.Src[len(u.Src)-1]].f
				if hi, lo, ok := codegen.Exp2Scale(p.UOps, *u); ok {
					s = float64(hi) + float64(lo)
				}
				x = value{f: x.f * s}
			}
			regs[pc] = alu(codegen.OpExp2, u.DType, u.DType, x, value{}, value{})
		default:
			var x [3]value
			for k, s := range u.Src {
				x[k] = regs[s]
			}
			from := us[u.Src[0]].DType // the operands' dtype
			if u.Op == codegen.OpWhere {
				from = us[u.Src[1]].DType
			}
			regs[pc] = alu(u.Op, u.DType, from, x[0], x[1], x[2])
		}
		if err != nil {
			return fmt.Errorf("ref: %s: uop %d (%s): %v", p.Name, pc, u.Op, err)
		}
	}
	return nil
}
