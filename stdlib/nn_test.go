package stdlib_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	_ "tiny/devices/cpu"
	"tiny/interp"
)

// run executes src after importing nn and returns the global r as floats.
func run(t *testing.T, src string) []float64 {
	t.Helper()
	it, err := interp.New(interp.Options{Device: "CPU"})
	if err != nil {
		t.Fatal(err)
	}
	if err := it.Exec(context.Background(), "test.tiny", "import \"nn\" as nn\n"+src, false); err != nil {
		t.Fatalf("%s\n%s", it.FormatError(err), src)
	}
	v, ok := it.Global("r")
	if !ok {
		t.Fatal("no r")
	}
	return floats(t, v)
}

// floats flattens a Go value from Interp.Global into float64s.
func floats(t *testing.T, v any) []float64 {
	switch v := v.(type) {
	case float64:
		return []float64{v}
	case int64:
		return []float64{float64(v)}
	case bool:
		if v {
			return []float64{1}
		}
		return []float64{0}
	case []any:
		var out []float64
		for _, x := range v {
			out = append(out, floats(t, x)...)
		}
		return out
	}
	t.Fatalf("unexpected value %T %v", v, v)
	return nil
}

func near(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol*(1+math.Abs(want[i])) {
			t.Errorf("%s: got %v, want %v", what, got, want)
			return
		}
	}
}

func TestNN(t *testing.T) {
	x := []float64{1, 2, 3}
	sum := math.Exp(1) + math.Exp(2) + math.Exp(3)
	var sm, lsm []float64
	for _, v := range x {
		sm = append(sm, math.Exp(v)/sum)
		lsm = append(lsm, v-math.Log(sum))
	}
	near(t, "softmax", run(t, "r = nn.softmax(tensor([1.0, 2, 3])).tolist()"), sm, 1e-6)
	near(t, "softmax large", run(t, "r = nn.softmax(tensor([1001.0, 1002, 1003])).tolist()"), sm, 1e-6)
	near(t, "log_softmax", run(t, "r = nn.log_softmax(tensor([1.0, 2, 3])).tolist()"), lsm, 1e-5)
	near(t, "softmax axis 0", run(t, "r = nn.softmax(tensor([[1.0], [2], [3]]), axis=0).tolist()"), sm, 1e-6)
	near(t, "relu", run(t, "r = nn.relu(tensor([-1.5, 0, 2])).tolist()"), []float64{0, 0, 2}, 0)
	gelu := func(v float64) float64 {
		return 0.5 * v * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(v+0.044715*v*v*v)))
	}
	near(t, "gelu", run(t, "r = nn.gelu(tensor([-2.0, -0.5, 0, 1, 3])).tolist()"),
		[]float64{gelu(-2), gelu(-0.5), 0, gelu(1), gelu(3)}, 1e-5)
	near(t, "linear", run(t, "r = nn.linear(tensor([[1.0, 2]]), tensor([[1.0, 0, 1], [0, 1, 1]]), tensor([0.5, 0, -1])).tolist()"),
		[]float64{1.5, 2, 2}, 1e-6)
	// cross entropy of two rows: -(log_softmax[0][2] + log_softmax[1][0]) / 2
	near(t, "cross_entropy", run(t, "r = nn.cross_entropy(tensor([[1.0, 2, 3], [1, 2, 3]]), tensor([2, 0])).item()"),
		[]float64{-(lsm[2] + lsm[0]) / 2}, 1e-5)
	mean, varc := 2.0, 2.0/3
	var ln []float64
	for _, v := range x {
		ln = append(ln, (v-mean)/math.Sqrt(varc+1e-5))
	}
	near(t, "layernorm", run(t, "r = nn.layernorm(tensor([1.0, 2, 3])).tolist()"), ln, 1e-5)
}

func TestMLP(t *testing.T) {
	for _, sizes := range []string{"[3, 5, 2]", "(3, 5, 2)"} {
		got := run(t, fmt.Sprintf(`layers = nn.mlp_init(%s, seed=7)
r = [len(layers), layers[0][0].shape[0], layers[0][0].shape[1], layers[1][1].shape[0],
     nn.mlp_forward(layers, ones(4, 3)).shape[0], nn.mlp_forward(layers, ones(4, 3)).shape[1]]
r = r.tolist()`, sizes))
		near(t, "mlp shapes "+sizes, got, []float64{2, 3, 5, 2, 4, 2}, 0)
	}
	// one linear layer with act: forward is linear(x) exactly
	got := run(t, `layers = nn.mlp_init([2, 1], seed=3)
w = layers[0][0]
r = (nn.mlp_forward(layers, tensor([[1.0, 2]])) - (w[0] + 2 * w[1])).abs().max().item()`)
	near(t, "mlp one layer", got, []float64{0}, 1e-6)
}
