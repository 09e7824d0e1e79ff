package interp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"tiny/interp"
)

// FuzzEval runs random programs: none may panic or report an internal
// error. Every other error (a runtime or syntax error of the program) is
// fine. Programs run with a short deadline and a small tensor size limit so
// that loops and huge tensors end quickly.
func FuzzEval(f *testing.F) {
	for _, s := range []string{
		"1 + 2", "x = [1, 2]; x[0]", `"a" * 3`, "fn f(n) { return n * f(n - 1) }; f(3)",
		"[[1, 2], [3, 4]].sum(axis=0)", "shapetracker((2, 3)).permute(1, 0).render()",
		"d = {\"a\": 1}; d.a += 1; d", "for i in range(3) { if i { break } }",
		"a = arange(6).reshape(2, 3); a[:, ::-1].T @ ones(2, 2, dtype=int32)",
		"view((3, 3), mask=((0, 2), (0, 2))).reshape(9)", "while true { }",
		"w = rand(3, requires_grad=true); l = (w * w).sum(); print(l.item()); l.backward(); w.grad",
		"x = arange(4).float().contiguous(); g = (x.exp().max() * x).sum().gradient(x); realize(g[0], x)",
		"[i * j for i in range(3) for j in range(i) if i != j]; {k: 1 for k in \"ab\"}",
		"x = 3; y = 1 if x in (1, 2) else 2 if \"a\" not in \"abc\" else [x for x in range(x)]",
		"a = [1, 2, 3]; b = (a & 6) | (a ^ 1) << 0; ~b; u = a.cast(uint8); u << 2 >> 1; 2 in a",
		"p = [-1.0, 2.0] > 0; (p & ~p) | true; 6 & 3 ^ 1 | ~7 << 2 >> 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		it, err := interp.New(interp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		it.SetMaxNumel(1 << 12)
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		err = it.Exec(ctx, "fuzz.tiny", src, true)
		if err != nil {
			msg := it.FormatError(err)
			if strings.Contains(msg, "internal error") {
				t.Fatalf("program %q: %s", src, msg)
			}
		}
	})
}
