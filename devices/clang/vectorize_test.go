package clang

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tiny/codegen"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// TestSelectIntoHelperVectorizes compiles elementwise kernels where a
// select feeds the inlined LOG2, SIN and folded pow helpers (where(x > 0.5, x, 1).log(),
// as pow's log2 of a base with its zeros replaced), and a floor (selects
// around a float to int32 conversion, tiny_f2i32f), and checks, from gcc's
// own report, that the loop is vectorized: gcc's partial redundancy
// elimination folds a helper on a select's constant arm, or duplicates the
// conversion into the arms, and leaves the loop branching (28 ms for
// where(...).log() over 4096x1024 against 4.2 for log() alone, 8.6 for a
// floor against 1.2) unless the kernel is compiled without it (TINY_OPTIMIZE("no-tree-pre"))
// or the helper has no condition to duplicate.
func TestSelectIntoHelperVectorizes(t *testing.T) {
	tc := gccOrSkip(t)
	f32, s := codegen.Float32, shape.FromInts(4096)
	x := kt.Load(1, f32, s)
	lt := func(a, b *codegen.Node) *codegen.Node { return kt.Op(codegen.OpCmpLt, codegen.Bool, a, b) }
	where := func(c, a, b *codegen.Node) *codegen.Node { return kt.Op(codegen.OpWhere, f32, c, a, b) }
	sel := where(lt(kt.Const(0.5, f32, s), x), x, kt.Const(1, f32, s))
	// floor as tensor's: truncated through int32 where |x| < 2**23, less
	// one where that rose above x.
	tr := where(lt(x, kt.Const(8388608, f32, s)), kt.Op(codegen.OpCast, f32, kt.Op(codegen.OpCast, codegen.Int32, x)), x)
	floor := where(lt(x, tr), kt.Op(codegen.OpSub, f32, tr, kt.Const(1, f32, s)), tr)
	for name, v := range map[string]*codegen.Node{
		"log2 of a select": kt.Op(codegen.OpLog2, f32, sel),
		"sin of a select":  kt.Op(codegen.OpSin, f32, sel),
		"floor":            floor,
		// x ** 1.3's core, folded into tiny_exp2l2f (codegen.OptPow): the
		// fold's kernel needs "no-tree-pre" too (61 ms for 4096x1024
		// without, 6 with).
		"pow of a select": kt.Op(codegen.OpExp2, f32, kt.Op(codegen.OpMul, f32, kt.Op(codegen.OpLog2, f32, sel), kt.Const(1.3, f32, s))),
		// softplus, whose log1p takes a quotient: u = 1 + e, where(u ==
		// 1, e, log(u) * (e / (u - 1))). gcc moved the division into the arm
		// that uses it, and without -fno-trapping-math does not execute
		// a division that may trap on both arms: the loop branched
		// (softplus over 4096x1024: 60 ms, 7 with the flag).
		"a division in a select's arm": softplus(x),
	} {
		op := name
		p, err := codegen.Lower(kt.Kernel(s, v, kt.Spec(f32, 4096)), codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		src := codegen.RenderC(p)
		out := compileWith(t, tc, src, "-fopt-info-vec-optimized", "-o", filepath.Join(t.TempDir(), "k.so"))
		if !strings.Contains(string(out), "loop vectorized") {
			t.Errorf("%s: the loop is not vectorized; gcc reported:\n%s\nsource:\n%s", op, out, src)
		}
	}
}

// gccOrSkip returns the toolchain when its compiler is gcc, whose passes
// these tests are about, and skips the test otherwise.
func gccOrSkip(t *testing.T) *toolchain {
	t.Helper()
	tc, err := findCompiler()
	if err != nil {
		t.Skip(err)
	}
	if !isGCC(tc.path) {
		t.Skip("the compiler is not gcc")
	}
	return tc
}

// compileWith compiles src with tc, its flags and extra, and returns what
// the compiler printed; the test fails when it fails.
func compileWith(t *testing.T, tc *toolchain, src string, extra ...string) []byte {
	t.Helper()
	args := append(append(append([]string{}, tc.args...), tc.flags...), extra...)
	cmd := exec.Command(tc.path, args...)
	cmd.Stdin = strings.NewReader(src)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s\nsource:\n%s", tc.path, strings.Join(extra, " "), err, out, src)
	}
	return out
}

// softplus builds tensor's softplus of x: where(x > 20, x, log1p(e)) with
// e = exp(min-ish(x)), log1p(e) as where(u == 1, e, log(u) * (e / (u - 1)))
// for u = 1 + e.
func softplus(x *codegen.Node) *codegen.Node {
	f32, s := codegen.Float32, shape.FromInts(4096)
	c := func(v float64) *codegen.Node { return kt.Const(v, f32, s) }
	op := func(o codegen.Op, a ...*codegen.Node) *codegen.Node { return kt.Op(o, f32, a...) }
	big := kt.Op(codegen.OpCmpLt, codegen.Bool, c(20), x)
	e := op(codegen.OpExp2, op(codegen.OpMul, op(codegen.OpWhere, big, c(0), x), c(1.4426950408889634)))
	u := op(codegen.OpAdd, e, c(1))
	q := op(codegen.OpDiv, e, op(codegen.OpSub, u, c(1)))
	l := op(codegen.OpMul, op(codegen.OpMul, op(codegen.OpLog2, u), c(0.6931471805599453)), q)
	return op(codegen.OpWhere, big, x, op(codegen.OpWhere, kt.Op(codegen.OpCmpEq, codegen.Bool, u, c(1)), e, l))
}

// TestStreamedCopyStaysALoop compiles two streamed kernels that only copy,
// a pad of 4096x1024 by one on each side and a repeat of 2048x512 twice
// along both axes, to assembly, and checks that the loop filling the block
// on the stack stays a loop: gcc turned it into an inline rep movs (or a
// memcpy call) for each block, and the kernels took twice the time, unless
// compiled without loop distribution into library calls (optimizeAttr in
// codegen).
func TestStreamedCopyStaysALoop(t *testing.T) {
	tc := gccOrSkip(t)
	f32 := codegen.Float32
	in := shape.FromInts(4096, 1024)
	pad := kt.Kernel(shape.FromInts(4098, 1026), kt.Load(1, f32, kt.Must(in.PadInts([][2]int{{1, 1}, {1, 1}}))), kt.Spec(f32, 4096*1024))
	small := shape.FromInts(1, 2048, 1, 512)
	rep := kt.Must(kt.Must(small.ExpandInts([]int{2, 2048, 2, 512})).ReshapeInts([]int{4096, 1024}))
	repeat := kt.Kernel(shape.FromInts(4096, 1024), kt.Load(1, f32, rep), kt.Spec(f32, 2048*512))
	for _, k := range []*codegen.Kernel{pad, repeat} {
		p, err := codegen.Lower(k, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !p.Opts.Has(codegen.OptStream) {
			t.Fatalf("%s: not streamed, opts %s", p.Name, p.Opts)
		}
		src := codegen.RenderC(p)
		asm := filepath.Join(t.TempDir(), "k.s")
		compileWith(t, tc, src, "-S", "-o", asm)
		b, err := os.ReadFile(asm)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"rep movs", "memcpy", "memmove"} {
			if strings.Contains(string(b), w) {
				t.Errorf("%s: the assembly has %s; source:\n%s", p.Name, w, src)
			}
		}
	}
}
