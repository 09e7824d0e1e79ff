package interp_test

import (
	"context"
	"strings"
	"testing"
)

// dropout acts only in training (as tinygrad's), keeps about 1-p of the
// elements scaled by 1/(1-p), and p=1 gives zeros; the dtype queries and
// rand_like follow tinygrad.
func TestDropoutAndDtypeQueries(t *testing.T) {
	it := newInterp(t, nil)
	ctx := context.Background()
	for src, want := range map[string]string{
		"ones(4).dropout(0.5).tolist()":                                                              "[1.0, 1.0, 1.0, 1.0]",
		"train(true); d = ones(100000).dropout(0.25); d.max().item()":                                "1.3333334",
		"train(true); d = ones(100000).dropout(0.25); abs(d.mean().item() - 1) < 0.01":               "true",
		"train(true); abs((ones(1000).dropout(0.25) == 0).float().mean().item() - 0.25) < 0.04":      "true",
		"train(true); ones(3).dropout(1.0).tolist()":                                                 "[0.0, 0.0, 0.0]",
		"train(true); ones(3).dropout(0).tolist()":                                                   "[1.0, 1.0, 1.0]",
		"(ones(2, 3).is_floating_point(), arange(3).is_floating_point())":                            "(true, false)",
		"(ones(2, 3).element_size(), ones(2, 3).half().element_size(), ones(2, 3).nbytes())":         "(4, 2, 24)",
		"(rand_like(ones(2, 3)).shape, rand_like(ones(2), dtype=float16).dtype)":                     "((2, 3), float16)",
		"s = tensor([1.0, 2.0, 0.0, 7.0]).multinomial(100000, replacement=true); (s.shape, s.dtype)": "((100000,), int32)",
		"s = tensor([1.0, 2.0, 0.0, 7.0]).multinomial(100000, replacement=true); [abs((s == i).float().mean().item() - p) < 0.01 for i, p in enumerate((0.1, 0.2, 0.0, 0.7))]": "[true, true, true, true]",
		"tensor([[0.0, 3.0], [2.0, 0.0]]).multinomial(4, true).tolist()":  "[[1, 1, 1, 1], [0, 0, 0, 0]]",
		"(ones(3).multinomial().shape, ones(2, 3).multinomial().shape)":   "((1,), (2, 1))",
		"rand_like(ones(3), seed=4).tolist() == rand(3, seed=4).tolist()": "true",
	} {
		i := strings.LastIndex(src, "; ")
		if i >= 0 {
			if err := it.Exec(ctx, "<t>", src[:i], false); err != nil {
				t.Fatalf("%s: %v", src, it.FormatError(err))
			}
			src = src[i+2:]
		}
		got, err := it.Eval(ctx, src)
		if err != nil {
			t.Errorf("%s: %s", src, it.FormatError(err))
		} else if got.String() != want {
			t.Errorf("%s = %s, want %s", src, got, want)
		}
		_ = it.Exec(ctx, "<t>", "train(false)", false)
	}
	for src, want := range map[string]string{
		"train(true); ones(2).dropout(1.5)": "dropout: p must be in [0, 1], got 1.5",
		"ones(3).multinomial(2)":            "multinomial: without replacement only num_samples=1 is supported",
		"ones(1, 2, 3).multinomial()":       "multinomial: weights of rank 3, want 1 or 2",
		"ones(3).multinomial(0, true)":      "multinomial: num_samples must be positive, got 0",
		"rand_like(arange(3))":              "rand_like: dtype int32 must be a float dtype",
	} {
		err := it.Exec(ctx, "<t>", src, false)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", src, err, want)
		}
		_ = it.Exec(ctx, "<t>", "train(false)", false)
	}
}
