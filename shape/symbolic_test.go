package shape

import (
	"testing"

	"tiny/symbolic"
)

// TestSymbolicMatchesInts builds the same op sequences over a shape with a
// variable k and over the same shape with k's value, and checks that the
// symbolic index expressions, evaluated at that value, give the same map.
func TestSymbolicMatchesInts(t *testing.T) {
	cs := symbolic.C
	seqs := []func(k *symbolic.Node) (Tracker, error){
		func(k *symbolic.Node) (Tracker, error) { return FromShape(k, cs(3)).Permute([]int{1, 0}) },
		func(k *symbolic.Node) (Tracker, error) {
			st, _ := FromShape(k, cs(3)).Permute([]int{1, 0})
			return st.Reshape([]*symbolic.Node{symbolic.Mul(k, cs(3))})
		},
		func(k *symbolic.Node) (Tracker, error) {
			st, _ := FromShape(k, cs(4)).Permute([]int{1, 0})
			return st.Reshape([]*symbolic.Node{cs(2), cs(2), k})
		},
		func(k *symbolic.Node) (Tracker, error) {
			return FromShape(k, cs(3)).Pad([][2]*symbolic.Node{{cs(1), cs(2)}, {cs(0), cs(1)}})
		},
		func(k *symbolic.Node) (Tracker, error) {
			st, _ := FromShape(k, cs(3)).Pad([][2]*symbolic.Node{{cs(1), cs(2)}, {cs(0), cs(1)}})
			st, _ = st.Permute([]int{1, 0})
			return st.Reshape([]*symbolic.Node{symbolic.Mul(symbolic.Add(k, cs(3)), cs(4))})
		},
		func(k *symbolic.Node) (Tracker, error) {
			st, _ := FromShape(cs(1), k).Expand([]*symbolic.Node{cs(3), k})
			return st.Reshape([]*symbolic.Node{cs(3), k, cs(1)})
		},
		func(k *symbolic.Node) (Tracker, error) { return FromShape(k, cs(4)).Stride([]int{-1, 2}) },
		func(k *symbolic.Node) (Tracker, error) {
			st, _ := FromShape(k, cs(4)).Shrink([][2]*symbolic.Node{{cs(0), k}, {cs(1), cs(3)}})
			return st.Reshape([]*symbolic.Node{cs(2), k})
		},
	}
	k := symbolic.Var("k", 1, 8)
	for i, seq := range seqs {
		sym, err := seq(k)
		if err != nil {
			t.Fatalf("sequence %d: %v", i, err)
		}
		for kv := int64(1); kv <= 5; kv++ {
			st, err := seq(symbolic.C(kv))
			if err != nil {
				t.Fatalf("sequence %d, k=%d: %v", i, kv, err)
			}
			want := indexMap(st, func(env map[string]int64) (int64, bool) {
				idx, valid := st.IndexExpr(st.Ridxs(nil))
				return idx.Eval(env), valid.Eval(env) != 0
			})
			idx, valid := sym.IndexExpr(sym.Ridxs(nil))
			got := indexMap(st, func(env map[string]int64) (int64, bool) {
				env["k"] = kv
				return idx.Eval(env), valid.Eval(env) != 0
			})
			if !equalInts(got, want) {
				t.Errorf("sequence %d, k=%d: %s\n got %v\nwant %v (%s)", i, kv, sym, got, want, st)
			}
		}
		t.Logf("sequence %d: %s", i, sym)
	}
}
