package clang

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ebitengine/purego"
)

// This file defines finding the compiler, the cache of shared objects, and
// loading them. Its bound and pruning are in cache_prune.go.

// flags are the compiler flags: optimized and vectorized for this machine,
// with IEEE floating point kept (no -ffast-math, and no contraction of a
// multiply and an add into one rounding, which gcc does by default where
// the machine has FMA: results would differ from the CPU device's). No
// -fwrapv: the renderer wraps signed values through unsigned types itself
// (codegen's wrapped), and with -fwrapv gcc 12 miscompiled vectorized
// loops with masked loads (TestShiftedPadSplit). -fno-trapping-math
// (clang's default): no kernel reads the floating-point exception flags,
// and with them kept gcc would not execute a division on both arms of a
// select once it had moved it into the arm that uses it, so the loop
// branched: softplus (log1p's quotient) over 4096x1024 took 60 ms instead
// of 7, mish 104 instead of 9; values are the same either way. The source
// comes on standard input.
var flags = []string{"-O3", "-march=native", "-fno-math-errno", "-fno-trapping-math", "-ffp-contract=off", "-fPIC", "-shared", "-x", "c", "-"}

// gccFlags are added when the compiler is gcc. -fno-tree-sink: gcc's code
// sinking moves the loads and arithmetic that only one arm of a select
// needs into a branch, and a loop with a branch does not vectorize; a
// kernel's selects (relu's backward, a max pool's mask) then cost 5-10x:
// measured on beautiful_mnist's BatchNorm-backward kernels, 19.5 -> 3.7 ms
// and 83 -> 9 ms, with the conv kernels unchanged. -fno-loop-interchange:
// codegen orders the loops (codegen/nest.go), and gcc's interchange
// undid it: it swapped a flip's two loops (x.flip(1), 4096x1024), so that
// the inner loop stepped a row at a time, 7.9 ms on one thread instead of
// 2.4 (NumPy: 3.7). No other kernel of the wide table compiled differently.
var gccFlags = []string{"-fno-tree-sink", "-fno-loop-interchange"}

// toolchain is a C compiler and what identifies it in cache keys.
type toolchain struct {
	path  string   // the compiler's absolute path
	args  []string // extra words of $CC
	id    string   // path, size and modification time of the binary, and the host CPU
	flags []string // flags, with gccFlags when the compiler is gcc
}

// isGCC reports whether the compiler at path is gcc, by the name of the
// file its symlinks lead to (Debian's cc is /usr/bin/x86_64-linux-gnu-gcc-12):
// running it to ask would cost a process start on every engine's first
// compile, and a wrapper script is taken for what it says it is.
func isGCC(path string) bool {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		path = r
	}
	b := filepath.Base(path)
	return strings.Contains(b, "gcc") && !strings.Contains(b, "clang")
}

var found struct {
	sync.Mutex
	tc *toolchain
}

// findCompiler returns the compiler: $CC (which may carry arguments), else
// cc, gcc or clang on PATH. A found compiler is remembered.
func findCompiler() (*toolchain, error) {
	found.Lock()
	defer found.Unlock()
	if found.tc != nil {
		return found.tc, nil
	}
	var cands [][]string
	if cc := strings.Fields(os.Getenv("CC")); len(cc) > 0 {
		// A compiler the user named is the one to use: one that does not
		// exist is an error, not a reason to take another.
		if _, err := exec.LookPath(cc[0]); err != nil {
			return nil, fmt.Errorf("clang: $CC=%q: %w", os.Getenv("CC"), err)
		}
		cands = append(cands, cc)
	} else {
		cands = append(cands, []string{"cc"}, []string{"gcc"}, []string{"clang"})
	}
	for _, c := range cands {
		p, err := exec.LookPath(c[0])
		if err != nil {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		fl := flags
		if isGCC(p) {
			fl = append(append([]string{}, gccFlags...), flags...)
		}
		found.tc = &toolchain{path: p, args: c[1:], flags: fl, id: fmt.Sprintf("%s %v %d %d %s", p, c[1:], st.Size(), st.ModTime().UnixNano(), cpuID())}
		return found.tc, nil
	}
	return nil, errors.New("clang: no C compiler found (tried $CC, cc, gcc and clang)")
}

// cpuID returns the host CPU's model and feature lines: objects built with
// -march=native must not be shared with another kind of machine.
func cpuID() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") || strings.HasPrefix(l, "flags") {
			out = append(out, l)
		}
		if len(out) == 2 {
			break
		}
	}
	return strings.Join(out, "\n")
}

