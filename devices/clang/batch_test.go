package clang

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// TestCompileBatch builds four kernels, two of them of the same name and
// one twice, in one compiler run; each runs as the reference device does, each is
// in the cache under its own name (links of one object), and a process
// starting over finds every one there without compiling.
func TestCompileBatch(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	if _, err := Available(); err != nil {
		t.Skip(err)
	}
	dev, err := Open(devices.Options{CacheDir: dir, Threads: 2, Debug: 2, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	s := shape.FromInts(100)
	m := shape.FromInts(8, 50)
	kernels := []*codegen.Kernel{
		kt.Kernel(s, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, s)), kt.Spec(f32, 100)),  // E_100
		kt.Kernel(s, kt.Op(codegen.OpSqrt, f32, kt.Load(1, f32, s)), kt.Spec(f32, 100)), // E_100 too
		kt.Kernel(shape.FromInts(8, 1), kt.Reduce(codegen.OpAdd, f32, []int{1}, kt.Load(1, f32, m)), kt.Spec(f32, 400)),
		kt.Kernel(shape.FromInts(1), kt.Reduce(codegen.OpMax, f32, []int{0}, kt.Load(1, f32, shape.FromInts(1<<16))), kt.Spec(f32, 1<<16)),
	}
	var ps []*codegen.Program
	for _, k := range kernels {
		p, err := codegen.Lower(k, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	ps = append(ps, ps[0])
	rs, err := dev.(devices.BatchCompiler).CompileBatch(ps)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(log.String(), "clang: compiled"); got != 1 || !strings.Contains(log.String(), "compiled 4 kernels in one run") {
		t.Errorf("want one compiler run for 4 kernels, log:\n%s", log.String())
	}
	rng := rand.New(rand.NewSource(1))
	for i, p := range ps {
		k := kernels[i%len(kernels)]
		bufs := kt.Alloc(k, rng)
		want, err := kt.Reference(p, bufs)
		if err != nil {
			t.Fatal(err)
		}
		if err := rs[i].Run(bufs, nil); err != nil {
			t.Fatal(err)
		}
		for j := range want.Len {
			if g, w := kt.Get(bufs[0], j), kt.Get(want, j); !kt.Close(g, w, want.DType) {
				t.Fatalf("kernel %d (%s): element %d = %v, want %v", i, p.Name, j, g, w)
			}
		}
	}
	objs, _ := filepath.Glob(filepath.Join(dir, "*.so"))
	if len(objs) != 4 {
		t.Fatalf("want 4 objects in the cache, got %v", objs)
	}
	first, _ := os.Stat(objs[0])
	for _, o := range objs[1:] {
		st, _ := os.Stat(o)
		if !os.SameFile(first, st) {
			t.Errorf("%s is not a link of the batch object", o)
		}
	}
	// A process starting over: every kernel is a cache hit on its own.
	forget()
	log.Reset()
	for _, p := range ps {
		if _, err := dev.Compile(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := dev.(devices.BatchCompiler).CompileBatch(ps); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "compiled") {
		t.Errorf("cache hits compiled again:\n%s", log.String())
	}
}

// TestCompileBatchParallel builds 20 distinct kernels with 2 threads: two
// compiler runs at once, each kernel in its group's object, every result
// right.
func TestCompileBatchParallel(t *testing.T) {
	if _, err := Available(); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	var log bytes.Buffer
	dev, err := Open(devices.Options{CacheDir: dir, Threads: 2, Debug: 2, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	var kernels []*codegen.Kernel
	var ps []*codegen.Program
	for n := 1; n <= 20; n++ {
		s := shape.FromInts(n * 7)
		k := kt.Kernel(s, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, s)), kt.Spec(f32, n*7))
		p, err := codegen.Lower(k, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		kernels, ps = append(kernels, k), append(ps, p)
	}
	rs, err := dev.(devices.BatchCompiler).CompileBatch(ps)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "compiled 20 kernels in 2 runs at once") {
		t.Errorf("want two compiler runs at once for 20 kernels, log:\n%s", log.String())
	}
	rng := rand.New(rand.NewSource(2))
	for i, k := range kernels {
		bufs := kt.Alloc(k, rng)
		if err := rs[i].Run(bufs, nil); err != nil {
			t.Fatal(err)
		}
		for j := range bufs[0].Len {
			if g, w := kt.Get(bufs[0], j), -kt.Get(bufs[1], j); g != w {
				t.Fatalf("kernel %d: element %d = %v, want %v", i, j, g, w)
			}
		}
	}
	objs, _ := filepath.Glob(filepath.Join(dir, "*.so"))
	if len(objs) != 20 {
		t.Errorf("want 20 objects in the cache, got %d", len(objs))
	}
}

// TestSplitBatch: small batches stay whole; larger ones are split into at
// most threads groups balanced by source length, each in order.
func TestSplitBatch(t *testing.T) {
	objs := make([]string, 7)
	if g := splitBatch(objs, 4); len(g) != 1 || len(g[0]) != 7 {
		t.Errorf("7 kernels: %v, want one group", g)
	}
	objs = nil
	for i := range 32 {
		objs = append(objs, strings.Repeat("x", 100+i%3*1000))
	}
	g := splitBatch(objs, 2)
	if len(g) != 2 {
		t.Fatalf("32 kernels, 2 threads: %d groups", len(g))
	}
	seen := map[int]bool{}
	var size [2]int
	for j, grp := range g {
		for k, i := range grp {
			if k > 0 && grp[k-1] >= i {
				t.Errorf("group %d out of order: %v", j, grp)
			}
			seen[i] = true
			size[j] += len(objs[i])
		}
	}
	if len(seen) != 32 {
		t.Errorf("groups %v do not cover 32 kernels once", g)
	}
	if d := size[0] - size[1]; d > 2100 || d < -2100 {
		t.Errorf("unbalanced groups: %d and %d bytes", size[0], size[1])
	}
	if g := splitBatch(objs, 8); len(g) != 4 {
		t.Errorf("32 kernels, 8 threads: %d groups, want 4 (at least %d each)", len(g), minPerRun)
	}
}
