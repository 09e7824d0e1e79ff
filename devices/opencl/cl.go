package opencl

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// This file binds the part of the OpenCL 1.2 C API the device uses. The
// library is opened with purego's Dlopen and its functions registered as Go
// function values, so that tiny builds with CGO_ENABLED=0 and a machine
// without OpenCL only loses this device: a cgo binding would need the
// OpenCL headers and libOpenCL at build time and fail to start without the
// library. Handles (cl_platform_id, cl_mem, ...) are opaque pointers, kept
// as uintptr; they are never Go memory.

// The OpenCL constants used (CL/cl.h).
const (
	clSuccess = 0

	clPlatformName    = 0x0902
	clPlatformVersion = 0x0901

	clDeviceTypeGPU = 1 << 2
	clDeviceTypeAll = 0xFFFFFFFF

	clDeviceMaxComputeUnits  = 0x1002
	clDeviceMaxWorkGroupSize = 0x1004
	clDeviceSingleFPConfig   = 0x101B
	clDeviceLocalMemSize     = 0x1023
	clDeviceName             = 0x102B
	clDeviceDriverVersion    = 0x102D
	clDeviceVersion          = 0x102F
	clDeviceExtensions       = 0x1030

	clFPCorrectlyRoundedDivideSqrt = 1 << 7

	clQueueProfilingEnable = 1 << 1
	clMemReadWrite         = 1 << 0

	clProgramBinarySizes = 0x1165
	clProgramBinaries    = 0x1166
	clProgramBuildLog    = 0x1183

	clKernelWorkGroupSize = 0x11B0

	clProfilingCommandStart = 0x1282
	clProfilingCommandEnd   = 0x1283
)

// api holds the library's functions.
type api struct {
	GetPlatformIDs     func(n uint32, platforms *uintptr, num *uint32) int32
	GetPlatformInfo    func(p uintptr, param uint32, size uintptr, value unsafe.Pointer, ret *uintptr) int32
	GetDeviceIDs       func(p uintptr, typ uint64, n uint32, devs *uintptr, num *uint32) int32
	GetDeviceInfo      func(d uintptr, param uint32, size uintptr, value unsafe.Pointer, ret *uintptr) int32
	CreateContext      func(props unsafe.Pointer, n uint32, devs *uintptr, notify, user uintptr, errcode *int32) uintptr
	CreateCommandQueue func(ctx, dev uintptr, props uint64, errcode *int32) uintptr
	CreateBuffer       func(ctx uintptr, flags uint64, size uintptr, host unsafe.Pointer, errcode *int32) uintptr
	ReleaseMemObject   func(m uintptr) int32
	EnqueueWriteBuffer func(q, m uintptr, blocking uint32, off, size uintptr, ptr unsafe.Pointer, nwait uint32, wait *uintptr, ev *uintptr) int32
	EnqueueReadBuffer  func(q, m uintptr, blocking uint32, off, size uintptr, ptr unsafe.Pointer, nwait uint32, wait *uintptr, ev *uintptr) int32

	CreateProgramWithSource func(ctx uintptr, n uint32, strs **byte, lens *uintptr, errcode *int32) uintptr
	CreateProgramWithBinary func(ctx uintptr, n uint32, devs *uintptr, lens *uintptr, bins **byte, status *int32, errcode *int32) uintptr
	BuildProgram            func(p uintptr, n uint32, devs *uintptr, opts *byte, notify, user uintptr) int32
	GetProgramBuildInfo     func(p, d uintptr, param uint32, size uintptr, value unsafe.Pointer, ret *uintptr) int32
	GetProgramInfo          func(p uintptr, param uint32, size uintptr, value unsafe.Pointer, ret *uintptr) int32
	ReleaseProgram          func(p uintptr) int32
	CreateKernel            func(p uintptr, name *byte, errcode *int32) uintptr
	ReleaseKernel           func(k uintptr) int32
	SetKernelArg            func(k uintptr, i uint32, size uintptr, value unsafe.Pointer) int32
	GetKernelWorkGroupInfo  func(k, d uintptr, param uint32, size uintptr, value unsafe.Pointer, ret *uintptr) int32
	EnqueueNDRangeKernel    func(q, k uintptr, dim uint32, off, global, local *uintptr, nwait uint32, wait *uintptr, ev *uintptr) int32
	Finish                  func(q uintptr) int32
	WaitForEvents           func(n uint32, evs *uintptr) int32
	GetEventProfilingInfo   func(ev uintptr, param uint32, size uintptr, value unsafe.Pointer, ret *uintptr) int32
	ReleaseEvent            func(ev uintptr) int32
}

// libNames are the names the OpenCL ICD loader goes by: ocl-icd's and
// Khronos' loader on Linux, then the unversioned development link.
var libNames = []string{"libOpenCL.so.1", "libOpenCL.so"}

