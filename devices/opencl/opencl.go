// Package opencl is tiny's GPU device, tinygrad's "GPU": each
// codegen.Program is rendered as OpenCL C (codegen.RenderCL), built by the
// OpenCL driver and run on the first GPU the platforms offer (else the first
// device of any kind: Debian's pocl runs OpenCL on the CPU). The library,
// libOpenCL.so.1 (an ICD loader, which finds the drivers listed in
// /etc/OpenCL/vendors), is opened with purego, so building tiny needs no
// cgo and no OpenCL headers, and a machine without it only lacks this
// device.
//
// Buffers live on the device between kernels: a kernel's output is a
// devices.Mirror of its buffer and is copied to the host only when the host
// reads it; an input is copied to the device only when the host has written
// it since. Built programs are kept on disk, by a hash of the source, the
// build options and the platform, device and driver, under
// Options.CacheDir/opencl (else the CLANG device's default cache directory),
// so a second run builds nothing. DEBUG=1 names the platform and device and
// prints each kernel's device time (from profiling events), DEBUG=4 the
// OpenCL source.
package opencl

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unsafe"

	"tiny/codegen"
	"tiny/devices"
)

func init() { devices.RegisterProbed("GPU", Open, func() error { _, err := get(); return err }) }

// cl is the process's OpenCL context: one device, one in-order queue with
// profiling, shared by every Device value so that buffers pass between
// engines.
type cl struct {
	a        *api
	platform uintptr
	device   uintptr
	ctx      uintptr
	queue    uintptr
	target   codegen.CLTarget
	name     string // "platform / device"
	id       string // what identifies built binaries: platform, device, driver
	options  string // clBuildProgram options

	mu   sync.Mutex
	free map[int][]uintptr // released device buffers by size, for reuse
	held int               // bytes in free

	bmu   sync.Mutex
	built map[string]builtProg // programs built in this process, by their source rendered alone
}

var state struct {
	once sync.Once
	cl   *cl
	err  error
}

// get opens the OpenCL context on first use.
func get() (*cl, error) {
	state.once.Do(func() { state.cl, state.err = setup() })
	return state.cl, state.err
}

// Available reports the platform and device the GPU device would use, or
// why there is none.
func Available() (string, error) {
	c, err := get()
	if err != nil {
		return "", err
	}
	return c.name, nil
}

func setup() (*cl, error) {
	a, err := load()
	if err != nil {
		return nil, err
	}
	var n uint32
	if code := a.GetPlatformIDs(0, nil, &n); code != clSuccess || n == 0 {
		// ocl-icd answers CL_PLATFORM_NOT_FOUND_KHR when /etc/OpenCL/vendors lists no driver.
		return nil, fmt.Errorf("no OpenCL platform: the OpenCL library found no driver (status %d); install one, e.g. pocl-opencl-icd or the GPU vendor's (docs/opencl.md)", code)
	}
	platforms := make([]uintptr, n)
	if err := clError("clGetPlatformIDs", a.GetPlatformIDs(n, &platforms[0], nil)); err != nil {
		return nil, err
	}
	// A GPU on any platform first, else the first device of any kind.
	var plat, dev uintptr
	for _, typ := range []uint64{clDeviceTypeGPU, clDeviceTypeAll} {
		for _, p := range platforms {
			var d uintptr
			var nd uint32
			if a.GetDeviceIDs(p, typ, 1, &d, &nd) == clSuccess && nd > 0 {
				plat, dev = p, d
				break
			}
		}
		if dev != 0 {
			break
		}
	}
	if dev == 0 {
		return nil, fmt.Errorf("no OpenCL device on %d platform(s)", n)
	}
	c := &cl{a: a, platform: plat, device: dev, free: map[int][]uintptr{}, built: map[string]builtProg{}}
	pinfo := func(param uint32) string {
		return infoString(func(size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
			return a.GetPlatformInfo(plat, param, size, v, ret)
		})
	}
	dinfo := func(param uint32) func(size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
		return func(size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
			return a.GetDeviceInfo(dev, param, size, v, ret)
		}
	}
	ext := " " + infoString(dinfo(clDeviceExtensions)) + " "
	c.target = codegen.CLTarget{
		ComputeUnits: int(infoUint(dinfo(clDeviceMaxComputeUnits), 4)),
		MaxWorkGroup: int(infoUint(dinfo(clDeviceMaxWorkGroupSize), 8)),
		LocalMem:     int(infoUint(dinfo(clDeviceLocalMemSize), 8)),
		FP16:         strings.Contains(ext, " cl_khr_fp16 "),
		FP64:         strings.Contains(ext, " cl_khr_fp64 "),
	}
	c.name = pinfo(clPlatformName) + " / " + infoString(dinfo(clDeviceName))
	c.id = strings.Join([]string{pinfo(clPlatformName), pinfo(clPlatformVersion), infoString(dinfo(clDeviceName)),
		infoString(dinfo(clDeviceVersion)), infoString(dinfo(clDeviceDriverVersion))}, "\x00")
	// No warnings: pocl prints a build's diagnostics to the process's
	// stderr, and a failed build's errors come back in the log anyway.
	// Division and sqrt rounded as on the host where the device can.
	c.options = "-w"
	if infoUint(dinfo(clDeviceSingleFPConfig), 8)&clFPCorrectlyRoundedDivideSqrt != 0 {
		c.options += " -cl-fp32-correctly-rounded-divide-sqrt"
	}
	var code int32
	c.ctx = a.CreateContext(nil, 1, &c.device, 0, 0, &code)
	if err := clError("clCreateContext", code); err != nil {
		return nil, err
	}
	c.queue = a.CreateCommandQueue(c.ctx, c.device, clQueueProfilingEnable, &code)
	if err := clError("clCreateCommandQueue", code); err != nil {
		return nil, err
	}
	return c, nil
}

