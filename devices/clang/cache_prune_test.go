package clang

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tiny/codegen"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// fakeEntry writes an object of n bytes named by i, with its checksum, last
// used at mtime, and returns the object's path. Pruning never loads objects,
// so these need no compiler.
func fakeEntry(t *testing.T, dir string, i, n int, mtime time.Time) string {
	t.Helper()
	sum := sha256.Sum256([]byte(strconv.Itoa(i)))
	path := filepath.Join(dir, hex.EncodeToString(sum[:])[:40]+".so")
	data := make([]byte, n)
	data[0] = byte(i)
	check := sha256.Sum256(data)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".sum", []byte(hex.EncodeToString(check[:])+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	setMtime(t, path, mtime)
	return path
}

func setMtime(t *testing.T, path string, mtime time.Time) {
	t.Helper()
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// names returns the names of the files in dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

// TestPruneLRU fills a cache with entries used one minute apart and prunes it
// to the size of three: the three most recently used stay, each with its
// checksum, and files the cache did not write are left alone.
func TestPruneLRU(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	var objs []string
	for i := range 6 {
		// Written out of order, so that the name order is not the age order.
		j := (i * 5) % 6
		objs = append(objs, fakeEntry(t, dir, j, 1000, now.Add(time.Duration(j-6)*time.Minute)))
	}
	slices.SortFunc(objs, func(a, b string) int {
		sa, _ := os.Stat(a)
		sb, _ := os.Stat(b)
		return sa.ModTime().Compare(sb.ModTime())
	})
	entrySize := int64(1000 + 65)
	other := filepath.Join(dir, "notes.txt")
	os.WriteFile(other, make([]byte, 5000), 0o600)
	setMtime(t, other, now.Add(-time.Hour))

	left, err := prune(dir, 3*entrySize+10, now)
	if err != nil {
		t.Fatal(err)
	}
	if left != 3*entrySize {
		t.Errorf("prune left %d bytes, want %d", left, 3*entrySize)
	}
	for i, obj := range objs {
		keep := i >= 3
		if exists(obj) != keep || exists(obj+".sum") != keep {
			t.Errorf("entry used %d minutes ago: object %v, checksum %v, want %v", 6-i, exists(obj), exists(obj+".sum"), keep)
		}
	}
	if !exists(other) {
		t.Error("prune removed a file the cache did not write")
	}

	// No bound: nothing goes.
	if left, _ := prune(dir, 0, now); left != 3*entrySize || len(names(t, dir)) != 7 {
		t.Errorf("unbounded prune left %d bytes, files %v", left, names(t, dir))
	}
}

// TestPruneKeepsUsed checks that an entry used between the listing and its
// eviction is kept.
func TestPruneKeepsUsed(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := fakeEntry(t, dir, 1, 1000, now.Add(-2*time.Minute))
	newer := fakeEntry(t, dir, 2, 1000, now.Add(-time.Minute))
	ents := map[string]*entry{
		old:   {obj: old, size: 1065, mtime: now.Add(-2 * time.Minute)},
		newer: {obj: newer, size: 1065, mtime: now.Add(-time.Minute)},
	}
	touch(old) // another process's hit, after the listing
	if left := evict(ents, 1065); left != 1065 || !exists(old) || exists(newer) {
		t.Errorf("evict left %d bytes, used entry kept %v, other kept %v", left, exists(old), exists(newer))
	}
}

// TestPruneTmp leaves temporary files and lone checksums that may still be
// written, and removes those older than tmpMaxAge.
func TestPruneTmp(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	key := strings.Repeat("ab", 20)
	files := map[string]bool{ // name: old
		key + ".so.123.tmp":      true,
		key + ".so.sum.456.tmp":  true,
		key + ".so.12-3.tmp":     true,
		key + ".so.789.tmp":      false,
		key + ".so.78-9.tmp":     false,
		key + ".so.sum.1011.tmp": false,
		"other.1.tmp":            true, // not the cache's
	}
	lone := fakeEntry(t, dir, 1, 10, now)
	os.Remove(lone)
	setMtime(t, lone+".sum", now.Add(-tmpMaxAge-time.Minute))
	fresh := fakeEntry(t, dir, 2, 10, now)
	os.Remove(fresh)
	for name, old := range files {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte("partial"), 0o600)
		if old {
			setMtime(t, path, now.Add(-tmpMaxAge-time.Minute))
		} else {
			setMtime(t, path, now.Add(-tmpMaxAge+time.Minute))
		}
	}
	if _, err := prune(dir, 1<<20, now); err != nil {
		t.Fatal(err)
	}
	for name, old := range files {
		removed := old && strings.HasPrefix(name, key)
		if got := exists(filepath.Join(dir, name)); got == removed {
			t.Errorf("%s: exists %v, want %v", name, got, !removed)
		}
	}
	if exists(lone + ".sum") {
		t.Error("an old checksum without its object was kept")
	}
	if !exists(fresh + ".sum") {
		t.Error("a fresh checksum without its object (a compile about to rename it in) was removed")
	}
}

// TestPruneRecompile prunes a compiled object away: the next build compiles
// it again, and a hit marks the object as used.
func TestPruneRecompile(t *testing.T) {
	tc := testToolchain(t)
	dir := t.TempDir()
	src := testSource(t)
	if _, compiled, err := build(tc, dir, src); err != nil || !compiled {
		t.Fatalf("first build: compiled %v, err %v", compiled, err)
	}
	path := objectPath(tc, dir, src)
	forget()
	if left, err := prune(dir, 1, time.Now()); err != nil || left != 0 || exists(path) || exists(path+".sum") {
		t.Fatalf("prune: left %d, err %v, files %v", left, err, names(t, dir))
	}
	l, compiled, err := build(tc, dir, src)
	if err != nil || !compiled {
		t.Fatalf("build after prune: compiled %v, err %v", compiled, err)
	}
	if _, err := l.sym("tiny_probe"); err != nil {
		t.Fatal(err)
	}
	forget()
	long := time.Now().Add(-24 * time.Hour)
	setMtime(t, path, long)
	if _, compiled, err := build(tc, dir, src); err != nil || compiled {
		t.Fatalf("hit: compiled %v, err %v", compiled, err)
	}
	if st, _ := os.Stat(path); !st.ModTime().After(long) {
		t.Errorf("a hit left the object's mtime at %v", st.ModTime())
	}
}

// TestCompilePrunes checks when Device.Compile prunes: not on a cache hit,
// then once, after its first compile into a directory.
func TestCompilePrunes(t *testing.T) {
	tc := testToolchain(t)
	t.Setenv(cacheMaxEnv, "1")
	dir := t.TempDir()
	d := open(t, dir, 1)
	program := func(n int) *codegen.Program {
		s := shape.FromInts(n)
		p, err := codegen.Lower(kt.Kernel(s, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, s)), kt.Spec(f32, n)), codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	hit := program(5)
	src, err := render(hit)
	if err != nil {
		t.Fatal(err)
	}
	obj, _ := objectSource(src, codegen.CABIOf(hit))
	if _, _, err := build(tc, dir, obj); err != nil {
		t.Fatal(err)
	}
	forget()
	old := fakeEntry(t, dir, 1, 1000, time.Now().Add(-time.Hour))
	if _, err := d.Compile(hit); err != nil {
		t.Fatal(err)
	}
	if !exists(old) {
		t.Fatal("a cache hit pruned the cache")
	}
	if _, err := d.Compile(program(7)); err != nil {
		t.Fatal(err)
	}
	if exists(old) {
		t.Fatal("the first compile did not prune the cache")
	}
	old = fakeEntry(t, dir, 2, 1000, time.Now().Add(-time.Hour))
	if _, err := d.Compile(program(9)); err != nil {
		t.Fatal(err)
	}
	if !exists(old) {
		t.Error("a second compile pruned the cache again")
	}
}

// TestPruneConcurrent compiles into one cache while other goroutines prune it
// to nothing, then does the same from two processes that share their
// kernels: every build must load its object.
func TestPruneConcurrent(t *testing.T) {
	tc := testToolchain(t)
	dir := t.TempDir()
	stop := make(chan struct{})
	var pruners, builders sync.WaitGroup
	for range 2 {
		pruners.Add(1)
		go func() {
			defer pruners.Done()
			for {
				select {
				case <-stop:
					return
				default:
					prune(dir, 1, time.Now())
				}
			}
		}()
	}
	for i := range 4 {
		builders.Add(1)
		go func() {
			defer builders.Done()
			src := testSource(t) + fmt.Sprintf("/* %d */\n", i)
			l, _, err := build(tc, dir, src)
			if err == nil {
				_, err = l.sym("tiny_probe")
			}
			if err != nil {
				t.Error(err)
			}
		}()
	}
	builders.Wait()
	close(stop)
	pruners.Wait()

	dir2 := t.TempDir()
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPruneHelperProcess$")
		cmd.Env = append(os.Environ(), "TINY_PRUNE_HELPER="+dir2)
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := cmd.Wait(); err != nil {
				t.Errorf("helper process: %v\n%s", err, out)
			}
		}()
	}
}

