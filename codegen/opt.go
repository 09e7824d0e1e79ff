package codegen

import (
	"fmt"
	"slices"
	"strings"
)

// This file defines the applied optimizations a Program records
// (tinygrad's Kernel.applied_opts): what the loop-nest chooser (nest.go,
// cascade.go) and the rewrites (rewrite.go) decided for the kernel, in the
// order they decided it. DEBUG=3 prints them above the uops; Lower with
// Options.Replay applies exactly a recorded list instead of choosing, and
// Options.Skip turns each kind off. Axes are those of the kernel's shape
// after merging (Options.NoMerge keeps the kernel's own).

// OptOp is a kind of optimization.
type OptOp uint8

// The optimizations. A register tile is INNER along its columns' axis plus
// UPCAST along its rows'.
const (
	OptInner    OptOp = iota + 1 // Axis, an output axis, walked inside the reduce loops in tiles of Arg, each element with its own accumulator
	OptUpcast                    // Axis emitted as Arg copies, each with its own accumulators: a register tile's rows, dot products' outputs
	OptLanes                     // Axis, the innermost reduce axis, folded into Arg lanes of partial accumulators
	OptTile                      // the two innermost output loops walk Arg x Arg tiles (a transpose); Axis is the outer one
	OptUnroll                    // Axis's innermost loop, of Arg iterations, emitted as Arg copies
	OptSplit                     // the reduce loop over Axis is the global loop workers share, split in Arg parts first (0: it is already the first of several)
	OptBlock                     // the innermost reduce loop over Axis folds in compensated blocks of Arg (cascade.go)
	OptMulAcc                    // MUL+ADD and ACCUM of a MUL fused into multiply-adds (Arg of them)
	OptExp2                      // EXP2 arguments scaled by loop invariants folded into the EXP2 (Arg of them)
	OptRowBlock                  // a register tile's rows along Axis walk in blocks of Arg, the block loop outermost (nest.go's rowBlock)
	OptStream                    // the global loop's one store, into buffer Axis, is large and contiguous, or a transpose tile's (whole cache lines a row): streamed around the caches (RenderC; devices without streaming stores ignore it)
	OptPack                      // a register tile's shared load of buffer Axis is copied into a contiguous panel of Arg elements per worker first (RenderC, render_c_pack.go; other devices ignore it)
	OptStep                      // the reduce loop whose RANGE is uop Axis, around a register tile's inner loop, applies Arg iterations per pass over the accumulators (step.go; devices/cpu, which runs a tile's rows as runs; devices that compile loops ignore it)
	OptClip                      // the reduce loop over Axis runs only where the masks its terms read under allow, from Arg bounds (clip.go): a padded convolution's window clipped to the input
	OptPeel                      // the innermost output loop, over Axis, is cut at position Arg into loops of their own, each emitted knowing its range (a pad's edges: the interior loads need no mask check)
	OptPow                       // float32 EXP2s of a folded LOG2, 2**(s*log2 x), computed with the logarithm unrounded (Arg of them)
	OptSwap                      // the output loop over Axis moves outside the one over Arg just before it (dot products: the larger operand read once, the smaller swept in cache; nest.go's swapDot)
)

var optNames = [...]string{OptInner: "INNER", OptUpcast: "UPCAST", OptLanes: "LANES", OptTile: "TILE", OptUnroll: "UNROLL",
	OptSplit: "SPLIT", OptBlock: "BLOCK", OptMulAcc: "MULACC", OptExp2: "EXP2", OptRowBlock: "ROWBLOCK", OptStream: "STREAM",
	OptPack: "PACK", OptStep: "STEP", OptClip: "CLIP", OptPeel: "PEEL", OptPow: "POW", OptSwap: "SWAP"}

// String returns the kind's upper-case name.
func (o OptOp) String() string {
	if int(o) < len(optNames) && optNames[o] != "" {
		return optNames[o]
	}
	return "OPT?"
}

// Opt is one applied optimization.
type Opt struct {
	Op   OptOp
	Axis int
	Arg  int
}

// String prints o as OP(axis, arg); the rewrites, which have no axis, as
// OP(arg).
func (o Opt) String() string {
	if o.Op == OptMulAcc || o.Op == OptExp2 || o.Op == OptPow {
		return fmt.Sprintf("%s(%d)", o.Op, o.Arg)
	}
	return fmt.Sprintf("%s(%d, %d)", o.Op, o.Axis, o.Arg)
}

// Opts is a list of applied optimizations.
type Opts []Opt

// String prints the list as [OP(axis, arg) ...].
func (os Opts) String() string {
	s := make([]string, len(os))
	for i, o := range os {
		s[i] = o.String()
	}
	return "[" + strings.Join(s, " ") + "]"
}

// Has reports whether the list holds an optimization of kind op.
func (os Opts) Has(op OptOp) bool {
	return slices.ContainsFunc(os, func(o Opt) bool { return o.Op == op })
}

// chooser makes each decision of the nest: by the heuristics, recording
// what it applies, or from a recorded list when replaying.
type chooser struct {
	skip    []OptOp
	replay  Opts
	used    []bool
	replays bool
	applied Opts
}

func newChooser(opts Options) *chooser {
	c := &chooser{skip: opts.Skip, replay: opts.Replay, replays: opts.Replay != nil, used: make([]bool, len(opts.Replay))}
	if opts.NoUnroll {
		c.skip = append(c.skip, OptUnroll)
	}
	if opts.NoSplit {
		c.skip = append(c.skip, OptSplit)
	}
	return c
}

// decide returns the next optimization of kind op to apply, and whether
// there is one: when replaying, the next of that kind in the list;
// otherwise the one choose returns. A skipped kind is never applied.
func (c *chooser) decide(op OptOp, choose func() (Opt, bool)) (Opt, bool) {
	if c.skips(op) {
		return Opt{}, false
	}
	var o Opt
	if c.replays {
		i := slices.IndexFunc(c.replay, func(o Opt) bool { return o.Op == op })
		for i >= 0 && c.used[i] {
			j := slices.IndexFunc(c.replay[i+1:], func(o Opt) bool { return o.Op == op })
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 {
			return Opt{}, false
		}
		c.used[i], o = true, c.replay[i]
	} else {
		var ok bool
		if o, ok = choose(); !ok {
			return Opt{}, false
		}
	}
	o.Op = op
	c.applied = append(c.applied, o)
	return o, true
}

// decideEach returns the optimizations of kind op to apply, in order:
// when replaying, every one of that kind in the list; otherwise cands.
func (c *chooser) decideEach(op OptOp, cands []Opt) []Opt {
	var out []Opt
	for k := 0; ; k++ {
		o, ok := c.decide(op, func() (Opt, bool) {
			if k < len(cands) {
				return cands[k], true
			}
			return Opt{}, false
		})
		if !ok {
			return out
		}
		out = append(out, o)
	}
}

// skips reports whether kind op is never applied.
func (c *chooser) skips(op OptOp) bool { return slices.Contains(c.skip, op) }

// rewrite runs a rewrite of kind op unless it is skipped or missing from
// the list replayed, and records it when it changed something.
func (c *chooser) rewrite(op OptOp, f func() int) {
	if c.skips(op) || c.replays && !c.replay.Has(op) {
		return
	}
	if n := f(); n > 0 {
		c.applied = append(c.applied, Opt{Op: op, Arg: n})
	}
}

// check panics when a replayed optimization does not fit the kernel
// (Lower turns it into an error).
func check(ok bool, o Opt) {
	if !ok {
		panic(fmt.Sprintf("optimization %s does not apply", o))
	}
}