// Device runs programs on the process's OpenCL device.
type Device struct {
	opts devices.Options
	log  io.Writer
	cl   *cl
}

// Open returns the GPU device, or why OpenCL cannot run here.
func Open(opts devices.Options) (devices.Device, error) {
	c, err := get()
	if err != nil {
		return nil, err
	}
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	if opts.Debug >= 1 {
		t := c.target
		fmt.Fprintf(log, "opencl: %s (%d compute units, work-groups up to %d, %d KiB local memory, fp16 %v, fp64 %v)\n",
			c.name, t.ComputeUnits, t.MaxWorkGroup, t.LocalMem>>10, t.FP16, t.FP64)
	}
	return &Device{opts: opts, log: log, cl: c}, nil
}

// Name returns "GPU".
func (d *Device) Name() string { return "GPU" }

// Synchronize waits for every kernel queued so far.
func (d *Device) Synchronize() error {
	return clError("clFinish", d.cl.a.Finish(d.cl.queue))
}

// Probe names the platform and device.
func (d *Device) Probe() (string, error) { return d.cl.name, nil }

// LowerOptions asks codegen for plain loop nests: the output loops become
// work-items here, so the CPU's register tiles, reduce lanes and worker
// splits would only serialize work inside one work-item.
func (d *Device) LowerOptions() codegen.Options {
	return codegen.Options{NoReorder: true, NoSplit: true}
}

// Compile renders p as OpenCL C, builds it (or loads the cached binary) and
// creates its kernels.
func (d *Device) Compile(p *codegen.Program) (devices.Runner, error) {
	rs, err := d.CompileBatch([]*codegen.Program{p})
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}

