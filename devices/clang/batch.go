package clang

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/ebitengine/purego"

	"tiny/codegen"
	"tiny/devices"
)

// This file defines building several kernels in one compiler run. A run of
// the C compiler costs 50-100 ms of process start whatever it builds, and a
// schedule often holds ten new kernels: built one by one they made a cold
// start of examples/model.tiny take seconds.
//
// Every object is built from objectSource, which renames the kernel's
// functions with a tag from its source's hash, so that any kernels can
// share a file. A batch object is then linked into the cache under each of
// its kernels' names (hard links, else copies), each with its checksum, so
// a later process finds every kernel on its own exactly as if it had been
// built alone.

// objectSource returns the source of src's object, its functions renamed
// with a tag, and the ABI with the renamed entry points. The object also
// holds the entry's chunk loop (chunkLoop), named after the renamed entry
// with chunksSuffix.
func objectSource(src string, abi codegen.CABI) (string, codegen.CABI) {
	h := sha256.Sum256([]byte(src))
	tag := "_" + hex.EncodeToString(h[:6])
	name := strings.TrimPrefix(abi.Entry, "tiny_")
	var def, undef strings.Builder
	for _, f := range []string{name, name + "_finish", "tiny_" + name, "tiny_" + name + "_finish"} {
		fmt.Fprintf(&def, "#define %s %s%s\n", f, f, tag)
		fmt.Fprintf(&undef, "#undef %s\n", f)
	}
	loop := chunkLoop(abi.Entry+tag+chunksSuffix, abi.Entry)
	abi.Entry += tag
	if abi.Finish != "" {
		abi.Finish += tag
	}
	return def.String() + src + loop + undef.String(), abi
}

// chunksSuffix names an entry's chunk loop after the entry.
const chunksSuffix = "_chunks"

// chunkLoop returns the C of the function name, which runs the global
// loop's chunks through entry on one worker, taking them in turn with the
// other workers by the shared counter *next, until none is left or *stop
// is set, and returns how many it ran:
//
//	long name(void* const* bufs, long n, long chunks, long* next,
//	          unsigned char* parts, long partBytes, const long* vars, const int* stop)
//
// Chunk c is iterations [n*c/chunks, n*(c+1)/chunks), and folds into the
// partials at parts + c*partBytes (none when parts is null). One C call per
// worker rather than one per chunk: a call from Go costs a system call's
// entry and exit, each exit may wait for the scheduler to give a processor
// back (and move the goroutine to another thread), and while both workers
// are in C the runtime's monitor polls every 20 us to take processors back.
func chunkLoop(name, entry string) string {
	return fmt.Sprintf(`long %s(void* const* bufs, long n, long chunks, long* next, unsigned char* parts, long partBytes, const long* vars, const int* stop) {
  long done = 0;
  while (!__atomic_load_n(stop, __ATOMIC_RELAXED)) {
    long c = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
    if (c >= chunks) break;
    %s(bufs, n*c/chunks, n*(c+1)/chunks, parts ? parts + c*partBytes : 0, vars);
    done++;
  }
  return done;
}
`, name, entry)
}

// CompileBatch compiles ps, building all those the cache lacks in one
// compiler run (a batch of many in one run per thread, all at once; see
// splitBatch), and returns their runners in order. If the batch fails to
// build, each program is built on its own, so an error names its kernel.
func (d *Device) CompileBatch(ps []*codegen.Program) ([]devices.Runner, error) {
	tc, dir, err := d.toolchain()
	if err != nil {
		return nil, err
	}
	var paths, objs []string
	seen := map[string]bool{}
	for _, p := range ps {
		src, err := render(p)
		if err != nil {
			return nil, err
		}
		obj, _ := objectSource(src, codegen.CABIOf(p))
		path := objectPath(tc, dir, obj)
		if !seen[path] && !present(path) {
			paths, objs = append(paths, path), append(objs, obj)
		}
		seen[path] = true
	}
	if len(paths) >= 2 {
		groups := splitBatch(objs, d.threads)
		var wg sync.WaitGroup
		built := make([]int, len(groups))
		for g, idx := range groups {
			wg.Add(1)
			go func() {
				defer wg.Done()
				gp, gobj := make([]string, len(idx)), make([]string, len(idx))
				for j, i := range idx {
					gp[j], gobj[j] = paths[i], objs[i]
				}
				if n, err := buildBatch(d.context(), tc, gp, gobj); err == nil {
					built[g] = n
				}
			}()
		}
		wg.Wait()
		n := 0
		for _, b := range built {
			n += b
		}
		if n > 0 {
			pruneOnce(dir)
			if d.opts.Debug >= 2 {
				runs := "one run"
				if len(groups) > 1 {
					runs = fmt.Sprintf("%d runs at once", len(groups))
				}
				fmt.Fprintf(d.log, "clang: compiled %d kernels in %s of %s\n", n, runs, tc.path)
			}
		}
	}
	rs := make([]devices.Runner, len(ps))
	for i, p := range ps {
		if rs[i], err = d.Compile(p); err != nil {
			return nil, err
		}
	}
	return rs, nil
}

