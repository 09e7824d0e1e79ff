// Package clang is tiny's fast device, like tinygrad's ops_clang: it renders
// each codegen.Program as C (codegen.RenderC), builds it with the system C
// compiler into a shared object kept in a per-user cache, and calls it
// through purego, so that building tiny needs no cgo. Run splits the
// program's global loop across goroutines, each calling the kernel on its
// share of the iterations.
//
// Registering the device does no work: the compiler is looked for on the
// first Compile (or by Available). It is $CC, else the first of cc, gcc and
// clang on PATH. The cache is Options.CacheDir, else $XDG_CACHE_HOME/tiny,
// else ~/.cache/tiny; each object is named by a hash of its source, the
// compiler and its flags, written under a temporary name and renamed, with a
// checksum beside it, so concurrent processes never see half a file and a
// damaged file is rebuilt. A second run of the same program compiles nothing.
// CompileBatch builds several programs in one compiler run and links the one
// object into the cache under each program's name (batch.go).
// The cache holds at most $TINY_CACHE_MAX bytes (256M by default, 0 for no
// bound): after its first compile, a process evicts the least recently used
// objects and removes temporary files older than ten minutes.
package clang

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/ebitengine/purego"

	"tiny/codegen"
	"tiny/devices"
)

func init() { devices.Register("CLANG", Open) }

// Device compiles programs with the system C compiler.
type Device struct {
	opts    devices.Options
	threads int
	log     io.Writer
}

// Open returns a CLANG device. It does not look for the compiler: that
// happens on the first Compile, which fails with a clear error if there is
// none. Use Available to choose a device up front.
func Open(opts devices.Options) (devices.Device, error) {
	t := opts.Threads
	if t <= 0 {
		t = runtime.GOMAXPROCS(0)
	}
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	return &Device{opts: opts, threads: t, log: log}, nil
}

// Name returns "CLANG".
func (d *Device) Name() string { return "CLANG" }

var probe struct {
	once sync.Once
	cc   string
	err  error
}

// Available reports the C compiler the device would use, or why it cannot
// be used. The first call in a process compiles and loads a tiny probe
// kernel, unless the cache already holds it from an earlier run; later calls
// return the same answer at once.
func Available() (compiler string, err error) {
	probe.once.Do(func() {
		tc, err := findCompiler()
		if err != nil {
			probe.err = err
			return
		}
		probe.cc = tc.path
		dir, err := cacheDir("")
		if err != nil {
			probe.err = err
			return
		}
		lib, _, err := build(tc, dir, probeSource)
		if err != nil {
			probe.err = err
			return
		}
		fn, err := lib.sym("tiny_probe")
		if err != nil {
			probe.err = err
			return
		}
		var add func(a, b int64) int64
		purego.RegisterFunc(&add, fn)
		if got := add(20, 22); got != 42 {
			probe.err = fmt.Errorf("clang: probe kernel returned %d, want 42", got)
		}
	})
	return probe.cc, probe.err
}

const probeSource = "long tiny_probe(long a, long b) { return a + b; }\n"

// toolchain returns the compiler and the opened cache directory.
func (d *Device) toolchain() (*toolchain, string, error) {
	tc, err := findCompiler()
	if err != nil {
		return nil, "", err
	}
	dir, err := openCache(d.opts.CacheDir)
	if err != nil {
		return nil, "", err
	}
	return tc, dir, nil
}

// Compile renders p as C, builds it (or finds it in the cache) and loads it.
func (d *Device) Compile(p *codegen.Program) (devices.Runner, error) {
	tc, dir, err := d.toolchain()
	if err != nil {
		return nil, err
	}
	src, err := render(p)
	if err != nil {
		return nil, err
	}
	abi := codegen.CABIOf(p)
	if d.opts.Debug >= 4 {
		fmt.Fprintf(d.log, "%s\n", src)
	}
	obj, abi := objectSource(src, abi)
	lib, compiled, err := buildCtx(d.context(), tc, dir, obj)
	if err != nil && writeFailure(err) {
		// A cache that is read-only or full: compile into a temporary one.
		var ferr error
		if dir, ferr = fallbackDir(err); ferr == nil {
			lib, compiled, err = buildCtx(d.context(), tc, dir, obj)
		}
	}
	var ce *CompilerError
	if errors.As(err, &ce) && d.opts.Debug >= 1 {
		fmt.Fprintf(d.log, "%s failed on %s:\n%s\n", ce.Compiler, p.Name, ce.Output)
	}
	if err != nil {
		return nil, err
	}
	if compiled {
		pruneOnce(dir)
	}
	if d.opts.Debug >= 2 && compiled {
		fmt.Fprintf(d.log, "clang: compiled %s with %s\n", p.Name, tc.path)
	}
	r := &runner{p: p, abi: abi, src: src, threads: d.threads}
	if r.entry, err = lib.sym(abi.Entry); err != nil {
		return nil, err
	}
	if r.chunks, err = lib.sym(abi.Entry + chunksSuffix); err != nil {
		return nil, err
	}
	if abi.Finish != "" {
		if r.finish, err = lib.sym(abi.Finish); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// context returns the context compiles run under.
func (d *Device) context() context.Context {
	if d.opts.Context != nil {
		if ctx := d.opts.Context(); ctx != nil {
			return ctx
		}
	}
	return context.Background()
}

// render returns RenderC(p), turning a renderer panic into an error.
func render(p *codegen.Program) (src string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("clang: rendering %s: %v", p.Name, r)
		}
	}()
	return codegen.RenderC(p), nil
}
