package tensor

import (
	"runtime"
	"testing"
	"time"

	"tiny/devices"
)

// TestReclaim realizes 8 MiB outputs in a loop that keeps the previous
// result alive, as `s = f(x).realize()` does: the outputs of earlier rounds
// are garbage, and the background collections realize starts must bring
// their buffers back to the pool, so that the loop allocates at most
// aheadLimit bytes beyond a few buffers instead of one per round.
func TestReclaim(t *testing.T) {
	// The bound is on the run-ahead logic: give the cleanups all the time
	// a loaded machine needs, so that a late cleanup goroutine is not
	// counted against it.
	defer func(w time.Duration) { cleanupWait = w }(cleanupWait)
	cleanupWait = 5 * time.Second
	e, err := NewEngine(Options{Device: "CPU"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 2 << 20 // float32: 8 MiB
	x := e.Full([]int{n}, 1, Float32).Add(0).Realize()
	s := x.Add(1).Realize()
	before := devices.FreshBytes()
	const rounds = 40
	for i := range rounds {
		s = x.Add(float64(i%2 + 2)).Realize()
	}
	if got, most := (devices.FreshBytes()-before)/(4*n), int64(aheadLimit/(4*n)+3); got > most {
		t.Errorf("%d rounds allocated %d fresh outputs, want at most %d (buffers of dead results reused)", rounds, got, most)
	}
	if v := s.Floats()[n-1]; v != 4 {
		t.Errorf("last element %v, want 4", v)
	}
}

// TestCollectSoon checks that collectSoon collects: an object dropped
// before it is found dead, five times over.
func TestCollectSoon(t *testing.T) {
	for range 5 {
		dead := make(chan struct{})
		runtime.AddCleanup(new([64]byte), func(c chan struct{}) { close(c) }, dead)
		<-collectSoon()
		select {
		case <-dead:
		case <-time.After(5 * time.Second):
			t.Fatal("an object dropped before collectSoon was not collected")
		}
	}
}

// TestStartGC checks that startGC starts a cycle by itself (without it
// every collection falls back on runtime.GC, 2-4 ms of CPU on two cores):
// nothing else allocates here, so an object dropped before is collected
// only if startGC started a cycle. A cycle already running when startGC
// asks does not count (its allocations are marked live), so it asks again
// every 50 ms; the clock bounds only how long a broken startGC is waited
// for, not how fast a working one must be.
func TestStartGC(t *testing.T) {
	dead := make(chan struct{})
	runtime.AddCleanup(new([64]byte), func(c chan struct{}) { close(c) }, dead)
	giveUp := time.After(20 * time.Second)
	for {
		startGC(64 << 10)
		select {
		case <-dead:
			return
		case <-giveUp:
			t.Fatal("startGC started no collection in 20 s")
		case <-time.After(50 * time.Millisecond):
		}
	}
}
