// Package codegen is tiny's kernel IR and its lowering: the dtypes, the ops,
// the kernel AST the scheduler builds (Kernel, Node), and the linear uop
// Program every device runs.
//
// The pipeline, from a kernel to a result:
//
//	prog, err := codegen.Lower(kernel, codegen.Options{}) // AST -> uops
//	runner, err := dev.Compile(prog)                      // once per distinct kernel
//	err = runner.Run(bufs, nil)                           // bufs[0] is the output
//
// The engine caches runners by a key it writes from the kernel (tensor's
// cacheKey): every AST node once, with its op, dtype, sources, buffer,
// constant, reduce op and axes, the ShapeTracker of loads, constants,
// stores and gathers, a gather's stride and bound, then each buffer's dtype
// and size. That is everything Lower reads but the name, and an engine
// lowers with one device's Options.
//
// Lower works in three steps, each a small pass over a plan of the kernel's
// axes:
//
//  1. merge (plan.go): drop size-1 axes and join adjacent axes of the same
//     kind wherever every ShapeTracker can hold the joined shape in its last
//     view, so a contiguous (4096, 4096) add becomes one loop of 16M.
//  2. order (nest.go): choose the loop nest. Reduce loops go innermost,
//     the one that walks memory with the smallest stride last. When an output
//     axis walks memory more closely than any reduce axis (sum over axis 0,
//     matmul), or when every load uses whole cache lines that way although
//     the strides summed say otherwise (linesReused), it moves inside the
//     reduce loops with an array of accumulators, one per output element. The nest is then shaped for the
//     device's Target: register tiles (an output axis upcast into copies with
//     their own accumulators, sharing loads), lanes of partial accumulators
//     for a reduce over a contiguous axis, and square tiles for an
//     elementwise kernel that strides (transpose). Small innermost loops are
//     unrolled (the expand_node idea: each copy indexes with the axis
//     replaced by a constant), and a reduce with no output loop is split so
//     that workers share it.
//     Each decision goes through a chooser (opt.go) that records it on
//     the Program as an Opt (INNER, UPCAST, LANES, TILE, UNROLL, SPLIT,
//     BLOCK; after emitting, STREAM for a store RenderC streams, PACK for
//     a panel it packs and STEP for a tile's reduce loop the CPU device
//     steps, step.go), or
//     replays a given list (Options.Replay) or skips a kind (Options.Skip).
//  3. emit (lower.go): walk the AST inside the nest, each node once per
//     loop context (the AST is a DAG: x+x repeated 40 times has 40 nodes,
//     not 2**40). Index and valid expressions come from each ShapeTracker's
//     IndexExpr and become index uops; loads with a non-trivial valid are
//     gated, and loads that are never valid are the constant 0. The builder hoists every
//     value to the outermost loop it depends on and merges duplicates.
//
// Three rewrites of the linear uops follow (rewrite.go), recorded as Opts
// too: an ADD of a MUL becomes a MULACC [a, b, c] = a*b + c, and an
// add-ACCUM of a MUL an ACCUM with ReduceOp OpMulAcc [acc, idx, a, b];
// exp2(x*s) or exp2((x±k)*s), with s and k loop-invariant, becomes one
// EXP2 of two or three operands, whose product x*s is not rounded (and a
// constant s of float32(log2 e) is log2 e: Exp2Scale); and a float32
// exp2(log2(a)*s) becomes EXP2 [a, s] with ReduceOp OpLog2, the logarithm
// not rounded either (a power). A float MULACC is fused: a*b + c
// rounded once (C's fma), on every device, so that every device gives the
// same bits (CLANG renders fmaf and compiles with -ffp-contract=off, so
// nothing else is fused; the OpenCL source says fma and FP_CONTRACT OFF;
// the Go devices use codegen.FMA32 or FMA instructions). Skipping the
// MULACC rewrite (Options.Skip) keeps the MUL and the ADD, each rounded.
//
// A worked example: (tensor([1,2,3]) + 2) is the kernel
//
//	0 ━┳ STORE MemBuffer(idx=0, dtype=int32, st=...(3,)...)
//	1  ┗━┳ ADD
//	2    ┣━━ LOAD MemBuffer(idx=1, dtype=int32, st=...(3,)...)
//	3    ┗━━ CONST ConstBuffer(val=2, dtype=int32, st=...strides=(0,)...)
//
// which lowers to (Program.String, what DEBUG=3 prints; a kernel with
// optimizations lists them first, as "opts [INNER(1, 16) UPCAST(0, 6) ...]")
//
//	0 CONST        : index   [] 0
//	1 CONST        : index   [] 3
//	2 DEFINE_GLOBAL: int32   [] data1
//	3 CONST        : int32   [] 2
//	4 DEFINE_GLOBAL: int32   [] data0
//	5 RANGE        : index   [0, 1] ridx0 global
//	6   LOAD         : int32   [2, 5]
//	7   ADD          : int32   [6, 3]
//	8   STORE        : int32   [4, 5, 7]
//	9 ENDRANGE     : index   [5]
//
// The CONST 2 stays outside the loop; a device broadcasts it.
//
// Devices consume the Program as it is. The reference is devices/ref: a
// plain interpreter that runs the uops one at a time, in order, and whose
// code defines what each uop means (wrapping integers, float16 computed in
// float32 and rounded by a cast or a store, NaN rules); the kernel tests
// and fuzzers check every other device against it. devices/cpu turns each
// uop into a Go closure over runs of the innermost loop, running the
// register tile STEP names (StepTiles) as one closure per group of rows,
// and the clang device compiles the C that RenderC (render_c.go)
// writes; no device looks for the tile, the MULACCs or the folded EXP2s
// by itself. Both split the
// global loop (the first top-level RANGE, Program.Global iterations) across
// workers; a SplitReduce program folds one partial per chunk of the global
// loop and combines them in chunk order, so a run gives the same bits
// whatever the scheduling. Options turn the optimizations off one by one
// (Skip) or replay a recorded list (Replay); the zero value chooses and
// enables them all.
package codegen
