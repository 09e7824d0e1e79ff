package opencl

import (
	"sync"

	"tiny/codegen"
	"tiny/devices"
)

// Recorder is a device that lowers programs as the GPU device does and
// runs them on a host device (the CPU device, in tests), keeping every
// program it compiles. A sweep of thousands of small programs, each
// realized on its own, would build each kernel in a driver build of its
// own on GPU (about a second each on pocl); run on a Recorder first, the
// sweep's programs are then built together by Prebuild, and the same sweep
// on GPU finds every kernel built. The Recorder needs no OpenCL until
// Prebuild.
type Recorder struct {
	host  devices.Device
	mu    sync.Mutex
	progs []*codegen.Program
}

// NewRecorder returns a Recorder that runs programs on host.
func NewRecorder(host devices.Device) *Recorder { return &Recorder{host: host} }

// Name returns "GPU": scripts run on a Recorder see the device they will
// run on.
func (r *Recorder) Name() string { return "GPU" }

// LowerOptions are the GPU device's.
func (r *Recorder) LowerOptions() codegen.Options { return (*Device)(nil).LowerOptions() }

// Compile keeps p and compiles it for the host device.
func (r *Recorder) Compile(p *codegen.Program) (devices.Runner, error) {
	r.mu.Lock()
	r.progs = append(r.progs, p)
	r.mu.Unlock()
	return r.host.Compile(p)
}

// Programs returns the programs compiled so far, in order.
func (r *Recorder) Programs() []*codegen.Program {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*codegen.Program(nil), r.progs...)
}

// Prebuild builds the recorded programs on the GPU device (Prebuild) and
// returns how many it built.
func (r *Recorder) Prebuild() (int, error) { return Prebuild(r.Programs()) }
