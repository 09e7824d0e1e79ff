package stdlib_test

import (
	"context"
	"testing"

	"tiny/interp"
)

// TestTrainStepCached trains a small conv net with BatchNorm and Adam for
// four steps: the loss falls, and from the second step on every step's
// realization comes from the schedule cache and compiles nothing.
func TestTrainStepCached(t *testing.T) {
	it, err := interp.New(interp.Options{Device: "CPU"})
	if err != nil {
		t.Fatal(err)
	}
	src := `
import "nn" as nn
manual_seed(1)
X = rand(32, 1, 8, 8)
Y = (X.mean(axis=(1, 2, 3)) > 0.5).int()
model = nn.sequential([nn.Conv2d(1, 4, 3), nn.relu, nn.BatchNorm(4), nn.max_pool2d, nn.flatten, nn.Linear(36, 2)])
opt = nn.optim.Adam(nn.get_parameters(model), lr=0.05)
losses = []
compiles = []
hits = []
for i in range(4) {
  was = train()
  opt.zero_grad()
  s = randint(16, high=32)
  loss = model(X[s]).sparse_categorical_crossentropy(Y[s])
  loss.backward()
  opt.step()
  train(was)
  st = engine_stats()
  losses.append(loss.item())
  compiles.append(st.compiles)
  hits.append(st.schedule_hits)
}
`
	if err := it.Exec(context.Background(), "train.tiny", src, false); err != nil {
		t.Fatal(it.FormatError(err))
	}
	get := func(name string) []float64 {
		v, _ := it.Global(name)
		return floats(t, v)
	}
	losses, compiles, hits := get("losses"), get("compiles"), get("hits")
	if losses[3] >= losses[0] {
		t.Errorf("losses %v do not fall", losses)
	}
	for i := 1; i < 4; i++ {
		if compiles[i] != compiles[0] {
			t.Errorf("step %d compiled %v kernels", i, compiles[i]-compiles[i-1])
		}
		if hits[i] <= hits[i-1] {
			t.Errorf("step %d: no schedule cache hit (hits %v)", i, hits)
		}
	}
}
