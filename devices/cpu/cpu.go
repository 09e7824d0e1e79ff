// Package cpu is tiny's pure-Go device, the one that runs where no C
// compiler does. It needs no cgo and no compiler.
//
// Compile turns each uop of a codegen.Program into a Go closure, once. The
// closures of an innermost loop work on runs of up to blockSize elements,
// so an add over 16M floats is 16K calls of a plain Go loop, not 16M
// dispatches; outer loops run their closures on runs of one element, and
// their index arithmetic costs no closure at all (affine in the loop
// variables). Codegen shapes the loop nest for this device (Target) and
// says what it decided: the multiply-adds (MULACC), the folded exp2
// arguments and the register tile with the reduce loop around it (STEP
// among the Program's Opts, which cpuTarget asks for) come from the
// Program, and the device only chooses how to run them: a tile runs as one
// closure per group of rows, the reduce loop applying four steps per pass
// (rows.go). Run splits the program's global loop across goroutines.
package cpu

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"tiny/codegen"
	"tiny/devices"
)

func init() { devices.Register("CPU", Open) }

// minParallel is the number of loop iterations below which a kernel runs on
// one goroutine: starting workers costs more than it saves.
const minParallel = 1 << 15

// Device is the pure-Go device.
type Device struct{ threads int }

// Open returns a CPU device; opts.Threads sets the number of workers
// (0 means GOMAXPROCS).
func Open(opts devices.Options) (devices.Device, error) {
	t := opts.Threads
	if t <= 0 {
		t = runtime.GOMAXPROCS(0)
	}
	return &Device{threads: t}, nil
}

// Name returns "CPU".
func (d *Device) Name() string { return "CPU" }

// Target returns the loop shapes this device runs well: the closures work on
// runs of the innermost loop, so runs must be long. A register tile of 4
// rows shares each run of the other operand among them (rows.go), with
// columns in runs of up to 1024: each reduce step costs a few closure calls
// whatever its length. One worker, matmul 512 and 1024: 4 x 256 took 42 and
// 340 ms, 4 x 512 42 and 284, 4 x 1024 35 and 284 (1024 columns are split
// in two runs of 512 either way). With the stepped loops of rows.go, 2, 4
// and 8 rows took 31.7/265, 29.9/248 and 29.0/236 ms: 8 rows gain 4%, but
// a matmul whose rows are not a multiple of the tile gets no tile at all,
// at half the speed, so 4 it is. No lanes:
// reduces fold whole runs into four partial sums (reduceRun), and an array
// of lane accumulators costs a load and a store per element. One worker,
// 4096² sum over rows 3.3 ms without lanes, 33, 18, 30 and 93 ms with 16,
// 64, 256 and 1024 lanes (the last two with codegen's cap of 64 raised);
// the softmax kernels no better. Transposes walk 128 x 128
// tiles, the device's only tiling: on a 4096² transpose (one worker) 16,
// 32, 64, 128 and 256 took 85, 67, 57, 47 and 46 ms, the device's own
// 16 x 64 tiles it had before 60 ms.
func (d *Device) Target() codegen.Target {
	return cpuTarget
}

var cpuTarget = codegen.Target{Rows: 4, Cols: 1024, Tile: 128, Block: blockSize, Steps: passSteps}

// Compile builds the closures of p.
func (d *Device) Compile(p *codegen.Program) (devices.Runner, error) {
	prog, err := compile(p)
	if err != nil {
		return nil, err
	}
	r := &runner{prog: prog, threads: d.threads}
	r.frames.New = func() any { return newFrame(prog.slots, len(p.Bufs)) }
	return r, nil
}

type runner struct {
	prog    *program
	threads int
	frames  sync.Pool
}

// Run executes the program over bufs.
func (r *runner) Run(bufs []*devices.Buffer, vars map[string]int64) error {
	return r.RunContext(context.Background(), bufs, vars)
}