// CompileBatch builds several programs as one OpenCL program: a driver's
// build has a large fixed cost (about a second for pocl here, mostly its
// C front end reading the OpenCL headers, against a few tens of
// milliseconds a kernel). Programs built earlier in the process, by this
// or any Device (Prebuild, another engine), are not built again.
func (d *Device) CompileBatch(ps []*codegen.Program) ([]devices.Runner, error) {
	progs := make([]*codegen.CLProgram, len(ps))
	rs := make([]devices.Runner, len(ps))
	var todo []int
	for i, p := range ps {
		prog, err := codegen.RenderCL(p, d.cl.target)
		if err != nil {
			return nil, fmt.Errorf("opencl: %w", err)
		}
		if d.opts.Debug >= 4 {
			fmt.Fprintf(d.log, "%s\n", prog.Source)
		}
		progs[i] = prog
		if b, ok := d.cl.lookup(prog.Source); ok {
			r, err := d.kernels(p, b.prog, b.h)
			if err != nil {
				return nil, err
			}
			rs[i] = r
			continue
		}
		todo = append(todo, i)
	}
	if len(todo) == 0 {
		return rs, nil
	}
	built, err := d.cl.buildAll(ps, progs, todo, d.opts.CacheDir, true)
	if err != nil {
		return nil, err
	}
	if d.opts.Debug >= 2 && built {
		for _, i := range todo {
			fmt.Fprintf(d.log, "opencl: built %s\n", ps[i].Name)
		}
	}
	for _, i := range todo {
		b, _ := d.cl.lookup(progs[i].Source)
		r, err := d.kernels(ps[i], b.prog, b.h)
		if err != nil {
			return nil, err
		}
		rs[i] = r
	}
	return rs, nil
}

// builtProg is a program built in this process: the OpenCL program that
// holds its kernels and the program as rendered there (its kernels renamed
// when it was built beside others).
type builtProg struct {
	h    uintptr
	prog *codegen.CLProgram
}

// maxBuilt bounds the programs remembered by source. Forgetting one only
// costs a rebuild; its OpenCL program lives on in the runners made from it.
const maxBuilt = 1 << 14

// lookup returns the built program of a source rendered alone.
func (c *cl) lookup(src string) (builtProg, bool) {
	c.bmu.Lock()
	defer c.bmu.Unlock()
	b, ok := c.built[src]
	return b, ok
}

// buildAll builds the programs ps[i], i in idx (progs[i] rendered alone),
// as one OpenCL program and remembers each by its source. Each program's
// kernels are named there with its position, so that programs of the same
// name do not collide. cache says whether the binary goes to the disk
// cache. built reports whether the driver compiled the source (not found
// in the cache).
func (c *cl) buildAll(ps []*codegen.Program, progs []*codegen.CLProgram, idx []int, cacheDir string, cache bool) (built bool, err error) {
	named := make([]*codegen.CLProgram, len(idx))
	var src strings.Builder
	for j, i := range idx {
		named[j] = progs[i]
		if len(idx) > 1 {
			q := *ps[i]
			q.Name = fmt.Sprintf("%s_%d", ps[i].Name, j)
			if named[j], err = codegen.RenderCL(&q, c.target); err != nil {
				return false, fmt.Errorf("opencl: %w", err)
			}
		}
		src.WriteString(named[j].Source)
	}
	if !cache {
		cacheDir = "-"
	}
	h, built, err := c.build(src.String(), cacheDir)
	if err != nil {
		return false, fmt.Errorf("opencl: %s: %w", ps[idx[0]].Name, err)
	}
	c.bmu.Lock()
	defer c.bmu.Unlock()
	if len(c.built)+len(idx) > maxBuilt {
		clear(c.built)
	}
	for j, i := range idx {
		c.built[progs[i].Source] = builtProg{h: h, prog: named[j]}
	}
	return built, nil
}

// Prebuild builds the programs ps for the process's OpenCL device ahead of
// their use, many to a driver build (prebuildBatch), so that a later
// Compile of any of them, by any Device, finds it built. A test sweep of
// thousands of small programs, each of which would otherwise be built on
// its own as its schedule comes, records them first (Recorder) and builds
// them here. A batch the driver rejects is left to Compile, which builds
// each program on its own and reports the one at fault. Prebuild returns
// how many programs it built.
func Prebuild(ps []*codegen.Program) (int, error) {
	c, err := get()
	if err != nil {
		return 0, err
	}
	var todo []*codegen.Program
	var progs []*codegen.CLProgram
	seen := map[string]bool{}
	for _, p := range ps {
		prog, err := codegen.RenderCL(p, c.target)
		if err != nil {
			continue // Compile reports it
		}
		if _, ok := c.lookup(prog.Source); ok || seen[prog.Source] {
			continue
		}
		seen[prog.Source] = true
		todo, progs = append(todo, p), append(progs, prog)
	}
	n := 0
	for start := 0; start < len(todo); start += prebuildBatch {
		idx := make([]int, 0, prebuildBatch)
		for i := start; i < min(start+prebuildBatch, len(todo)); i++ {
			idx = append(idx, i)
		}
		if _, err := c.buildAll(todo, progs, idx, "", false); err == nil {
			n += len(idx)
		}
	}
	return n, nil
}

