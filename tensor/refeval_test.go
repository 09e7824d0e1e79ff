package tensor

import (
	"fmt"
	"math"
	"testing"
	"time"

	"tiny/codegen"
	"tiny/devices"
	"tiny/devices/clang"
	"tiny/devices/opencl"
	_ "tiny/devices/ref"
	"tiny/symbolic"
)

// astEngine returns an engine that runs kernels with interpKernel, the
// AST evaluator below: element by element, straight from the AST.
func astEngine() *Engine {
	return testEngine()
}

// cpuEngine returns an engine on the CPU device, or the AST evaluator's engine
// when no CPU device is registered.
func cpuEngine(t testing.TB) *Engine {
	e, err := NewEngine(Options{Device: "CPU"})
	if err != nil {
		t.Logf("no CPU device (%v): using the AST evaluator", err)
		return astEngine()
	}
	return e
}

// refDeviceEngine returns an engine on the reference device (devices/ref),
// which runs the lowered programs one uop at a time.
func refDeviceEngine(t testing.TB) *Engine {
	e, err := NewEngine(Options{Device: "REF"})
	if err != nil {
		t.Fatalf("REF device: %v", err)
	}
	return e
}

// engines returns the engines the differential tests run on: the CPU
// device, the reference device ("ref"), the kernel-AST evaluator ("ast"),
// the CLANG device where a C compiler works (issue 5: every oracle program
// on both devices), and the GPU device where OpenCL has a platform.
func engines(t testing.TB) map[string]*Engine {
	m := map[string]*Engine{"cpu": cpuEngine(t), "ref": refDeviceEngine(t), "ast": astEngine()}
	if _, err := opencl.Available(); err != nil {
		t.Logf("GPU device not tested: %v", err)
	} else if e, err := NewEngine(Options{Device: "GPU"}); err != nil {
		t.Fatalf("GPU device: %v", err)
	} else {
		m["gpu"] = e
	}
	if _, err := clang.Available(); err != nil {
		t.Logf("CLANG device not tested: %v", err)
		return m
	}
	e, err := NewEngine(Options{Device: "CLANG"})
	if err != nil {
		t.Fatalf("CLANG device: %v", err)
	}
	m["clang"] = e
	return m
}

// prebuildGPU prepares a sweep over many programs for the GPU engine of
// es, if it has one: it runs sweep on an engine that lowers as the GPU
// device does but runs on the CPU device (subtest "gpu-prebuild"), then
// builds every program that met on the GPU device in a few driver builds
// (opencl.Prebuild), so that the sweep on GPU finds its kernels built
// instead of building each schedule's on its own (about a second a build
// on pocl, where the sweeps hold hundreds of schedules).
func prebuildGPU(t *testing.T, es map[string]*Engine, sweep func(t *testing.T, e *Engine)) {
	t.Helper()
	if es["gpu"] == nil {
		return
	}
	host, err := devices.Open("CPU", devices.Options{})
	if err != nil {
		t.Fatalf("CPU device: %v", err)
	}
	rec := opencl.NewRecorder(host)
	t.Run("gpu-prebuild", func(t *testing.T) { sweep(t, NewEngineOn(rec, Options{})) })
	start := time.Now()
	n, err := rec.Prebuild()
	if err != nil {
		t.Fatalf("GPU prebuild: %v", err)
	}
	t.Logf("GPU: built %d programs ahead in %v", n, time.Since(start).Round(time.Millisecond))
}