// TestPruneHelperProcess is the child of TestPruneConcurrent: it builds the
// same kernels as its sibling, pruning the cache to nothing after each.
func TestPruneHelperProcess(t *testing.T) {
	dir := os.Getenv("TINY_PRUNE_HELPER")
	if dir == "" {
		t.Skip("helper process only")
	}
	tc := testToolchain(t)
	for i := range 4 {
		src := fmt.Sprintf("long tiny_probe(long a, long b) { return a + b; } /* prune helper %d */\n", i)
		l, _, err := build(tc, dir, src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.sym("tiny_probe"); err != nil {
			t.Fatal(err)
		}
		if _, err := prune(dir, 1, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"", defaultCacheMax},
		{"  ", defaultCacheMax},
		{"0", 0},
		{"1048576", 1 << 20},
		{" 300 ", 300},
		{"2k", 2 << 10},
		{"64M", 64 << 20},
		{"64m", 64 << 20},
		{"1G", 1 << 30},
	} {
		if got, err := parseSize(c.in); err != nil || got != c.want {
			t.Errorf("parseSize(%q) = %d, %v, want %d", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"1GB", "-1", "lots", "M", "1.5G", "1T", "9223372036854775807G"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}

// TestCacheMaxInvalid checks that a bad $TINY_CACHE_MAX fails Compile,
// naming the variable, rather than being quietly replaced, and that the
// probe still finds the compiler.
func TestCacheMaxInvalid(t *testing.T) {
	t.Setenv(cacheMaxEnv, "1GB")
	d := open(t, t.TempDir(), 1)
	if _, err := d.(*Device).Probe(); err != nil {
		t.Errorf("Probe with a bad bound: %v", err)
	}
	s := shape.FromInts(3)
	p, err := codegen.Lower(kt.Kernel(s, kt.Load(1, f32, s), kt.Spec(f32, 3)), codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Compile(p)
	if err == nil || !strings.Contains(err.Error(), `TINY_CACHE_MAX="1GB"`) {
		t.Errorf("Compile with a bad bound: %v", err)
	}
}