// load opens the OpenCL library and binds every function of api.
func load() (*api, error) {
	var h uintptr
	var errs []string
	for _, name := range libNames {
		var err error
		if h, err = purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL); err == nil {
			break
		}
		errs = append(errs, err.Error())
	}
	if h == 0 {
		return nil, fmt.Errorf("no OpenCL library (%s); install an ICD loader such as ocl-icd-libopencl1 and a driver (docs/opencl.md)", strings.Join(errs, "; "))
	}
	a := &api{}
	for _, f := range []struct {
		name string
		fn   any
	}{
		{"clGetPlatformIDs", &a.GetPlatformIDs}, {"clGetPlatformInfo", &a.GetPlatformInfo},
		{"clGetDeviceIDs", &a.GetDeviceIDs}, {"clGetDeviceInfo", &a.GetDeviceInfo},
		{"clCreateContext", &a.CreateContext}, {"clCreateCommandQueue", &a.CreateCommandQueue},
		{"clCreateBuffer", &a.CreateBuffer}, {"clReleaseMemObject", &a.ReleaseMemObject},
		{"clEnqueueWriteBuffer", &a.EnqueueWriteBuffer}, {"clEnqueueReadBuffer", &a.EnqueueReadBuffer},
		{"clCreateProgramWithSource", &a.CreateProgramWithSource}, {"clCreateProgramWithBinary", &a.CreateProgramWithBinary},
		{"clBuildProgram", &a.BuildProgram}, {"clGetProgramBuildInfo", &a.GetProgramBuildInfo},
		{"clGetProgramInfo", &a.GetProgramInfo}, {"clReleaseProgram", &a.ReleaseProgram},
		{"clCreateKernel", &a.CreateKernel}, {"clReleaseKernel", &a.ReleaseKernel},
		{"clSetKernelArg", &a.SetKernelArg}, {"clGetKernelWorkGroupInfo", &a.GetKernelWorkGroupInfo},
		{"clEnqueueNDRangeKernel", &a.EnqueueNDRangeKernel}, {"clFinish", &a.Finish},
		{"clWaitForEvents", &a.WaitForEvents}, {"clGetEventProfilingInfo", &a.GetEventProfilingInfo},
		{"clReleaseEvent", &a.ReleaseEvent},
	} {
		sym, err := purego.Dlsym(h, f.name)
		if err != nil {
			return nil, fmt.Errorf("the OpenCL library has no %s: %v", f.name, err)
		}
		purego.RegisterFunc(f.fn, sym)
	}
	return a, nil
}

// clError turns an OpenCL status code into an error naming the call.
func clError(call string, code int32) error {
	if code == clSuccess {
		return nil
	}
	name := errNames[code]
	if name == "" {
		name = fmt.Sprintf("error %d", code)
	}
	return fmt.Errorf("%s: %s", call, name)
}

// errBuild is wrapped by a clBuildProgram failure, whose message carries
// the build log.
var errBuild = errors.New("OpenCL build failed")

var errNames = map[int32]string{
	-1: "CL_DEVICE_NOT_FOUND", -2: "CL_DEVICE_NOT_AVAILABLE", -3: "CL_COMPILER_NOT_AVAILABLE",
	-4: "CL_MEM_OBJECT_ALLOCATION_FAILURE", -5: "CL_OUT_OF_RESOURCES", -6: "CL_OUT_OF_HOST_MEMORY",
	-7: "CL_PROFILING_INFO_NOT_AVAILABLE", -11: "CL_BUILD_PROGRAM_FAILURE", -30: "CL_INVALID_VALUE",
	-32: "CL_INVALID_PLATFORM", -33: "CL_INVALID_DEVICE", -34: "CL_INVALID_CONTEXT",
	-36: "CL_INVALID_COMMAND_QUEUE", -38: "CL_INVALID_MEM_OBJECT", -42: "CL_INVALID_BINARY",
	-43: "CL_INVALID_BUILD_OPTIONS", -44: "CL_INVALID_PROGRAM", -45: "CL_INVALID_PROGRAM_EXECUTABLE",
	-46: "CL_INVALID_KERNEL_NAME", -48: "CL_INVALID_KERNEL", -49: "CL_INVALID_ARG_INDEX",
	-50: "CL_INVALID_ARG_VALUE", -51: "CL_INVALID_ARG_SIZE", -52: "CL_INVALID_KERNEL_ARGS",
	-53: "CL_INVALID_WORK_DIMENSION", -54: "CL_INVALID_WORK_GROUP_SIZE", -55: "CL_INVALID_WORK_ITEM_SIZE",
	-58: "CL_INVALID_EVENT", -61: "CL_INVALID_BUFFER_SIZE", -63: "CL_INVALID_GLOBAL_WORK_SIZE",
	-1001: "CL_PLATFORM_NOT_FOUND_KHR",
}

// cstr returns s as a NUL-terminated byte slice.
func cstr(s string) []byte { return append([]byte(s), 0) }

// infoString reads a string-valued info query through get.
func infoString(get func(size uintptr, value unsafe.Pointer, ret *uintptr) int32) string {
	var n uintptr
	if get(0, nil, &n) != clSuccess || n == 0 {
		return ""
	}
	b := make([]byte, n)
	if get(n, unsafe.Pointer(&b[0]), nil) != clSuccess {
		return ""
	}
	return strings.TrimRight(string(b), "\x00 ")
}

// infoUint reads an integer-valued info query of size bytes (4 or 8).
func infoUint(get func(size uintptr, value unsafe.Pointer, ret *uintptr) int32, size uintptr) uint64 {
	var v uint64
	if get(size, unsafe.Pointer(&v), nil) != clSuccess {
		return 0
	}
	return v
}
