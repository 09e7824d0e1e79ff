package interp_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"tiny/interp"
)

// genProgram writes a random program of tensor and shapetracker operations
// with plausible, often wrong, arguments: expr's FuzzExpr idea of
// generating from the grammar instead of mutating bytes.
func genProgram(r *rand.Rand) string {
	var b strings.Builder
	small := func() int { return r.Intn(7) - 2 }
	dim := func() int { return r.Intn(4) + 1 }
	shape := func() string {
		n := r.Intn(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprint(dim())
		}
		if n == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	pairs := func() string {
		n := r.Intn(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf("(%d, %d)", small(), small()+2)
		}
		return "(" + strings.Join(parts, ", ") + ",)"
	}
	creators := []func() string{
		func() string {
			return fmt.Sprintf("arange(%d).reshape%s", 24, []string{"(2, 3, 4)", "(4, 6)", "(24,)", "(2, 12)"}[r.Intn(4)])
		},
		func() string { return "ones" + shape() },
		func() string { return "rand" + shape() + fmt.Sprintf(".mul(%d)", small()) },
		func() string { return "[[1, 2, 3], [4, 5, 6]]" },
		func() string { return "[1.5, -2.0, 0.0]" },
		func() string { return "[true, false]" },
		func() string { return fmt.Sprintf("eye(%d)", dim()) },
		func() string { return fmt.Sprintf("full(%s, %d)", shape(), small()) },
		func() string { return fmt.Sprintf("%d", small()) },
		func() string { return "shapetracker" + shape() },
		func() string { return fmt.Sprintf("view(%s)", shape()) },
	}
	methods := []func() string{
		func() string { return "reshape" + shape() },
		func() string { return fmt.Sprintf("permute(%d, %d)", r.Intn(3), r.Intn(3)) },
		func() string { return "expand" + shape() },
		func() string { return "pad(" + pairs() + ")" },
		func() string { return "shrink(" + pairs() + ")" },
		func() string { return fmt.Sprintf("flip(%d)", small()) },
		func() string { return fmt.Sprintf("sum(axis=%d)", small()) },
		func() string { return fmt.Sprintf("max(axis=%d, keepdim=true)", small()) },
		func() string { return "mean()" },
		func() string { return fmt.Sprintf("cumsum(%d)", small()) },
		func() string { return fmt.Sprintf("softmax(%d)", small()) },
		func() string { return "T" },
		func() string {
			return []string{"exp()", "log()", "sqrt()", "relu()", "sigmoid()", "abs()", "neg()", "float()", "int()", "bool()", "contiguous()", "flatten()", "squeeze()"}[r.Intn(13)]
		},
		func() string { return fmt.Sprintf("unsqueeze(%d)", small()) },
		func() string { return fmt.Sprintf("[%d]", small()) },
		func() string { return fmt.Sprintf("[%d:%d:%d]", small(), small(), []int{1, 2, -1, -2}[r.Intn(4)]) },
		func() string { return "[none, ..., 0]" },
		func() string { return fmt.Sprintf("stride(%d, %d)", small(), small()) },
		func() string { return "render()" },
		func() string { return "simplify()" },
		func() string { return "shapetracker" },
		func() string { return fmt.Sprintf("cat(x%d, dim=%d)", r.Intn(4), small()) },
		func() string { return fmt.Sprintf("where(x%d, %d)", r.Intn(4), small()) },
		func() string {
			return fmt.Sprintf("cast(%s)", []string{"int32", "float16", "bool", "uint8", "int64", "float64"}[r.Intn(6)])
		},
	}
	ops := []string{"+", "-", "*", "/", "//", "%", "@", "<", "==", "!=", "**"}
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&b, "x%d = %s\n", i, creators[r.Intn(len(creators))]())
	}
	for i := 0; i < 8; i++ {
		v := fmt.Sprintf("x%d", r.Intn(4))
		var e string
		switch r.Intn(3) {
		case 0:
			e = v + "." + methods[r.Intn(len(methods))]()
			if strings.HasPrefix(e[len(v)+1:], "[") {
				e = v + e[len(v)+1:]
			}
		case 1:
			// NOTE: no ** between tensors: its graph reuses each operand
			// several times, and the scheduler walks shared nodes as a tree,
			// so two chained powers take minutes (reported to tensor/).
			e = fmt.Sprintf("%s %s x%d", v, ops[r.Intn(len(ops)-1)], r.Intn(4))
		default:
			e = fmt.Sprintf("%s %s %d", v, ops[r.Intn(len(ops))], small())
		}
		fmt.Fprintf(&b, "x%d = %s\nprint(x%d)\n", r.Intn(4), e, r.Intn(4))
	}
	return b.String()
}

// FuzzProgram runs generated programs (the fuzz input is the generator's
// seed); as in FuzzEval, none may panic or report an internal error.
func FuzzProgram(f *testing.F) {
	for i := int64(0); i < 8; i++ {
		f.Add(i)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		src := genProgram(rand.New(rand.NewSource(seed)))
		it, _ := interp.New(interp.Options{})
		it.SetMaxNumel(1 << 12)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		for _, line := range strings.Split(src, "\n") {
			if err := it.Exec(ctx, "gen.tiny", line, false); err != nil {
				if msg := it.FormatError(err); strings.Contains(msg, "internal error") {
					t.Fatalf("seed %d:\n%s\n%s", seed, src, msg)
				}
			}
		}
	})
}
