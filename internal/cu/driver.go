// Package cu is the CUDA engine on typed bindings: the driver (libcuda) opened once with every
// function it calls resolved at that moment, one executor per device (a locked OS thread that
// holds the device's primary context), streams, memory, events, modules and launches, and the
// CUDA libraries' tables of bindings (libs.go), each resolved when its library opens. It has
// no build tag; the root package's cuda-tagged files are its only users.
package cu

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/dl"
)

// LibDirs are the folders tried, after the loader's own search, for the CUDA libraries: the
// driver's usual homes and the toolkit's.
var LibDirs = []string{
	"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib",
	"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/lib/wsl/lib",
}

// OpenLib opens the first of names that loads, in the loader's search and then LibDirs.
func OpenLib(lib, missing string, names ...string) (*dl.Lib, error) {
	return dl.Open(lib, missing, LibDirs, names...)
}

// driver is every driver function the engine calls, resolved when libcuda opens. The CPU
// emulator's stand-in libcuda (kernels/emu/driver.cc) exports each of them.
type driver struct {
	init               *dl.Proc `sym:"cuInit"`
	getErrorName       *dl.Proc `sym:"cuGetErrorName"`
	driverGetVersion   *dl.Proc `sym:"cuDriverGetVersion"`
	deviceGetCount     *dl.Proc `sym:"cuDeviceGetCount"`
	deviceGet          *dl.Proc `sym:"cuDeviceGet"`
	deviceGetName      *dl.Proc `sym:"cuDeviceGetName"`
	deviceGetAttribute *dl.Proc `sym:"cuDeviceGetAttribute"`
	deviceTotalMem     *dl.Proc `sym:"cuDeviceTotalMem_v2"`
	primaryCtxRetain   *dl.Proc `sym:"cuDevicePrimaryCtxRetain"`
	ctxSetCurrent      *dl.Proc `sym:"cuCtxSetCurrent"`
	streamCreate       *dl.Proc `sym:"cuStreamCreate"`
	streamDestroy      *dl.Proc `sym:"cuStreamDestroy_v2"`
	streamSynchronize  *dl.Proc `sym:"cuStreamSynchronize"`
	memAlloc           *dl.Proc `sym:"cuMemAlloc_v2"`
	memFree            *dl.Proc `sym:"cuMemFree_v2"`
	memGetInfo         *dl.Proc `sym:"cuMemGetInfo_v2"`
	memAllocHost       *dl.Proc `sym:"cuMemAllocHost_v2"`
	memFreeHost        *dl.Proc `sym:"cuMemFreeHost"`
	memcpyHtoDAsync    *dl.Proc `sym:"cuMemcpyHtoDAsync_v2"`
	memcpyDtoHAsync    *dl.Proc `sym:"cuMemcpyDtoHAsync_v2"`
	memsetD32Async     *dl.Proc `sym:"cuMemsetD32Async"`
	moduleLoadData     *dl.Proc `sym:"cuModuleLoadData"`
	moduleGetFunction  *dl.Proc `sym:"cuModuleGetFunction"`
	funcSetAttribute   *dl.Proc `sym:"cuFuncSetAttribute"`
	launchKernel       *dl.Proc `sym:"cuLaunchKernel"`
	eventCreate        *dl.Proc `sym:"cuEventCreate"`
	eventDestroy       *dl.Proc `sym:"cuEventDestroy_v2"`
	eventRecord        *dl.Proc `sym:"cuEventRecord"`
	eventSynchronize   *dl.Proc `sym:"cuEventSynchronize"`
	eventElapsedTime   *dl.Proc `sym:"cuEventElapsedTime"`
}

var (
	drvOnce sync.Once
	drv     driver
	drvErr  error
)

// Open opens libcuda, resolves the driver's functions and initializes it, once per process.
func Open() error {
	drvOnce.Do(func() {
		lib, err := OpenLib("cuda", "no NVIDIA driver: libcuda.so.1 not found; use the host backend (batchlas.Host) or install the NVIDIA driver",
			"libcuda.so.1", "libcuda.so")
		if err != nil {
			drvErr = err
			return
		}
		if drvErr = lib.Resolve(&drv); drvErr != nil {
			return
		}
		lib.StatusName = errorName
		if err := drv.init.Status(0); err != nil {
			drvErr = &NoGPUError{err}
		}
	})
	return drvErr
}

// NoGPUError is the error of a driver that loads but answers cuInit with a failure (no
// device, a driver and kernel module that disagree): one line that says so and what to do,
// with the driver's error inside.
type NoGPUError struct{ err error }

func (e *NoGPUError) Error() string {
	return "batchlas: no NVIDIA GPU answers: " + strings.TrimPrefix(e.err.Error(), "batchlas: ") + "; use the host backend (batchlas.Host)"
}

func (e *NoGPUError) Unwrap() error { return e.err }

func errorName(status int32) string {
	var p uintptr
	if r := drv.getErrorName.Call(uintptr(status), uintptr(unsafe.Pointer(&p))); r != 0 || p == 0 {
		return fmt.Sprintf("CUresult %d", status)
	}
	return dl.GoString(p)
}
