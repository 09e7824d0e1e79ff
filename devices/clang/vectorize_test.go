package clang

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tiny/codegen"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// TestSelectIntoHelperVectorizes compiles elementwise kernels where a
// select feeds the inlined LOG2 and SIN helpers (where(x > 0.5, x, 1).log(),
// as pow's log2 of a base with its zeros replaced) and checks, from gcc's
// own report, that the loop is vectorized: gcc's partial redundancy
// elimination folds the helper on the constant arm and leaves the loop
// branching (28 ms for where(...).log() over 4096x1024 against 4.2 for
// log() alone) unless the kernel is compiled without it (TINY_NO_PRE).
func TestSelectIntoHelperVectorizes(t *testing.T) {
	tc, err := findCompiler()
	if err != nil {
		t.Skip(err)
	}
	if !isGCC(tc.path) {
		t.Skip("the compiler is not gcc")
	}
	f32, s := codegen.Float32, shape.FromInts(4096)
	for _, op := range []codegen.Op{codegen.OpLog2, codegen.OpSin} {
		x := kt.Load(1, f32, s)
		sel := kt.Op(codegen.OpWhere, f32, kt.Op(codegen.OpCmpLt, codegen.Bool, kt.Const(0.5, f32, s), x), x, kt.Const(1, f32, s))
		p, err := codegen.Lower(kt.Kernel(s, kt.Op(op, f32, sel), kt.Spec(f32, 4096)), codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		src := codegen.RenderC(p)
		args := append(append(append([]string{}, tc.args...), tc.flags...), "-fopt-info-vec-optimized", "-o", filepath.Join(t.TempDir(), "k.so"))
		cmd := exec.Command(tc.path, args...)
		cmd.Stdin = strings.NewReader(src)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", op, err, out)
		}
		if !strings.Contains(string(out), "loop vectorized") {
			t.Errorf("%s of a select: the loop is not vectorized; gcc reported:\n%s\nsource:\n%s", op, out, src)
		}
	}
}
