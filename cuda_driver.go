//go:build cuda

package batchlas

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/dl"
)

// The CUDA driver API, opened at run time. Every call goes through check, which turns a
// nonzero CUresult into a *DeviceError named by cuGetErrorName.

var (
	cuOnce sync.Once
	cuLib  *dl.Lib
	cuErr  error
)

// cudaDriver opens libcuda and initializes it, once per process.
func cudaDriver() (*dl.Lib, error) {
	cuOnce.Do(func() {
		cuLib, cuErr = openLib("cuda", "no NVIDIA driver: libcuda.so.1 not found; use the host backend (batchlas.Host) or install the NVIDIA driver",
			"libcuda.so.1", "libcuda.so")
		if cuErr != nil {
			return
		}
		cuLib.StatusName = cuErrorName
		if err := cuLib.Call("cuInit", 0); err != nil {
			cuErr = &noGPUError{err}
		}
	})
	return cuLib, cuErr
}

// noGPUError is the error of a driver that loads but answers cuInit with a failure (no
// device, a driver and kernel module that disagree): one line that says so and what to do,
// with the driver's *DeviceError inside.
type noGPUError struct{ err error }

func (e *noGPUError) Error() string {
	return "batchlas: no NVIDIA GPU answers: " + unprefixed(e.err.Error()) + "; use the host backend (batchlas.Host)"
}

func (e *noGPUError) Unwrap() error { return e.err }

func cuErrorName(status int32) string {
	var p uintptr
	fn, err := cuLib.Sym("cuGetErrorName")
	if err != nil {
		return fmt.Sprintf("CUresult %d", status)
	}
	if r := fn.Call(uintptr(status), uintptr(unsafe.Pointer(&p))); r != 0 || p == 0 {
		return fmt.Sprintf("CUresult %d", status)
	}
	return dl.GoString(p)
}

// Device attributes (CUdevice_attribute).
const (
	cuAttrMaxThreadsPerBlock = 1
	cuAttrWarpSize           = 10
	cuAttrMultiprocessors    = 16
	cuAttrCCMajor            = 75
	cuAttrCCMinor            = 76
	cuAttrSharedOptin        = 97
)

const cuStreamNonBlocking = 1

// cuExec owns one device's primary context on one locked OS thread. The driver binds a
// context to a thread, so every driver and library call for the device runs there: do
// funnels work to it.
type cuExec struct {
	ordinal int
	work    chan func()
	dev     Device

	// Owned by the executor thread.
	ctx     uintptr
	modules map[string]uintptr // fatbin name -> CUmodule
	funcs   map[string]uintptr // "fatbin/kernel" -> CUfunction
	vendor  any                // vendor library handles, created on first use
}

var (
	execMu sync.Mutex
	execs  = map[int]*cuExec{}
)

// cudaExecutor returns the executor of device ordinal, starting it on first use. An
// executor lives as long as the process: the primary context stays retained.
func cudaExecutor(ordinal int) (*cuExec, error) {
	execMu.Lock()
	defer execMu.Unlock()
	if e := execs[ordinal]; e != nil {
		return e, nil
	}
	lib, err := cudaDriver()
	if err != nil {
		return nil, err
	}
	e := &cuExec{ordinal: ordinal, work: make(chan func()), modules: map[string]uintptr{}, funcs: map[string]uintptr{}}
	started := make(chan error)
	go e.loop(lib, started)
	if err := <-started; err != nil {
		return nil, err
	}
	execs[ordinal] = e
	return e, nil
}

func (e *cuExec) loop(lib *dl.Lib, started chan<- error) {
	runtime.LockOSThread()
	err := e.open(lib)
	started <- err
	if err != nil {
		return // the thread stays locked and exits with the goroutine
	}
	for f := range e.work {
		f()
	}
}

func (e *cuExec) open(lib *dl.Lib) error {
	var dev int32
	var n int32
	if err := lib.Call("cuDeviceGetCount", uintptr(unsafe.Pointer(&n))); err != nil {
		return err
	}
	if int(n) <= e.ordinal {
		return fmt.Errorf("batchlas: cuda: no device %d (%d devices)", e.ordinal, n)
	}
	if err := lib.Call("cuDeviceGet", uintptr(unsafe.Pointer(&dev)), uintptr(e.ordinal)); err != nil {
		return err
	}
	if err := lib.Call("cuDevicePrimaryCtxRetain", uintptr(unsafe.Pointer(&e.ctx)), uintptr(dev)); err != nil {
		return err
	}
	if err := lib.Call("cuCtxSetCurrent", e.ctx); err != nil {
		return err
	}
	d, err := deviceFacts(lib, dev)
	e.dev = d
	return err
}

func deviceFacts(lib *dl.Lib, dev int32) (Device, error) {
	name := make([]byte, 256)
	if err := lib.Call("cuDeviceGetName", uintptr(unsafe.Pointer(&name[0])), uintptr(len(name)), uintptr(dev)); err != nil {
		return Device{}, err
	}
	attr := func(a int) (int, error) {
		var v int32
		err := lib.Call("cuDeviceGetAttribute", uintptr(unsafe.Pointer(&v)), uintptr(a), uintptr(dev))
		return int(v), err
	}
	var vals [6]int
	for i, a := range []int{cuAttrCCMajor, cuAttrCCMinor, cuAttrMultiprocessors, cuAttrSharedOptin, cuAttrMaxThreadsPerBlock, cuAttrWarpSize} {
		v, err := attr(a)
		if err != nil {
			return Device{}, err
		}
		vals[i] = v
	}
	var mem uint64
	if err := lib.Call("cuDeviceTotalMem_v2", uintptr(unsafe.Pointer(&mem)), uintptr(dev)); err != nil {
		return Device{}, err
	}
	// cuDriverGetVersion answers the CUDA version the driver supports, e.g. 13000 for 13.0.
	var ver int32
	if err := lib.Call("cuDriverGetVersion", uintptr(unsafe.Pointer(&ver))); err != nil {
		return Device{}, err
	}
	arch := vals[0]*10 + vals[1]
	return Device{
		Backend: CUDA, Name: string(name[:max(0, bytes.IndexByte(name, 0))]), Key: fmt.Sprintf("sm_%d", arch),
		Family: "sm", Arch: arch, IsGPU: true, SubGroup: vals[5], SharedMem: vals[3], MaxBlock: vals[4],
		Units: vals[2], Memory: int64(mem), Driver: fmt.Sprintf("CUDA %d.%d", ver/1000, ver%1000/10),
	}, nil
}

// do runs f on the executor thread and returns its error.
func (e *cuExec) do(f func(lib *dl.Lib) error) error {
	done := make(chan error, 1)
	e.work <- func() { done <- f(cuLib) }
	return <-done
}