// interpKernel evaluates a kernel AST for every output element.
func interpKernel(k *codegen.Kernel, bufs []*devices.Buffer) {
	in := make([][]float64, len(bufs))
	for i, b := range bufs[1:] {
		in[i+1] = readFloats(b)
	}
	st := k.AST.ST
	out := st.IntShape()
	full := append([]int(nil), out...)
	var red *codegen.Node
	var find func(n *codegen.Node)
	find = func(n *codegen.Node) {
		if n.Op == codegen.OpReduce && red == nil {
			red = n
		}
		for _, s := range n.Src {
			find(s)
		}
	}
	find(k.AST)
	if red != nil {
		var leaf func(n *codegen.Node) []int
		leaf = func(n *codegen.Node) []int {
			if n.Op == codegen.OpLoad || n.Op == codegen.OpConst {
				return n.ST.IntShape()
			}
			for _, s := range n.Src {
				if r := leaf(s); r != nil {
					return r
				}
			}
			return nil
		}
		full = leaf(red)
	}
	vars := make([]*symbolic.Node, len(full))
	for i, d := range full {
		vars[i] = symbolic.Var(fmt.Sprintf("i%d", i), 0, int64(max(d-1, 0)))
	}
	type expr struct{ idx, valid *symbolic.Node }
	exprs := map[*codegen.Node]expr{}
	index := func(n *codegen.Node, pos []int) (int, bool) {
		x, ok := exprs[n]
		if !ok {
			shp := n.ST.IntShape()
			vs := make([]*symbolic.Node, len(shp))
			for i, d := range shp {
				vs[i] = vars[i]
				if d == 1 {
					vs[i] = symbolic.C(0)
				}
			}
			x.idx, x.valid = n.ST.RawIndexExpr(vs)
			exprs[n] = x
		}
		env := map[string]int64{}
		for i, p := range pos {
			env[vars[i].Name] = int64(p)
		}
		return int(x.idx.Eval(env)), x.valid.Eval(env) != 0
	}
	result := make([]float64, bufs[0].Len)
	// The AST is a DAG (a random draw reads its position through many
	// paths): memo keeps each node's value at the current position, whose
	// generation gen changes whenever pos does.
	type memoed struct {
		gen int
		v   float64
	}
	memo := map[*codegen.Node]memoed{}
	gen := 0
	var eval, evalNode func(n *codegen.Node, pos []int) float64
	eval = func(n *codegen.Node, pos []int) float64 {
		if m, ok := memo[n]; ok && m.gen == gen {
			return m.v
		}
		v := evalNode(n, pos)
		memo[n] = memoed{gen, v}
		return v
	}
	evalNode = func(n *codegen.Node, pos []int) float64 {
		switch n.Op {
		case codegen.OpLoad:
			i, ok := index(n, pos)
			if !ok {
				return 0
			}
			return in[n.Buf][i]
		case codegen.OpGather:
			i, ok := index(n, pos)
			v := int(eval(n.Src[0], pos))
			if !ok || v < 0 || v >= n.Bound {
				return 0
			}
			return in[n.Buf][i+v*n.Stride]
		case codegen.OpConst:
			if _, ok := index(n, pos); !ok {
				return 0
			}
			return n.Val
		case codegen.OpReduce:
			acc := map[codegen.Op]float64{codegen.OpAdd: 0, codegen.OpMul: 1, codegen.OpMax: math.Inf(-1)}[n.ReduceOp]
			if n.ReduceOp == codegen.OpMax && !n.DType.IsFloat() {
				acc = minValue(n.DType)
			}
			p := append([]int(nil), pos...)
			forEach(full, n.Axes, p, func() {
				gen++
				v := eval(n.Src[0], p)
				acc = aluRef(n.ReduceOp, n.DType, acc, v)
			})
			gen++ // back at pos: what the reduce memoized is stale
			return acc
		}
		args := make([]float64, len(n.Src))
		for i, s := range n.Src {
			args[i] = eval(s, pos)
		}
		d := n.DType
		if n.Op.IsCompare() || n.Op == codegen.OpCast || n.Op == codegen.OpWhere {
			d = n.Src[len(n.Src)-1].DType
		}
		if n.Op == codegen.OpCast {
			if d.IsFloat() && n.DType.IsInt() {
				return roundTo(float64(codegen.FloatToInt(args[0], n.DType)), n.DType)
			}
			return roundTo(args[0], n.DType)
		}
		return aluRef(n.Op, d, args...)
	}
	pos := make([]int, len(out))
	if k.AST.Scatters() {
		// In place, in order: the last write to an element stays.
		result = readFloats(bufs[0])
	}
	forEach(out, allAxes(len(out)), pos, func() {
		gen++
		i, ok := index(k.AST, pos)
		if k.AST.Scatters() {
			if v := int(eval(k.AST.Src[1], pos)); ok && v >= 0 && v < k.AST.Bound {
				w := roundTo(eval(k.AST.Src[0], pos), k.AST.DType)
				if k.AST.ReduceOp != 0 {
					w = aluRef(k.AST.ReduceOp, k.AST.DType, result[i+v*k.AST.Stride], w)
				}
				result[i+v*k.AST.Stride] = w
			}
			return
		}
		result[i] = roundTo(eval(k.AST.Src[0], pos), k.AST.DType)
	})
	writeFloats(bufs[0], result)
}

