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

// TestReclaimScatter is TestReclaim for a scatter, whose result is the
// buffer of a copy of self it writes into: that copy must be allocated as
// the kept result it becomes. Allocated as an intermediate, it never
// started a collection or waited for one, and a loop paid for a fresh
// 16 MiB buffer on most rounds (33 ms a call instead of 3).
func TestReclaimScatter(t *testing.T) {
	defer func(w time.Duration) { cleanupWait = w }(cleanupWait)
	cleanupWait = 5 * time.Second
	e, err := NewEngine(Options{Device: "CPU"})
	if err != nil {
		t.Fatal(err)
	}
	const rows, cols = 2048, 1024 // float32: 8 MiB
	x := e.Full([]int{rows, cols}, 1, Float32).Add(0).Realize()
	idx := e.Full([]int{rows, 2}, 3, Int32).Realize()
	src := e.Full([]int{rows, 2}, 5, Float32).Realize()
	s := x.Scatter(1, idx, src, "").Realize()
	before := devices.FreshBytes()
	const rounds = 40
	for range rounds {
		s = x.Scatter(1, idx, src, "").Realize()
	}
	if got, most := (devices.FreshBytes()-before)/(4*rows*cols), int64(aheadLimit/(4*rows*cols)+3); got > most {
		t.Errorf("%d rounds allocated %d fresh outputs, want at most %d (buffers of dead results reused)", rounds, got, most)
	}
	if v := s.Floats()[3]; v != 5 {
		t.Errorf("scattered element %v, want 5", v)
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

// TestCollectEvery checks that realize does not start a collection for
// each large result that leaves the pool low (1-1.5 ms of CPU each, a third
// of a matmul512 call), but one per collectEvery bytes of them: the pool
// grows, by the rounds that find it empty, until it holds the rounds
// between two collections. The size is one no other test uses, so that
// the pool's count of it is the test's own.
func TestCollectEvery(t *testing.T) {
	const n = 1<<18 + 16 // float32: just over 1 MiB
	b1, b2 := devices.Alloc(Float32, n), devices.Alloc(Float32, n)
	b1.Free()
	b2.Free()
	if got := devices.Pooled(Float32, n); got < 2 {
		t.Fatalf("the pool holds %d buffers of the size, want 2", got)
	}
	for devices.Pooled(Float32, n) > 2 { // pieces of a stale buffer Alloc carved
		devices.Reuse(Float32, n)
	}
	sinceCollect.Store(0)
	before := collectCalls.Load()
	b, ok := outputBuffer(Float32, n, true)
	if !ok {
		t.Fatal("outputBuffer took no buffer from the pool")
	}
	if got := collectCalls.Load() - before; got != 0 {
		t.Errorf("the first 1 MiB result started %d collections, want none", got)
	}
	b.Free()
	sinceCollect.Store(collectEvery - 4*n)
	if b, ok = outputBuffer(Float32, n, true); !ok {
		t.Fatal("outputBuffer took no buffer from the pool")
	}
	if got := collectCalls.Load() - before; got != 1 {
		t.Errorf("the result that completes collectEvery bytes started %d collections, want 1", got)
	}
	b.Free()
}

// TestCollectBatch checks that results of collectEvery bytes or more start
// a collection once per batch of them, not one each: a collection beside a
// kernel slows it more than its own CPU costs. The size is one no other
// test uses (batch 2: two of it fit in batchBytes, three do not).
func TestCollectBatch(t *testing.T) {
	for _, c := range []struct{ size, want int }{{1 << 20, 1}, {collectEvery - 4, 1}, {16 << 20, 3}, {24 << 20, 2}, {32 << 20, 1}, {256 << 20, 1}} {
		if got := batch(c.size); got != c.want {
			t.Errorf("batch(%d) = %d, want %d", c.size, got, c.want)
		}
	}
	const n = 4<<20 + 16 // float32: just over 16 MiB
	size := n * Float32.Size()
	k := batch(size)
	if k != 2 {
		t.Fatalf("batch of %d bytes = %d, want 2", size, k)
	}
	var bs []*devices.Buffer
	for range lead(size) + 2*k - 2 { // the k taken leave lead+k-2: fewer than lead+k-1
		bs = append(bs, devices.Alloc(Float32, n))
	}
	for _, b := range bs {
		b.Free()
	}
	sinceCollect.Store(0)
	before := collectCalls.Load()
	var taken []*devices.Buffer
	for i := range k {
		b, ok := outputBuffer(Float32, n, true)
		if !ok {
			t.Fatal("outputBuffer took no buffer from the pool")
		}
		taken = append(taken, b)
		want := int64(0)
		if i == k-1 {
			want = 1
		}
		if got := collectCalls.Load() - before; got != want {
			t.Errorf("result %d of a batch of %d started %d collections, want %d", i+1, k, got, want)
		}
	}
	for _, b := range taken {
		b.Free()
	}
}

// TestCollectLead checks that a size of large result that has found the
// pool empty starts its collections earlier: with a lead of 2, a loop whose
// collections take longer than one round finds the pool empty once every
// collection and pays a fresh buffer's page faults each time (the embedding
// row: 10 ms against a 0.5 ms call). The size is one no other test uses.
func TestCollectLead(t *testing.T) {
	const n = 1<<18 + 48 // float32: just over 1 MiB
	size := n * Float32.Size()
	if got := lead(size); got != 2 {
		t.Fatalf("lead of a size never seen = %d, want 2", got)
	}
	// The pool holds none of the size: the result misses and raises the lead.
	b1, ok := outputBuffer(Float32, n, true)
	if ok {
		t.Fatal("outputBuffer found a buffer of a size no one freed")
	}
	if got := lead(size); got != 3 {
		t.Fatalf("lead after a miss = %d, want 3", got)
	}
	if b1 == nil {
		b1 = devices.Alloc(Float32, n)
	}
	b2, b3 := devices.Alloc(Float32, n), devices.Alloc(Float32, n)
	b1.Free()
	b2.Free()
	b3.Free()
	sinceCollect.Store(collectEvery)
	before := collectCalls.Load()
	b, ok := outputBuffer(Float32, n, true)
	if !ok {
		t.Fatal("outputBuffer took no buffer from the pool")
	}
	if got := collectCalls.Load() - before; got != 1 {
		t.Errorf("a result leaving 2 buffers with a lead of 3 started %d collections, want 1", got)
	}
	b.Free()
	for range 100 {
		raiseLead(size)
	}
	if got, most := lead(size), leadBytes/size; got > most {
		t.Errorf("lead grew to %d buffers, want at most leadBytes/size = %d", got, most)
	}
}

// TestGrow checks that a size whose results keep waiting for collections
// gets a fresh buffer once growAfter waits have passed, up to its lead and
// one more, within growBytes (or two buffers), and no further. The sizes
// are ones no other test uses.
func TestGrow(t *testing.T) {
	small := 3<<20 + 64 // lead 2 at first: 3 buffers
	if grow(small) {
		t.Fatal("grow allowed a buffer before any wait")
	}
	wait := func(size, n int) {
		for range n {
			waited(size)
		}
	}
	for i := range 3 {
		wait(small, growAfter-1)
		if grow(small) {
			t.Fatalf("grow allowed buffer %d after %d waits", i+1, growAfter-1)
		}
		wait(small, 1)
		if !grow(small) {
			t.Fatalf("grow refused buffer %d of a size with lead 2 after %d waits", i+1, growAfter)
		}
	}
	wait(small, growAfter)
	if grow(small) {
		t.Fatal("grow allowed a 4th buffer with lead 2")
	}
	raiseLead(small) // lead 3: one more
	if !grow(small) {
		t.Fatal("grow refused a 4th buffer after the lead rose to 3")
	}
	big := 48<<20 + 64 // two fit max(growBytes, 2*size), three do not
	for i, want := range []bool{true, true, false} {
		wait(big, growAfter)
		if grow(big) != want {
			t.Fatalf("grow of 48 MiB buffer %d = %v, want %v", i+1, !want, want)
		}
	}
}

// TestProvision checks that a large size's second result to find the pool
// empty brings the buffers of a loop's steady state at once (its lead and
// the results between two collections), and starts a collection; the
// first miss brings none. The size is one no other test uses.
func TestProvision(t *testing.T) {
	const n = 3<<18 + 48 // float32: just over 3 MiB
	size := n * Float32.Size()
	b1, ok := outputBuffer(Float32, n, true)
	if ok {
		t.Fatal("outputBuffer found a buffer of a size no one freed")
	}
	if got := devices.Pooled(Float32, n); got != 0 {
		t.Fatalf("the first miss pooled %d buffers, want none", got)
	}
	if b1 == nil {
		b1 = devices.Alloc(Float32, n)
	}
	defer b1.Free()
	drain := func() {
		for devices.Pooled(Float32, n) > 0 {
			devices.Reuse(Float32, n)
		}
	}
	drain() // the pieces of a stale buffer Alloc carved, if it did
	before := collectCalls.Load()
	b2, ok := outputBuffer(Float32, n, true)
	if !ok {
		t.Fatal("the second miss got no buffer")
	}
	defer b2.Free()
	want := min(lead(size)+(collectEvery+size-1)/size, growBytes/size)
	if got := devices.Pooled(Float32, n); got != want-1 {
		t.Errorf("the second miss pooled %d buffers, want %d (lead %d)", got, want-1, lead(size))
	}
	if collectCalls.Load() == before {
		t.Error("provisioning started no collection")
	}
	// A third miss (the pool emptied) provisions nothing more.
	drain()
	if b3, _ := outputBuffer(Float32, n, true); b3 != nil {
		b3.Free()
	}
	if got := devices.Pooled(Float32, n); got > 1 {
		t.Errorf("the third miss pooled %d buffers", got)
	}
}
