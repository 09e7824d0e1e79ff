package clang

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// forget makes this process forget the objects it loaded, as a new process
// would.
func forget() {
	loaded.Lock()
	loaded.libs = map[string]lib{}
	loaded.Unlock()
}

func testSource(t *testing.T) string {
	return fmt.Sprintf("long tiny_probe(long a, long b) { return a + b; } /* %s */\n", t.Name())
}

func testToolchain(t *testing.T) *toolchain {
	if _, err := Available(); err != nil {
		t.Skip(err)
	}
	tc, err := findCompiler()
	if err != nil {
		t.Skip(err)
	}
	return tc
}

// TestCacheHitMiss compiles once, then finds the object from a "new
// process" without the compiler, and checks the modes.
func TestCacheHitMiss(t *testing.T) {
	tc := testToolchain(t)
	dir := filepath.Join(t.TempDir(), "cache")
	if _, err := cacheDir(dir); err != nil {
		t.Fatal(err)
	}
	src := testSource(t)
	if _, compiled, err := build(tc, dir, src); err != nil || !compiled {
		t.Fatalf("first build: compiled %v, err %v", compiled, err)
	}
	forget()
	broken := *tc
	broken.path, broken.id = "/nonexistent/cc", "another compiler"
	if _, _, err := build(&broken, dir, src); err == nil {
		// The key includes the compiler, so another compiler misses (and
		// this one cannot run).
		t.Fatal("another compiler must miss the cache")
	}
	tc2 := *tc
	tc2.path = "/nonexistent/cc" // same key as tc, but it cannot run
	tc2.id = tc.id
	l, compiled, err := build(&tc2, dir, src)
	if err != nil || compiled {
		t.Fatalf("hit: compiled %v, err %v", compiled, err)
	}
	if _, err := l.sym("tiny_probe"); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(dir)
	if st.Mode().Perm() != 0o700 {
		t.Errorf("cache dir mode %v, want 0700", st.Mode().Perm())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 2 {
		t.Errorf("want the object and its checksum, got %v", files)
	}
	for _, f := range files {
		if st, _ := os.Stat(f); st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", f, st.Mode().Perm())
		}
	}
}

// TestCacheCorrupt damages cached objects two ways (objects this process
// never loaded, as after a crash); each is rebuilt.
func TestCacheCorrupt(t *testing.T) {
	tc := testToolchain(t)
	dir := t.TempDir()
	for i, damage := range []func([]byte) []byte{
		func(b []byte) []byte { return []byte("garbage") },
		func(b []byte) []byte { c := append([]byte{}, b...); c[len(c)/2] ^= 0xff; return c },
	} {
		src := testSource(t) + fmt.Sprintf("/* %d */\n", i)
		path := objectPath(tc, dir, src)
		if _, err := compile(context.Background(), tc, path, src); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Replace the file rather than write into it: compile has
		// loaded this inode, and truncating a mapped object would crash
		// the process (SIGBUS), not test the cache.
		os.Remove(path)
		os.WriteFile(path, damage(data), 0o600)
		l, compiled, err := build(tc, dir, src)
		if err != nil || !compiled {
			t.Fatalf("damaged object: compiled %v, err %v", compiled, err)
		}
		if _, err := l.sym("tiny_probe"); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCacheConcurrent builds one new object from several goroutines (one
// compile) and from two processes at once (both succeed).
func TestCacheConcurrent(t *testing.T) {
	tc := testToolchain(t)
	dir := t.TempDir()
	src := testSource(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	compiles := 0
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, compiled, err := build(tc, dir, src)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			if compiled {
				compiles++
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if compiles != 1 {
		t.Errorf("%d compiles, want 1", compiles)
	}
	dir2 := t.TempDir()
	var cmds []*exec.Cmd
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCacheHelperProcess$")
		cmd.Env = append(os.Environ(), "TINY_CACHE_HELPER="+dir2)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper process: %v", err)
		}
	}
	forget()
	if _, compiled, err := build(tc, dir2, helperSource); err != nil || compiled {
		t.Errorf("after two processes: compiled %v, err %v", compiled, err)
	}
}

const helperSource = "long tiny_probe(long a, long b) { return a + b; } /* helper */\n"

// TestCacheHelperProcess is the child of TestCacheConcurrent.
func TestCacheHelperProcess(t *testing.T) {
	dir := os.Getenv("TINY_CACHE_HELPER")
	if dir == "" {
		t.Skip("helper process only")
	}
	tc := testToolchain(t)
	l, _, err := build(tc, dir, helperSource)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.sym("tiny_probe"); err != nil {
		t.Fatal(err)
	}
}