func allAxes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// forEach sets pos over every combination of the given axes of shp.
func forEach(shp, axes, pos []int, f func()) {
	var rec func(k int)
	rec = func(k int) {
		if k == len(axes) {
			f()
			return
		}
		for i := 0; i < shp[axes[k]]; i++ {
			pos[axes[k]] = i
			rec(k + 1)
		}
	}
	rec(0)
}

// roundTo rounds v to what dtype d holds, as a store or cast does.
func roundTo(v float64, d DType) float64 {
	switch d {
	case Bool:
		return b2f(v != 0)
	case Uint8:
		return float64(uint8(int64(v)))
	case Int32:
		return float64(int32(int64(v)))
	case Int64:
		return float64(int64(v))
	case Float32:
		return float64(float32(v))
	case Float16:
		return float64(codegen.HalfToFloat(codegen.FloatToHalf(float32(v))))
	}
	return v
}

// aluRef computes one ALU op over operands of dtype d.
func aluRef(op codegen.Op, d DType, a ...float64) float64 {
	var r float64
	switch op {
	case codegen.OpNeg:
		r = -a[0]
	case codegen.OpExp2:
		r = math.Exp2(a[0])
	case codegen.OpLog2:
		r = math.Log2(a[0])
	case codegen.OpSin:
		r = codegen.Sin(a[0])
	case codegen.OpSqrt:
		r = math.Sqrt(a[0])
	case codegen.OpRecip:
		r = 1 / a[0]
	case codegen.OpNot:
		r = b2f(a[0] == 0)
	case codegen.OpAdd:
		r = a[0] + a[1]
	case codegen.OpSub:
		r = a[0] - a[1]
	case codegen.OpMul:
		r = a[0] * a[1]
		if d.IsInt() && d.Size() <= 4 {
			// Wrap before float64 rounds the low bits away (a hash's
			// uint32 products pass 2**53).
			r = float64(uint64(int64(a[0])) * uint64(int64(a[1])) & 0xffffffff)
		}
	case codegen.OpDiv:
		r = a[0] / a[1]
	case codegen.OpIDiv:
		if a[1] == 0 {
			return 0
		}
		r = math.Trunc(a[0] / a[1])
	case codegen.OpMod:
		if a[1] == 0 {
			return 0
		}
		r = math.Mod(a[0], a[1])
	case codegen.OpMax:
		r = math.Max(a[0], a[1])
		if math.IsNaN(a[0]) || math.IsNaN(a[1]) {
			r = math.NaN() // math.Max(+Inf, NaN) is +Inf
		}
	case codegen.OpCmpLt:
		return b2f(a[0] < a[1])
	case codegen.OpCmpNe:
		return b2f(a[0] != a[1])
	case codegen.OpCmpEq:
		return b2f(a[0] == a[1])
	case codegen.OpAnd:
		r = float64(int64(a[0]) & int64(a[1]))
	case codegen.OpOr:
		r = float64(int64(a[0]) | int64(a[1]))
	case codegen.OpXor:
		r = float64(int64(a[0]) ^ int64(a[1]))
	case codegen.OpWhere:
		if a[0] != 0 {
			r = a[1]
		} else {
			r = a[2]
		}
	default:
		panic(fmt.Sprintf("aluRef: op %s", op))
	}
	return roundTo(r, d)
}

func fmtMismatch(i int, g, w float64, got, want []float64) string {
	return fmt.Sprintf("element %d: got %v, want %v\ngot  %v\nwant %v", i, g, w, got, want)
}