// RunContext executes the program over bufs, the global loop cut into
// chunks the workers take in turn (devices.Parallel), and stops between
// chunks once ctx is done. Each worker runs the prefix (its accumulators)
// once and folds every chunk it takes into them.
func (r *runner) RunContext(ctx context.Context, bufs []*devices.Buffer, vars map[string]int64) (err error) {
	p := r.prog.p
	if err := devices.CheckBuffers("cpu", p, bufs); err != nil {
		return err
	}
	workers := 1
	if g := r.prog.global; g != nil && p.Work >= minParallel && !p.Serial {
		workers = min(r.threads, p.Global)
	}
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	frames := make([]*frame, max(workers, 1))
	for w := range frames {
		frames[w] = r.frames.Get().(*frame)
		frames[w].stop = &stop
		if err := frames[w].bind(bufs, r.prog.slots, vars); err != nil {
			return err
		}
	}
	defer func() {
		for _, fr := range frames {
			r.frames.Put(fr)
		}
	}()
	if r.prog.global == nil {
		return protect(p.Name, func() { runStmts(frames[0], r.prog.prefix) })
	}
	total := p.Global
	if workers == 1 {
		total = frames[0].cur.ix[r.prog.global.end][0]
	}
	errs := make([]error, workers)
	var stopped error
	var parts [][]any
	if len(r.prog.accs) > 0 {
		// A split reduce: each chunk folds into partials of its own, from
		// the accumulators' starting values, and they are combined in
		// chunk order, so that the sum is the same on every run.
		chunks := devices.PartialChunks(total)
		parts = make([][]any, chunks)
		stopped = devices.ParallelChunks(ctx, total, chunks, workers, func(int) {}, func(w, c, lo, hi int) {
			if errs[w] == nil {
				errs[w] = protect(p.Name, func() {
					runStmts(frames[w], r.prog.prefix)
					r.prog.global.run(frames[w], lo, hi)
					parts[c] = r.prog.saveAccs(frames[w])
				})
			}
		})
	} else {
		stopped = devices.Parallel(ctx, total, workers, func(w int) {
			errs[w] = protect(p.Name, func() { runStmts(frames[w], r.prog.prefix) })
		}, func(w, c, lo, hi int) {
			if errs[w] == nil {
				errs[w] = protect(p.Name, func() { r.prog.global.run(frames[w], lo, hi) })
			}
		})
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	if stopped != nil {
		return stopped
	}
	if stop.Load() {
		return ctx.Err()
	}
	if len(r.prog.suffix) == 0 {
		return nil
	}
	if parts != nil {
		r.prog.combineParts(frames[0], parts)
	}
	return protect(p.Name, func() { runStmts(frames[0], r.prog.suffix) })
}

func runStmts(fr *frame, s []stmt) {
	for _, f := range s {
		f(fr)
	}
}

// protect runs f, turning a panic (an index out of range: a codegen bug)
// into an error.
func protect(name string, f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cpu: internal error running %s: %v", name, r)
		}
	}()
	f()
	return nil
}

// saveAccs returns copies of a frame's top-level accumulators.
func (prog *program) saveAccs(fr *frame) []any {
	out := make([]any, len(prog.accs))
	for j, i := range prog.accs {
		out[j] = types[prog.slots[i].t].clone(&fr.own, i)
	}
	return out
}

// combineParts folds the chunks' partial accumulators pairwise in a tree,
// ((p0+p1)+(p2+p3))+..., so that a float sum's error grows like the log
// of the number of chunks, and puts the result in fr's accumulators.
func (prog *program) combineParts(fr *frame, parts [][]any) {
	for step := 1; step < len(parts); step *= 2 {
		for w := 0; w+step < len(parts); w += 2 * step {
			for j, i := range prog.accs {
				op := prog.p.UOps[i].ReduceOp
				switch d := parts[w][j].(type) {
				case []float32:
					combineAcc(op, d, parts[w+step][j].([]float32))
				case []float64:
					combineAcc(op, d, parts[w+step][j].([]float64))
				case []int32:
					combineAcc(op, d, parts[w+step][j].([]int32))
				case []int64:
					combineAcc(op, d, parts[w+step][j].([]int64))
				case []int8:
					combineAcc(op, d, parts[w+step][j].([]int8))
				case []int16:
					combineAcc(op, d, parts[w+step][j].([]int16))
				case []uint16:
					combineAcc(op, d, parts[w+step][j].([]uint16))
				case []uint32:
					combineAcc(op, d, parts[w+step][j].([]uint32))
				case []uint64:
					combineAcc(op, d, parts[w+step][j].([]uint64))
				case []uint8:
					combineAcc(op, d, parts[w+step][j].([]uint8))
				}
			}
		}
	}
	for j, i := range prog.accs {
		switch d := parts[0][j].(type) {
		case []float32:
			copy(fr.own.f32[i], d)
		case []float64:
			copy(fr.own.f64[i], d)
		case []int32:
			copy(fr.own.i32[i], d)
		case []int64:
			copy(fr.own.i64[i], d)
		case []int8:
			copy(fr.own.i8[i], d)
		case []int16:
			copy(fr.own.i16[i], d)
		case []uint16:
			copy(fr.own.u16[i], d)
		case []uint32:
			copy(fr.own.u32[i], d)
		case []uint64:
			copy(fr.own.u64[i], d)
		case []uint8:
			copy(fr.own.u8[i], d)
		}
	}
}

func combineAcc[T num](op codegen.Op, d, s []T) {
	for i := range d {
		d[i] = combine(op, d[i], s[i])
	}
}