// cacheDir returns the cache directory, created with mode 0700. A relative
// $XDG_CACHE_HOME is ignored, as the XDG spec says, and a home directory
// that does not exist is not created: the cache is then a temporary
// directory (fallbackDir), as when the cache cannot be written.
func cacheDir(dir string) (string, error) {
	if dir == "" {
		if x := os.Getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
			dir = filepath.Join(x, "tiny")
		} else {
			home, err := os.UserHomeDir()
			if err != nil {
				return fallbackDir(fmt.Errorf("no home directory: %w", err))
			}
			if st, err := os.Stat(home); err != nil || !st.IsDir() {
				return fallbackDir(fmt.Errorf("home directory %s does not exist", home))
			}
			dir = filepath.Join(home, ".cache", "tiny")
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		if writeFailure(err) {
			return fallbackDir(err)
		}
		return "", fmt.Errorf("clang: cache directory: %w", err)
	}
	return dir, nil
}

// lib is a loaded shared object.
type lib struct{ h uintptr }

func (l lib) sym(name string) (uintptr, error) {
	fn, err := purego.Dlsym(l.h, name)
	if err != nil {
		return 0, fmt.Errorf("clang: %w", err)
	}
	return fn, nil
}

// loaded holds the objects this process has opened, by path, and makes
// goroutines building the same object wait for the first. NOTE: a process
// must not dlopen a path twice: the dynamic loader matches by name and would
// hand back the first mapping even after the file was replaced.
var loaded = struct {
	sync.Mutex
	libs    map[string]lib
	pending map[string]*sync.WaitGroup
}{libs: map[string]lib{}, pending: map[string]*sync.WaitGroup{}}

// build returns the loaded shared object for src, compiling it unless the
// cache holds a sound copy. compiled reports whether the compiler ran.
func build(tc *toolchain, dir, src string) (l lib, compiled bool, err error) {
	return buildCtx(context.Background(), tc, dir, src)
}

// buildCtx is build with the compiler run under ctx.
func buildCtx(ctx context.Context, tc *toolchain, dir, src string) (l lib, compiled bool, err error) {
	path := objectPath(tc, dir, src)
	for {
		loaded.Lock()
		if l, ok := loaded.libs[path]; ok {
			loaded.Unlock()
			return l, false, nil
		}
		if wg, ok := loaded.pending[path]; ok {
			loaded.Unlock()
			wg.Wait()
			continue
		}
		wg := &sync.WaitGroup{}
		wg.Add(1)
		loaded.pending[path] = wg
		loaded.Unlock()
		l, compiled, err = buildFile(ctx, tc, path, src)
		loaded.Lock()
		if err == nil {
			loaded.libs[path] = l
		}
		delete(loaded.pending, path)
		loaded.Unlock()
		wg.Done()
		return l, compiled, err
	}
}

// objectPath returns the cache path of src's object: a hash of the
// compiler, the flags and the source.
func objectPath(tc *toolchain, dir, src string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%q\x00%s", tc.id, tc.flags, src)
	return filepath.Join(dir, hex.EncodeToString(h.Sum(nil))[:40]+".so")
}

// buildFile loads path if its checksum holds, else compiles src into it.
// Another process's prune may remove the object at any moment: a hit then
// falls through to the compile, and compile loads what it built before the
// object is visible to others.
func buildFile(ctx context.Context, tc *toolchain, path, src string) (lib, bool, error) {
	if ok := verify(path); ok {
		if h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL); err == nil {
			touch(path)
			return lib{h}, false, nil
		}
	}
	l, err := compile(ctx, tc, path, src)
	return l, true, err
}

