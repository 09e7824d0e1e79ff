package clang

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// resetCompiler forgets the compiler found, for the test's $CC, and
// restores it afterwards.
func resetCompiler(t *testing.T) {
	found.Lock()
	saved := found.tc
	found.tc = nil
	found.Unlock()
	t.Cleanup(func() {
		found.Lock()
		found.tc = saved
		found.Unlock()
	})
}

// A $CC that names no compiler is an error, not a reason to use cc.
func TestInvalidCC(t *testing.T) {
	open(t, "", 1)
	resetCompiler(t)
	t.Setenv("CC", "/no/such/compiler-tiny")
	if _, err := findCompiler(); err == nil || !strings.Contains(err.Error(), "/no/such/compiler-tiny") {
		t.Errorf("findCompiler with an invalid $CC: %v", err)
	}
}

// The cache ignores a relative $XDG_CACHE_HOME and does not create a
// missing home directory.
func TestCacheDirEnvironment(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "relative/cache")
	dir, err := cacheDir("")
	if err != nil || dir != filepath.Join(home, ".cache", "tiny") {
		t.Errorf("relative XDG_CACHE_HOME: cache %q, %v; want under %s", dir, err, home)
	}
	missing := filepath.Join(home, "gone", "home")
	t.Setenv("HOME", missing)
	t.Setenv("XDG_CACHE_HOME", "")
	dir, err = cacheDir("")
	if err != nil || strings.HasPrefix(dir, missing) {
		t.Errorf("missing home: cache %q, %v", dir, err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("the cache created the missing home directory %s", missing)
	}
}

// A cache directory that cannot be written falls back to a temporary one.
func TestUnwritableCacheFallsBack(t *testing.T) {
	open(t, "", 1)
	dir := "/sys/tiny-cache-test" // EPERM even for root
	if _, err := os.Stat("/sys"); err != nil {
		ro := t.TempDir()
		if err := os.Chmod(ro, 0o500); err != nil || os.Geteuid() == 0 {
			t.Skip("no unwritable directory")
		}
		dir = filepath.Join(ro, "cache")
	}
	d, _ := Open(devices.Options{CacheDir: dir})
	s := shape.FromInts(5)
	p, err := codegen.Lower(kt.Kernel(s, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, s)), kt.Spec(f32, 5)), codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Compile(p); err != nil {
		t.Errorf("compile with an unwritable cache: %v", err)
	}
}

// A compiler error shows the compiler's own message; DEBUG>=1 logs all of it.
func TestCompilerErrorMessage(t *testing.T) {
	open(t, "", 1)
	tc, err := findCompiler()
	if err != nil {
		t.Skip(err)
	}
	out := filepath.Join(t.TempDir(), "bad.so")
	err = runCompiler(context.Background(), tc, out, "int f(void) { return undeclared_thing; }\n")
	if err == nil || !strings.Contains(err.Error(), "undeclared_thing") || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("compiler error: %v", err)
	}
}

// A compile whose context is done kills the compiler and fails with the
// context's error.
func TestCancelKillsCompiler(t *testing.T) {
	open(t, "", 1)
	resetCompiler(t)
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip(err)
	}
	script := filepath.Join(t.TempDir(), "slowcc")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nsleep 30\nexec "+cc+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CC", script)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	d, _ := Open(devices.Options{CacheDir: t.TempDir(), Context: func() context.Context { return ctx }})
	s := shape.FromInts(7)
	p, err := codegen.Lower(kt.Kernel(s, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, s)), kt.Spec(f32, 7)), codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = d.Compile(p)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 10*time.Second {
		t.Errorf("cancelled compile: %v after %v", err, time.Since(start))
	}
}
