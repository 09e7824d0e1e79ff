package tensor

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"tiny/codegen"
	"tiny/devices"
)

// Options configure an Engine. The zero value runs quietly on the default
// device: CLANG where a C compiler works, else the pure-Go CPU device
// (devices.Default).
type Options struct {
	Device   string    // registered device name; "" picks devices.Default
	Debug    int       // tinygrad's DEBUG: 1 kernels, 2 + schedule, 3 + uops, 4 + code
	Log      io.Writer // where debug output goes; nil discards it
	Threads  int       // goroutines per kernel, passed to the device; 0 = GOMAXPROCS
	CacheDir string    // compiled artifacts, for devices that compile; "" = default

	// MaxBytes bounds the bytes of buffers the engine's tensors hold at
	// once: an allocation past it fails with a *Error (after a collection
	// has returned what dead tensors held), so that a script cannot take
	// all of the host's memory. 0 means no bound but the per-buffer one
	// (8 GiB).
	MaxBytes int64

	// Context, when set, returns the context each kernel runs under: once
	// it is done the running kernel stops between chunks of its global
	// loop and the realization panics with a *Error "interrupted" that
	// wraps the context's error. The tensors it was computing stay
	// unrealized. The interpreter passes the context of the statement it
	// runs, so Ctrl-C stops a long matmul, not only the loop around it.
	Context func() context.Context
}

// Engine owns a device and the settings every tensor built from it shares:
// the debug level, the log, the cache of compiled kernels and the random
// state. The interpreter or command builds one and creates tensors through
// it; an op on tensors uses the engine of its operands. An Engine is safe for
// use by several goroutines.
type Engine struct {
	opts Options
	dev  devices.Device

	mu        sync.Mutex // guards runners, kernel counts and realization
	runners   map[string]*compiled
	schedules map[string][]cachedItem // schedules by graph structure (schedcache.go)
	walks     uint64                  // graph walks so far, to stamp nodes
	lastNodes int                     // nodes and key bytes of the last walk, to size the next
	lastKey   int
	stats     Stats

	// interp, when set (by tests), runs kernels instead of the device: the
	// package's brute-force evaluator of kernel ASTs.
	interp func(k *codegen.Kernel, bufs []*devices.Buffer)

	pendMu  sync.Mutex
	pending []weak.Pointer[lazy] // losses and gradients of Backward, for the next in-place step (assign.go)

	held atomic.Int64 // bytes of the buffers tensors of this engine hold (memory.go)

	rngMu sync.Mutex
	seed  uint64 // manual_seed value
	calls uint64 // draws since the last manual_seed
}

// Stats counts the work an engine did, for tests and the command's reports.
type Stats struct {
	Kernels  int           // kernels run
	Compiles int           // kernels lowered and compiled (cache misses)
	Time     time.Duration // time spent running kernels

	Schedule     time.Duration // time spent scheduling (schedcache.go: looking up the cache, or cutting kernels)
	ScheduleHits int           // realizations whose schedule came from the cache
}

// NewEngine opens the device named in opts and returns an engine on it.
func NewEngine(opts Options) (*Engine, error) {
	dopts := devices.Options{Debug: opts.Debug, Log: opts.Log, CacheDir: opts.CacheDir, Threads: opts.Threads, Context: opts.Context}
	var dev devices.Device
	var err error
	if opts.Device == "" {
		var reason string
		if dev, reason, err = devices.Default(dopts); err != nil {
			return nil, err
		}
		opts.Device = dev.Name()
		if opts.Debug >= 1 && opts.Log != nil {
			fmt.Fprintln(opts.Log, reason)
		}
	} else if dev, err = devices.Open(opts.Device, dopts); err != nil {
		return nil, err
	}
	return &Engine{opts: opts, dev: dev, runners: map[string]*compiled{}}, nil
}

// NewEngineOn returns an engine on a device the caller opened (a device of
// an embedder's own, or a test's); opts.Device is replaced by its name.
func NewEngineOn(dev devices.Device, opts Options) *Engine {
	opts.Device = dev.Name()
	return &Engine{opts: opts, dev: dev, runners: map[string]*compiled{}}
}

// context returns the context kernels run under.
func (e *Engine) context() context.Context {
	if e.opts.Context != nil {
		if ctx := e.opts.Context(); ctx != nil {
			return ctx
		}
	}
	return context.Background()
}

// checkInterrupt panics with a *Error "interrupted" once the engine's
// context is done.
func (e *Engine) checkInterrupt() {
	if e == nil {
		return
	}
	if err := e.context().Err(); err != nil {
		panic(&Error{Msg: "interrupted", Err: err})
	}
}

// DeviceName returns the name of the engine's device, such as "CPU".
func (e *Engine) DeviceName() string {
	if e.opts.Device == "" {
		return "CPU"
	}
	return e.opts.Device
}

// Synchronize waits until every kernel the engine has run has finished on
// its device. Realize returns once a kernel is queued on a device that runs
// asynchronously (GPU), so a timer around it must call Synchronize; on the
// host devices it returns at once.
func (e *Engine) Synchronize() {
	if s, ok := e.dev.(devices.Synchronizer); ok {
		if err := s.Synchronize(); err != nil {
			fail("%s device: %v", e.DeviceName(), err)
		}
	}
}

// Debug returns the engine's DEBUG level.
func (e *Engine) Debug() int { return e.opts.Debug }

// Stats returns how many kernels the engine has run and compiled.
func (e *Engine) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}

// ManualSeed resets the random state: later Rand and Randn calls without a
// seed of their own draw a sequence determined by seed.
func (e *Engine) ManualSeed(seed int64) {
	e.rngMu.Lock()
	e.seed, e.calls = uint64(seed), 0
	e.rngMu.Unlock()
}

// nextSeed returns the seed for the next unseeded random tensor.
func (e *Engine) nextSeed() uint64 {
	e.rngMu.Lock()
	defer e.rngMu.Unlock()
	e.calls++
	return mix(e.seed ^ mix(e.calls))
}
