package devices

import (
	"context"
	"sync"
	"testing"
)

// TestParallelCoversOnce checks that every iteration runs exactly once, in
// chunks each worker takes in increasing order, after its start.
func TestParallelCoversOnce(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{1, 1}, {7, 3}, {100, 2}, {5, 8}, {1000, 4}} {
		var mu sync.Mutex
		seen := make([]int, tc.n)
		started := map[int]bool{}
		last := map[int]int{}
		err := Parallel(context.Background(), tc.n, tc.workers, func(w int) {
			mu.Lock()
			started[w] = true
			last[w] = -1
			mu.Unlock()
		}, func(w, c, lo, hi int) {
			mu.Lock()
			defer mu.Unlock()
			if !started[w] || c <= last[w] {
				t.Errorf("n=%d: worker %d took chunk %d before start or out of order", tc.n, w, c)
			}
			last[w] = c
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range seen {
			if k != 1 {
				t.Fatalf("n=%d workers=%d: iteration %d ran %d times", tc.n, tc.workers, i, k)
			}
		}
	}
}

// TestParallelCancel checks that a cancelled loop stops taking chunks and
// reports the context's error.
func TestParallelCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ran := 0
	err := Parallel(ctx, 1000, 1, func(int) {}, func(w, c, lo, hi int) {
		ran++
		if c == 2 {
			cancel()
		}
	})
	if err != context.Canceled || ran != 3 {
		t.Errorf("got %v after %d chunks, want context.Canceled after 3", err, ran)
	}
	if err := Parallel(ctx, 10, 2, func(int) {}, func(w, c, lo, hi int) { t.Error("ran after cancel") }); err != context.Canceled {
		t.Errorf("already cancelled: got %v", err)
	}
}