// minPerRun is the fewest kernels worth a compiler run of their own: a run
// costs 50-100 ms of process start, a kernel 50-250 ms of compiling.
const minPerRun = 8

// splitBatch divides the objects objs into at most threads groups of at
// least minPerRun each (one group for a small batch), balanced by source
// length, to be built by as many compiler runs at once: one run uses one
// core, and beautiful_mnist's first step spent most of its time waiting on
// a single run of 108 kernels. It returns the indices of each group, each
// in the original order.
func splitBatch(objs []string, threads int) [][]int {
	n := min(threads, len(objs)/minPerRun)
	if n <= 1 {
		all := make([]int, len(objs))
		for i := range all {
			all[i] = i
		}
		return [][]int{all}
	}
	order := make([]int, len(objs))
	for i := range order {
		order[i] = i
	}
	// Longest first, each to the group with the least source so far.
	sort.SliceStable(order, func(a, b int) bool { return len(objs[order[a]]) > len(objs[order[b]]) })
	groups := make([][]int, n)
	load := make([]int, n)
	for _, i := range order {
		g := 0
		for j := range load {
			if load[j] < load[g] {
				g = j
			}
		}
		groups[g] = append(groups[g], i)
		load[g] += len(objs[i])
	}
	for _, g := range groups {
		sort.Ints(g)
	}
	return groups
}

// present reports whether path's object is loaded, being built, or in the
// cache with a sound checksum.
func present(path string) bool {
	loaded.Lock()
	_, ok := loaded.libs[path]
	_, busy := loaded.pending[path]
	loaded.Unlock()
	return ok || busy || verify(path)
}

// buildBatch builds the objects objs (for the cache paths paths) as one
// shared object, loads it and puts it in the cache under every path it
// claimed. It returns how many it built: paths another goroutine is
// building or has loaded meanwhile are left to it.
func buildBatch(ctx context.Context, tc *toolchain, paths, objs []string) (int, error) {
	wg := &sync.WaitGroup{}
	wg.Add(1)
	var mine []int
	loaded.Lock()
	for i, p := range paths {
		_, ok := loaded.libs[p]
		_, busy := loaded.pending[p]
		if !ok && !busy {
			loaded.pending[p] = wg
			mine = append(mine, i)
		}
	}
	loaded.Unlock()
	defer func() {
		loaded.Lock()
		for _, i := range mine {
			delete(loaded.pending, paths[i])
		}
		loaded.Unlock()
		wg.Done()
	}()
	if len(mine) == 0 {
		return 0, nil
	}
	var src strings.Builder
	for _, i := range mine {
		src.WriteString(objs[i])
	}
	tmp, err := objectTemp(paths[mine[0]])
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp)
	if err := runCompiler(ctx, tc, tmp, src.String()); err != nil {
		return 0, err
	}
	data, err := os.ReadFile(tmp)
	if err != nil {
		return 0, fmt.Errorf("clang: %w", err)
	}
	// Loaded under the temporary name, so that no prune can take it first.
	h, err := purego.Dlopen(tmp, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return 0, fmt.Errorf("clang: loading a batch of %d kernels: %w", len(mine), err)
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return 0, fmt.Errorf("clang: %w", err)
	}
	sum := sha256.Sum256(data)
	line := []byte(hex.EncodeToString(sum[:]) + "\n")
	for _, i := range mine {
		p := paths[i]
		if err := writeAtomic(p+".sum", line); err != nil {
			return 0, err
		}
		if err := linkAtomic(tmp, p); err != nil {
			return 0, err
		}
		loaded.Lock()
		loaded.libs[p] = lib{h}
		loaded.Unlock()
	}
	return len(mine), nil
}

// linkAtomic puts the file src at path through a temporary name and a
// rename: a hard link where the file system has them, else a copy.
func linkAtomic(src, path string) error {
	name := fmt.Sprintf("%s.%d-%d.tmp", path, os.Getpid(), tmpSeq.Add(1))
	if err := os.Link(src, name); err != nil {
		if err := copyFile(src, name); err != nil {
			os.Remove(name)
			return err
		}
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("clang: %w", err)
	}
	return nil
}

// copyFile copies src to a new file dst of mode 0600.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("clang: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("clang: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("clang: %w", err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("clang: %w", err)
	}
	return nil
}
