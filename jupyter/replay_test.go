package jupyter

import (
	"fmt"
	"testing"
)

func TestDigestHistory(t *testing.T) {
	h := newDigestHistory(3)
	for i := range 3 {
		if !h.add(fmt.Sprint(i)) {
			t.Fatalf("%d refused the first time", i)
		}
	}
	if h.add("1") || h.add("2") {
		t.Error("a repeated signature was accepted")
	}
	if !h.add("3") || !h.add("0") { // 3 pushes 0 out of the history
		t.Error("the history is not bounded: the oldest was not forgotten")
	}
	if h.add("3") || !h.add("") || !h.add("") {
		t.Error("empty signatures (signing off) must always pass, others once")
	}
	if len(h.seen) != 3 || len(h.ring) != 3 {
		t.Errorf("history holds %d/%d, want 3", len(h.seen), len(h.ring))
	}
}