// verify reports whether path exists and matches the checksum beside it.
func verify(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	want, err := os.ReadFile(path + ".sum")
	if err != nil {
		return false
	}
	sum := sha256.Sum256(data)
	return bytes.Equal(bytes.TrimSpace(want), []byte(hex.EncodeToString(sum[:])))
}

// compile runs the compiler on src and loads the object, then puts it and
// its checksum at path through temporary files and renames. The object is
// loaded under its temporary name, so that no prune can take it away first.
func compile(ctx context.Context, tc *toolchain, path, src string) (lib, error) {
	tmp, err := objectTemp(path)
	if err != nil {
		return lib{}, err
	}
	defer os.Remove(tmp)
	if err := runCompiler(ctx, tc, tmp, src); err != nil {
		return lib{}, err
	}
	data, err := os.ReadFile(tmp)
	if err != nil {
		return lib{}, fmt.Errorf("clang: %w", err)
	}
	h, err := purego.Dlopen(tmp, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return lib{}, fmt.Errorf("clang: loading %s: %w", path, err)
	}
	sum := sha256.Sum256(data)
	if err := writeAtomic(path+".sum", []byte(hex.EncodeToString(sum[:])+"\n")); err != nil {
		return lib{}, err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return lib{}, fmt.Errorf("clang: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return lib{}, fmt.Errorf("clang: %w", err)
	}
	return lib{h}, nil
}

// runCompiler builds src into the shared object out; a done ctx kills the
// compiler and fails with its error.
func runCompiler(ctx context.Context, tc *toolchain, out, src string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("clang: compile: %w", err)
	}
	args := append(append(append([]string{}, tc.args...), tc.flags...), "-o", out, "-lm")
	cmd := exec.CommandContext(ctx, tc.path, args...) // killed once ctx is done
	cmd.WaitDelay = time.Second                       // not waiting on what it started (a wrapper's children) holding its output
	cmd.Stdin = strings.NewReader(src)
	if msg, err := cmd.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("clang: compile: %w", ctx.Err())
		}
		return &CompilerError{Compiler: tc.path, Err: err, Output: string(msg)}
	}
	return nil
}

// CompilerError is a failed run of the C compiler. Its message holds the
// compiler's first error lines on one line; Output holds all it printed
// (the device logs it at DEBUG>=1).
type CompilerError struct {
	Compiler string
	Err      error
	Output   string
}

// maxErrorLines is how many lines of the compiler's output an error shows.
const maxErrorLines = 3

func (e *CompilerError) Error() string {
	var lines []string
	for _, l := range strings.Split(e.Output, "\n") {
		if strings.Contains(l, "error") || strings.Contains(l, "Error") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if len(lines) == 0 {
		lines = strings.Split(strings.TrimSpace(e.Output), "\n")
	}
	if len(lines) > maxErrorLines {
		lines = append(lines[:maxErrorLines], "...")
	}
	return fmt.Sprintf("clang: %s failed (%v): %s", e.Compiler, e.Err, strings.Join(lines, "; "))
}

func (e *CompilerError) Unwrap() error { return e.Err }

// tmpSeq numbers the temporary objects of this process.
var tmpSeq atomic.Int64

// objectTemp creates an empty temporary file for path's object, named
// path.<pid>-<n>.tmp. NOTE: compile loads the object under this name, so a
// process must never use a name twice (see loaded); a file of that name left
// by a crashed process with the same pid is skipped.
func objectTemp(path string) (string, error) {
	for {
		name := fmt.Sprintf("%s.%d-%d.tmp", path, os.Getpid(), tmpSeq.Add(1))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("clang: %w", err)
		}
		f.Close()
		return name, nil
	}
}

// writeAtomic writes data to path through a temporary file and a rename.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("clang: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("clang: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("clang: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("clang: %w", err)
	}
	return nil
}
