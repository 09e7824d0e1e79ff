package opencl

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"time"
	"unsafe"

	"tiny/codegen"
	"tiny/devices"
)

// kernel is one built kernel of a runner.
type kernel struct {
	h        uintptr
	maxLocal int // CL_KERNEL_WORK_GROUP_SIZE: the most work-items a group of it may have
}

// runner runs one program's kernels.
type runner struct {
	mu      sync.Mutex // kernel arguments are state of the kernel objects
	p       *codegen.Program
	prog    *codegen.CLProgram
	cl      *cl
	program uintptr
	kernels []kernel
	debug   int
	log     io.Writer
	last    time.Duration
}

// pow2 returns the smallest power of two at least n (1 for n < 1).
func pow2(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// Source returns the kernel's OpenCL source, as DEBUG=4 prints it.
func (r *runner) Source() string { return r.prog.Source }

// DeviceTime returns the device time of the last run, from the profiling
// events of its kernels (0 when DEBUG is 0: the run is then not waited for).
func (r *runner) DeviceTime() time.Duration { return r.last }

// Run enqueues the program's kernels over bufs. The output stays on the
// device until the host reads it.
func (r *runner) Run(bufs []*devices.Buffer, vars map[string]int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, c := r.p, r.cl
	if err := devices.CheckBuffers("opencl", p, bufs); err != nil {
		return err
	}
	mems := make([]*mem, len(bufs))
	for i, b := range bufs {
		// An output that is also an input (an assign written in place)
		// needs its data on the device like any input.
		m, err := c.onDevice(b, i == 0 && !slices.Contains(bufs[1:], b))
		if err != nil {
			return fmt.Errorf("opencl: %s: %w", p.Name, err)
		}
		mems[i] = m
	}
	vals := make([]int64, len(r.prog.Vars))
	for i, name := range r.prog.Vars {
		v, ok := vars[name]
		if !ok {
			return fmt.Errorf("opencl: %s: no value for variable %s", p.Name, name)
		}
		vals[i] = v
	}
	var parts *mem
	var groups int64
	events := make([]uintptr, 0, len(r.kernels))
	defer func() {
		for _, ev := range events {
			c.a.ReleaseEvent(ev)
		}
		if parts != nil {
			parts.Release()
		}
	}()
	for ki, k := range r.prog.Kernels {
		kh := r.kernels[ki].h
		arg := uint32(0)
		set := func(size uintptr, v unsafe.Pointer) error {
			err := clError(fmt.Sprintf("clSetKernelArg %s #%d", k.Name, arg), c.a.SetKernelArg(kh, arg, size, v))
			arg++
			return err
		}
		for _, m := range mems {
			if err := set(8, unsafe.Pointer(&m.h)); err != nil {
				return err
			}
		}
		for i := range vals {
			if err := set(8, unsafe.Pointer(&vals[i])); err != nil {
				return err
			}
		}
		// The launch: global and local sizes.
		local := 0
		if k.Local > 0 {
			local = k.Local
			for local > 1 && local > r.kernels[ki].maxLocal {
				local /= 2
			}
		}
		var global []uintptr
		for d, dim := range k.Dims {
			n, err := r.prog.Size(dim, vars)
			if err != nil {
				return fmt.Errorf("opencl: %s: %w", p.Name, err)
			}
			if n == 0 && k.Groups > 0 {
				groups = 0 // an empty reduce: the finishing kernel writes the identity
				break
			}
			if n == 0 {
				return nil // no outputs
			}
			if d == 0 && k.Groups > 0 {
				n = int64(k.Groups)
				groups = n
			}
			if d == 0 && local > 0 {
				n *= int64(local)
			}
			global = append(global, uintptr(n))
		}
		if k.Parts {
			if parts == nil {
				var err error
				h, size, err := c.alloc(int(max(groups, 1)) * max(r.prog.PartBytes, 1))
				if err != nil {
					return fmt.Errorf("opencl: %s: %w", p.Name, err)
				}
				parts = &mem{cl: c, h: h, size: size}
			}
			if err := set(8, unsafe.Pointer(&parts.h)); err != nil {
				return err
			}
		}
		if k.Finish {
			if err := set(8, unsafe.Pointer(&groups)); err != nil {
				return err
			}
		}
		if k.LocalBytes > 0 {
			if err := set(uintptr(k.LocalBytes*max(local, 1)), nil); err != nil {
				return err
			}
		}
		if k.Groups > 0 && groups == 0 {
			continue
		}
		if len(global) == 0 {
			global = []uintptr{1}
		}
		if local == 0 {
			// One output per work-item: work-groups as long as the built
			// kernel allows along dimension 0 (the contiguous one), so a
			// group's work-items read neighbouring addresses. The kernel
			// returns past the end, so the range is rounded up to whole
			// groups.
			local = min(r.kernels[ki].maxLocal, pow2(int(global[0])))
			global[0] = (global[0] + uintptr(local) - 1) / uintptr(local) * uintptr(local)
		}
		lsz := [3]uintptr{uintptr(local), 1, 1}
		lp := &lsz[0]
		var ev uintptr
		var evp *uintptr
		if r.debug >= 1 {
			evp = &ev
		}
		code := c.a.EnqueueNDRangeKernel(c.queue, kh, uint32(len(global)), nil, &global[0], lp, 0, nil, evp)
		if err := clError("clEnqueueNDRangeKernel "+k.Name, code); err != nil {
			return fmt.Errorf("opencl: %s: %w (global %v, local %d)", p.Name, err, global, local)
		}
		if evp != nil {
			events = append(events, ev)
		}
	}
	bufs[0].SetMirror(mems[0], true)
	r.last = 0
	if len(events) > 0 {
		if err := clError("clWaitForEvents", c.a.WaitForEvents(uint32(len(events)), &events[0])); err != nil {
			return fmt.Errorf("opencl: %s: %w", p.Name, err)
		}
		for _, ev := range events {
			var start, end uint64
			c.a.GetEventProfilingInfo(ev, clProfilingCommandStart, 8, unsafe.Pointer(&start), nil)
			c.a.GetEventProfilingInfo(ev, clProfilingCommandEnd, 8, unsafe.Pointer(&end), nil)
			if end > start {
				r.last += time.Duration(end - start)
			}
		}
	}
	return nil
}
