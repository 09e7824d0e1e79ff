// Package devices holds the small contract every runtime implements and the
// registry that finds one by name.
//
// A device does three things, as tinygrad's runtimes do: it holds buffers,
// compiles a lowered kernel (a codegen.Program) into something runnable, and
// runs it over buffers. A Buffer is host memory; a device whose memory is
// not the host's keeps a Mirror beside it. The reference device
// (devices/ref), an interpreter that runs a program one uop at a time, is
// the definition of the uops that every other device is checked against.
package devices

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"tiny/codegen"
)

// Options configure a device when it is opened. The zero value is quiet with
// default settings.
type Options struct {
	Debug    int       // tinygrad's DEBUG level: 1 kernels, 2 schedule, 3 uops, 4 code
	Log      io.Writer // where debug output goes; nil discards it
	CacheDir string    // where compiled artifacts are kept (devices that compile); "" = the default
	Threads  int       // how many goroutines split a kernel's outer range; 0 = GOMAXPROCS

	// Context, when set, returns the context a compile runs under: once it
	// is done, a device that runs a compiler stops it (CLANG kills the
	// process) and the compile fails with the context's error.
	Context func() context.Context
}

// Device compiles lowered kernels into runners.
type Device interface {
	// Name returns the device's registered name, such as "CPU".
	Name() string
	// Compile prepares p to run. It is called once per distinct program.
	Compile(p *codegen.Program) (Runner, error)
}

// Runner runs one compiled kernel over buffers, in the order of the
// program's buffer list (buffer 0 is the output). vars gives the values of
// symbolic variables, if the program has any.
type Runner interface {
	Run(bufs []*Buffer, vars map[string]int64) error
}

// Pairer is implemented by runners that can run another kernel of their
// device chunk by chunk with their own: for each chunk [lo, hi) of their
// global loop, first's iterations [lo*ratio, hi*ratio) and then their own,
// on one worker, so that what first wrote is still in that worker's caches
// when the second kernel writes over it (a scatter into the copy of its
// input: codegen.Program.Span says when the rows match). RunPair reports
// false, having run nothing, when it cannot pair these two; the caller then
// runs them one after the other.
type Pairer interface {
	RunPair(ctx context.Context, first Runner, firstBufs, bufs []*Buffer, ratio int) (bool, error)
}

// BatchCompiler is implemented by devices for which building several
// programs at once is cheaper than building each: CLANG runs the C compiler
// once for all of a schedule's new kernels, as each run costs 50-100 ms of
// process start whatever it builds. CompileBatch returns one runner per
// program, in order.
type BatchCompiler interface {
	CompileBatch(ps []*codegen.Program) ([]Runner, error)
}

// Constructor opens a device with the given options.
type Constructor func(Options) (Device, error)

var (
	mu       sync.Mutex
	registry = map[string]Constructor{}
	probes   = map[string]*probe{} // devices that exist only where something outside tiny does
)

// probe caches the answer of a RegisterProbed device's availability check.
type probe struct {
	once  sync.Once
	check func() error
	err   error
}

func (p *probe) result() error {
	p.once.Do(func() { p.err = p.check() })
	return p.err
}

// Register makes a device available by name. Devices call it from init.
// Registering the same name twice panics.
func Register(name string, c Constructor) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[name]; dup {
		panic("devices: Register called twice for " + name)
	}
	registry[name] = c
}

// RegisterProbed registers a device that can run only where check succeeds
// (the GPU device needs an OpenCL platform with a device). check runs once,
// on the first Names, Open or Check that needs it, not at registration, so
// linking the device costs a program nothing until it asks. Names lists the
// device only where check succeeds; Open and Check return check's error,
// naming the device, where it fails.
func RegisterProbed(name string, c Constructor, check func() error) {
	Register(name, c)
	mu.Lock()
	probes[name] = &probe{check: check}
	mu.Unlock()
}

// Check reports whether the named device can be opened here: nil, or why
// not (unknown, or its probe failed).
func Check(name string) error {
	mu.Lock()
	_, ok := registry[name]
	p := probes[name]
	mu.Unlock()
	if !ok {
		return fmt.Errorf("unknown device %q (have %v)", name, Names())
	}
	if p != nil {
		if err := p.result(); err != nil {
			return fmt.Errorf("device %s is not available here: %v", name, err)
		}
	}
	return nil
}

