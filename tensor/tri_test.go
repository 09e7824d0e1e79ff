package tensor

import (
	"testing"

	"tiny/codegen"
)

// TestTriMasks checks the two forms of tri: the blocked scans' small masks
// stay constants seen through views (no kernel of a cumsum or cummax
// reads a bool buffer, so unrolled loops fold them), and a large tril
// compares position tables (no kernel indexes through a modulo).
func TestTriMasks(t *testing.T) {
	e := testEngine()
	x := e.FromFloats(make([]float64, 64*1024), []int{64, 1024}, Float32)
	for name, y := range map[string]*Tensor{"cumsum": x.Cumsum(1), "cummax": x.Cummax(1)} {
		for _, k := range y.Schedule() {
			for i, b := range k.Bufs {
				if i > 0 && b.DType == Bool {
					t.Errorf("%s: kernel %s reads a bool buffer: its scan mask was realized", name, k.Name)
				}
			}
		}
	}
	big := e.FromFloats(make([]float64, 512*300), []int{512, 300}, Float32)
	for _, k := range big.Tril(0).Schedule() {
		p, err := codegen.Lower(k, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range p.UOps {
			if u.Op == codegen.OpMod {
				t.Errorf("tril: kernel %s computes a modulo:\n%s", k.Name, p)
				break
			}
		}
	}
}
