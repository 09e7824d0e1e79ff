package tensor

import (
	"math/rand"
	"slices"
	"testing"

	"tiny/shape"
)

// TestConstView checks view's short way for constants against the general
// one: a scalar reshaped and expanded through random shapes gets, at every
// step, the tracker the symbolic movements give, and a movement view
// refuses (an expand of a dim that is not 1, a reshape to another size)
// still fails as view does, and a padded constant keeps its mask.
func TestConstView(t *testing.T) {
	e, err := NewEngine(Options{Device: "CPU"})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(3))
	for range 500 {
		n := e.Scalar(2, Float32).n
		st := shape.FromInts()
		for range 4 {
			rank := 1 + rng.Intn(4)
			var m move
			if rng.Intn(2) == 0 && len(n.shape) > 0 {
				// expand the dims of 1
				shp := append([]int(nil), n.shape...)
				for i, d := range shp {
					if d == 1 {
						shp[i] = 1 + rng.Intn(5)
					}
				}
				m = move{op: mvExpand, shape: shp}
			} else {
				// reshape to a shape of the same size: its factors and ones
				size := prod(n.shape)
				shp := make([]int, rank)
				for i := range shp {
					shp[i] = 1
				}
				shp[rng.Intn(rank)] = size
				m = move{op: mvReshape, shape: shp}
			}
			if m.op == mvReshape && len(m.shape) == len(n.shape) && slices.Equal(m.shape, n.shape) || m.op == mvExpand && slices.Equal(m.shape, n.shape) {
				continue
			}
			want, err := m.apply(st)
			if err != nil {
				t.Fatalf("%v of %v: %v", m, n.shape, err)
			}
			v := n.constView(m)
			if v == nil {
				t.Fatalf("no short way for %v of %v", m, n.shape)
			}
			if got := v.st.String(); got != want.String() {
				t.Fatalf("%v of %v: tracker %s, want %s", m, n.shape, got, want)
			}
			n, st = v, want
		}
	}
	x := e.Scalar(2, Float32).n.reshape([]int{1, 1}).expand([]int{4, 3})
	if v := x.constView(move{op: mvExpand, shape: []int{4, 5}}); v != nil {
		t.Errorf("expand of a dim of 3 to 5 took the short way")
	}
	if v := x.constView(move{op: mvReshape, shape: []int{5}}); v != nil {
		t.Errorf("reshape of 12 elements to 5 took the short way")
	}
	// Padded, the constant is not at every element (eye is built so): the
	// mask must stay.
	p := x.view(move{op: mvPad, bounds: [][2]int{{0, 1}, {1, 0}}})
	if v := p.constView(move{op: mvReshape, shape: []int{20}}); v != nil {
		t.Errorf("reshape of a padded constant took the short way: %s", v.st)
	}
	if got := e.Eye(3, 3).Floats(); got[1] != 0 || got[4] != 1 {
		t.Errorf("eye(3) = %v", got)
	}
}
