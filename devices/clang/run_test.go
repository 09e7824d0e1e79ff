package clang

import (
	"fmt"
	"testing"
	"time"
	"unsafe"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// TestChunkLoop checks the chunk loop each worker runs (chunkLoop): it
// takes chunks from the shared counter until none is left, runs each over
// its share of the global loop, counts them, and runs none once the stop
// flag is set.
func TestChunkLoop(t *testing.T) {
	d := open(t, "", 1)
	const n = 1000
	s := shape.FromInts(n)
	p, err := codegen.Lower(kt.Kernel(s, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, s)), kt.Spec(f32, n)), codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rn, err := d.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	r := rn.(*runner)
	const chunks = 4
	if p.Global < chunks {
		t.Fatalf("global loop of %d iterations, want at least %d", p.Global, chunks)
	}
	in, out := devices.Alloc(codegen.Float32, n), devices.Alloc(codegen.Float32, n)
	for i := range in.Float32s() {
		in.Float32s()[i] = float32(i + 1)
	}
	ptrs := []uintptr{uintptr(out.Ptr()), uintptr(in.Ptr()), 0}
	vals := []int64{0}
	run := func(next int64, stop int32) int64 {
		sh := &shared{next: next, stop: stop}
		clear(out.Float32s())
		return runChunks(r.chunks, unsafe.Pointer(&ptrs[0]), int64(p.Global), chunks, unsafe.Pointer(&sh.next), nil, 0, unsafe.Pointer(&vals[0]), unsafe.Pointer(&sh.stop))
	}
	o := out.Float32s()
	if got := run(0, 1); got != 0 || o[0] != 0 || o[n-1] != 0 {
		t.Errorf("stopped: ran %d chunks, out[0] %v, out[n-1] %v; want none", got, o[0], o[n-1])
	}
	if got := run(chunks-1, 0); got != 1 || o[0] != 0 || o[n-1] != -n {
		t.Errorf("from the last chunk: ran %d chunks, out[0] %v, out[n-1] %v; want 1, 0, %d", got, o[0], o[n-1], -n)
	}
	if got := run(0, 0); got != chunks {
		t.Errorf("ran %d chunks, want %d", got, chunks)
	}
	for i, v := range o {
		if v != -float32(i+1) {
			t.Fatalf("out[%d] = %v, want %d", i, v, -(i + 1))
		}
	}
}

// TestPool checks that a kernel on several workers runs on the pool's
// threads beside the caller (pool.go), and that kernels run at once from
// several goroutines (one has the pool, the others run alone), on three
// workers and on two (a pool thread sits one out), all give the whole
// result.
func TestPool(t *testing.T) {
	d, d2 := open(t, "", 3), open(t, "", 2)
	p, in := negPool(t)
	if p.Work < minParallel || p.Global < 3 {
		t.Fatalf("work %d, global loop %d: too small for three workers", p.Work, p.Global)
	}
	r, err := d.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := d2.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	const goroutines, rounds = 4, 20
	errs := make(chan error, goroutines)
	for range goroutines {
		go func() {
			out := devices.Alloc(codegen.Float32, in.Len)
			for i := range rounds {
				clear(out.Float32s())
				run := r.Run
				if i%2 == 1 {
					run = r2.Run
				}
				if err := run([]*devices.Buffer{out, in}, nil); err != nil {
					errs <- err
					return
				}
				if err := checkNeg(out); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range goroutines {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := pool.threads(); got < 2 {
		t.Errorf("the pool has %d threads after kernels on three workers, want 2", got)
	}
}

// negPool returns a program that negates 2**17 floats, enough work for
// three workers, and its input, 1 to 2**17; it skips the test when the
// pool cannot be built.
func negPool(t *testing.T) (*codegen.Program, *devices.Buffer) {
	t.Helper()
	if workerPool() == 0 {
		t.Skip("the pool could not be built")
	}
	const n = 1 << 17
	s := shape.FromInts(n)
	p, err := codegen.Lower(kt.Kernel(s, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, s)), kt.Spec(f32, n)), codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := devices.Alloc(codegen.Float32, n)
	for i := range in.Float32s() {
		in.Float32s()[i] = float32(i + 1)
	}
	return p, in
}

// checkNeg reports the first element of out that is not the negation of
// negPool's input.
func checkNeg(out *devices.Buffer) error {
	for i, v := range out.Float32s() {
		if v != -float32(i+1) {
			return fmt.Errorf("out[%d] = %v, want %d", i, v, -(i + 1))
		}
	}
	return nil
}

// TestPoolWakes runs a kernel on three workers 300 times with gaps before
// each call around the pool threads' spin after a job (POOL_SPIN_NS, 200
// us): none, 50, 150, 250 us and 2 ms, so that a call finds the threads
// still watching, just gone to sleep, or long asleep, and checks every
// result. A lost wake-up (a thread asleep that the caller thought awake)
// leaves the caller waiting for it: the test fails after 60 s.
func TestPoolWakes(t *testing.T) {
	d := open(t, "", 3)
	p, in := negPool(t)
	r, err := d.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	out := devices.Alloc(codegen.Float32, in.Len)
	done := make(chan error, 1)
	go func() {
		gaps := []time.Duration{0, 50 * time.Microsecond, 150 * time.Microsecond, 250 * time.Microsecond, 2 * time.Millisecond}
		for k := range 300 {
			for start := time.Now(); time.Since(start) < gaps[k%len(gaps)]; {
			}
			clear(out.Float32s())
			if err := r.Run([]*devices.Buffer{out, in}, nil); err != nil {
				done <- err
				return
			}
			if err := checkNeg(out); err != nil {
				done <- fmt.Errorf("call %d: %v", k, err)
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("300 calls did not finish in 60 s: a pool thread was not woken")
	}
}

// TestParallelWork checks which programs share their work among workers:
// an elementwise kernel from minParallel iterations, a register-tiled
// matmul only from minParallelTile (32 and 64 cubed run on one thread,
// 128 cubed on two).
func TestParallelWork(t *testing.T) {
	for _, c := range []struct {
		k    *codegen.Kernel
		want bool
	}{
		{kt.Matmul(32), false},
		{kt.Matmul(64), false},
		{kt.Matmul(128), true},
		{kt.Kernel(shape.FromInts(minParallel), kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, shape.FromInts(minParallel))), kt.Spec(f32, minParallel)), true},
		{kt.Kernel(shape.FromInts(minParallel/2), kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, shape.FromInts(minParallel/2))), kt.Spec(f32, minParallel/2)), false},
	} {
		p, err := codegen.Lower(c.k, codegen.Options{Target: &codegen.AVX512Target})
		if err != nil {
			t.Fatal(err)
		}
		if got := parallelWork(p); got != c.want {
			t.Errorf("%s (work %d, opts %s): parallel %v, want %v", p.Name, p.Work, p.Opts, got, c.want)
		}
	}
}