// prebuildBatch is how many programs Prebuild builds at once: enough that
// the driver's fixed cost a build is small beside its kernels' (pocl: about
// a second against 50-100 ms a kernel), few enough that one rejected
// program costs the rest of its batch little.
const prebuildBatch = 200

// kernels returns the runner of prog's kernels in the built program h.
func (d *Device) kernels(p *codegen.Program, prog *codegen.CLProgram, h uintptr) (*runner, error) {
	r := &runner{p: p, prog: prog, cl: d.cl, program: h, debug: d.opts.Debug, log: d.log}
	for _, k := range prog.Kernels {
		var code int32
		name := cstr(k.Name)
		kh := d.cl.a.CreateKernel(h, &name[0], &code)
		if err := clError("clCreateKernel "+k.Name, code); err != nil {
			return nil, fmt.Errorf("opencl: %w", err)
		}
		var wg uint64
		d.cl.a.GetKernelWorkGroupInfo(kh, d.cl.device, clKernelWorkGroupSize, 8, unsafe.Pointer(&wg), nil)
		r.kernels = append(r.kernels, kernel{h: kh, maxLocal: int(wg)})
	}
	return r, nil
}

// mem is a device buffer holding a devices.Buffer's data.
type mem struct {
	cl   *cl
	h    uintptr
	size int
	once sync.Once
}

// Read copies the device data to dst.
func (m *mem) Read(dst []byte) error {
	if len(dst) == 0 {
		return nil
	}
	return clError("clEnqueueReadBuffer", m.cl.a.EnqueueReadBuffer(m.cl.queue, m.h, 1, 0, uintptr(len(dst)), unsafe.Pointer(&dst[0]), 0, nil, nil))
}

// Release returns the device buffer to the context's pool.
func (m *mem) Release() { m.once.Do(func() { m.cl.put(m.h, m.size) }) }

// poolBytes bounds the device memory kept for reuse.
const poolBytes = 256 << 20

// alloc returns a device buffer of at least size bytes.
func (c *cl) alloc(size int) (uintptr, int, error) {
	size = max((size+63)&^63, 64)
	c.mu.Lock()
	if l := c.free[size]; len(l) > 0 {
		h := l[len(l)-1]
		c.free[size] = l[:len(l)-1]
		c.held -= size
		c.mu.Unlock()
		return h, size, nil
	}
	c.mu.Unlock()
	var code int32
	h := c.a.CreateBuffer(c.ctx, clMemReadWrite, uintptr(size), nil, &code)
	if err := clError(fmt.Sprintf("clCreateBuffer(%d bytes)", size), code); err != nil {
		return 0, 0, err
	}
	return h, size, nil
}

// put keeps a device buffer for reuse, or frees it past poolBytes.
func (c *cl) put(h uintptr, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held+size <= poolBytes {
		c.free[size] = append(c.free[size], h)
		c.held += size
		return
	}
	c.a.ReleaseMemObject(h)
}

// onDevice returns b's device buffer, copying b's data there unless the
// device already holds it.
func (c *cl) onDevice(b *devices.Buffer, output bool) (*mem, error) {
	if m, current := b.Mirrored(); current {
		if mm, ok := m.(*mem); ok && mm.cl == c {
			return mm, nil
		}
	}
	h, size, err := c.alloc(len(b.Data))
	if err != nil {
		return nil, err
	}
	m := &mem{cl: c, h: h, size: size}
	if !output && len(b.Data) > 0 {
		b.Sync() // the host copy is current (another device's mirror)
		if err := clError("clEnqueueWriteBuffer", c.a.EnqueueWriteBuffer(c.queue, h, 1, 0, uintptr(len(b.Data)), unsafe.Pointer(&b.Data[0]), 0, nil, nil)); err != nil {
			m.Release()
			return nil, err
		}
	}
	b.SetMirror(m, false)
	return m, nil
}