// Open returns a new device of the named kind.
func Open(name string, opts Options) (Device, error) {
	if err := Check(name); err != nil {
		return nil, err
	}
	mu.Lock()
	c := registry[name]
	mu.Unlock()
	return c(opts)
}

// Names lists the registered devices that can run here, in sorted order: a
// device registered with RegisterProbed is listed only where its probe
// succeeds.
func Names() []string {
	mu.Lock()
	names := make([]string, 0, len(registry))
	var ps []*probe
	for n := range registry {
		names = append(names, n)
		ps = append(ps, probes[n])
	}
	mu.Unlock()
	out := names[:0]
	for i, n := range names {
		if ps[i] == nil || ps[i].result() == nil {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Prober is implemented by devices that can only run where something outside
// the program exists (CLANG needs a C compiler). Probe reports what the device
// would use, or why it cannot run here.
type Prober interface {
	Probe() (detail string, err error)
}

// Synchronizer is implemented by devices whose kernels run asynchronously
// (the GPU device enqueues them): Synchronize returns once every kernel run
// so far has finished. A benchmark calls it before stopping its timer.
type Synchronizer interface {
	Synchronize() error
}

// Targeter is implemented by devices that want codegen to shape loop nests
// for them differently from codegen.DefaultTarget (tinygrad's renderer
// properties, in the same role): the pure-Go CPU device runs long innermost
// loops well and short ones badly, where C is the other way round.
type Targeter interface {
	Target() codegen.Target
}

// Lowerer is implemented by devices that want codegen options beyond a
// Target: the GPU device lowers plain loop nests (no register tiles, lanes
// or worker splits of the CPU's shape) and maps them onto work-items itself.
type Lowerer interface {
	LowerOptions() codegen.Options
}

// LowerOptions returns the codegen options for programs that will run on d.
func LowerOptions(d Device) codegen.Options {
	if l, ok := d.(Lowerer); ok {
		return l.LowerOptions()
	}
	if t, ok := d.(Targeter); ok {
		target := t.Target()
		return codegen.Options{Target: &target}
	}
	return codegen.Options{}
}

// preferred lists the devices Default tries, fastest first.
var preferred = []string{"CLANG", "CPU"}

// Default opens the first registered device of CLANG, CPU that can run here,
// and says why it was chosen (DEBUG=1 prints the reason). A device that fails
// its probe is skipped with the failure in the reason, so a machine without a
// C compiler quietly runs on the pure-Go CPU device.
func Default(opts Options) (dev Device, reason string, err error) {
	var skipped []string
	for _, name := range preferred {
		mu.Lock()
		_, ok := registry[name]
		mu.Unlock()
		if !ok {
			continue
		}
		d, err := Open(name, opts)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		why := "the default"
		if p, ok := d.(Prober); ok {
			detail, err := p.Probe()
			if err != nil {
				skipped = append(skipped, fmt.Sprintf("%s: %v", name, err))
				continue
			}
			why = detail
		}
		if len(skipped) > 0 {
			why += "; skipped " + strings.Join(skipped, "; ")
		}
		return d, fmt.Sprintf("device %s (%s)", name, why), nil
	}
	return nil, "", fmt.Errorf("no device can run here (registered: %v; %s)", Names(), strings.Join(skipped, "; "))
}

// CheckBuffers returns an error naming the device and the program unless
// bufs are the buffers p runs over: one per p.Bufs, each of its dtype and
// at least its size.
func CheckBuffers(device string, p *codegen.Program, bufs []*Buffer) error {
	if len(bufs) != len(p.Bufs) {
		return fmt.Errorf("%s: %s: got %d buffers, want %d", device, p.Name, len(bufs), len(p.Bufs))
	}
	for i, b := range bufs {
		if want := p.Bufs[i]; b.DType != want.DType || b.Len < want.Size {
			return fmt.Errorf("%s: %s: buffer %d is %s[%d], want %s[%d]", device, p.Name, i, b.DType, b.Len, want.DType, want.Size)
		}
	}
	return nil
}
