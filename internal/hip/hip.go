// Package hip is the HIP engine on typed bindings, the same shape as internal/cu: the HIP
// runtime (libamdhip64) opened once with every function it calls resolved at that moment,
// device facts, streams, memory and events, and the openers of rocBLAS and rocSOLVER with
// their status names (libs.go). It needs no ROCm headers and has no build tag; the root
// package's rocm-tagged files are its only users.
//
// Unlike the CUDA driver, the HIP runtime keeps its context itself and every thread starts
// on device 0, so there is no executor thread: calls are made from any goroutine, and a
// queue's order is its stream's.
package hip

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/dl"
)

// LibDirs are the folders tried, after the loader's own search, for the ROCm libraries.
var LibDirs = []string{"/opt/rocm/lib", "/opt/rocm/lib64", "/usr/lib/x86_64-linux-gnu", "/usr/lib64"}

// OpenLib opens the first of names that loads, in the loader's search and then LibDirs.
func OpenLib(lib, missing string, names ...string) (*dl.Lib, error) {
	return dl.Open(lib, missing, LibDirs, names...)
}

// runtime is every HIP runtime function the engine calls, resolved when libamdhip64 opens.
// The stand-in (standin/hip.cc) exports each of them.
type runtime struct {
	init               *dl.Proc `sym:"hipInit"`
	getErrorName       *dl.Proc `sym:"hipGetErrorName"`
	runtimeGetVersion  *dl.Proc `sym:"hipRuntimeGetVersion"`
	getDeviceCount     *dl.Proc `sym:"hipGetDeviceCount"`
	setDevice          *dl.Proc `sym:"hipSetDevice"`
	getDeviceProps     *dl.Proc `sym:"hipGetDeviceProperties"`
	deviceGetAttribute *dl.Proc `sym:"hipDeviceGetAttribute"`
	deviceTotalMem     *dl.Proc `sym:"hipDeviceTotalMem"`
	memGetInfo         *dl.Proc `sym:"hipMemGetInfo"`
	malloc             *dl.Proc `sym:"hipMalloc"`
	free               *dl.Proc `sym:"hipFree"`
	memcpyAsync        *dl.Proc `sym:"hipMemcpyAsync"`
	memsetD32Async     *dl.Proc `sym:"hipMemsetD32Async"`
	streamCreate       *dl.Proc `sym:"hipStreamCreateWithFlags"`
	streamDestroy      *dl.Proc `sym:"hipStreamDestroy"`
	streamSynchronize  *dl.Proc `sym:"hipStreamSynchronize"`
	eventCreate        *dl.Proc `sym:"hipEventCreate"`
	eventDestroy       *dl.Proc `sym:"hipEventDestroy"`
	eventRecord        *dl.Proc `sym:"hipEventRecord"`
	eventSynchronize   *dl.Proc `sym:"hipEventSynchronize"`
	eventElapsedTime   *dl.Proc `sym:"hipEventElapsedTime"`
}

var (
	rtOnce sync.Once
	rt     runtime
	rtErr  error
)

// Open opens libamdhip64, resolves the runtime's functions and initializes it, once per
// process.
func Open() error {
	rtOnce.Do(func() {
		lib, err := OpenLib("hip", "no ROCm runtime: libamdhip64.so not found; use the host backend (batchlas.Host) or install ROCm",
			"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so")
		if err != nil {
			rtErr = err
			return
		}
		if rtErr = lib.Resolve(&rt); rtErr != nil {
			return
		}
		lib.StatusName = errorName
		if err := rt.init.Status(0); err != nil {
			rtErr = &NoGPUError{err}
		}
	})
	return rtErr
}

// NoGPUError is the error of a runtime that loads but answers hipInit or the device count
// with a failure or no device.
type NoGPUError struct{ err error }

func (e *NoGPUError) Error() string {
	return "batchlas: no AMD GPU answers: " + strings.TrimPrefix(e.err.Error(), "batchlas: ") + "; use the host backend (batchlas.Host)"
}

func (e *NoGPUError) Unwrap() error { return e.err }

func errorName(status int32) string {
	if p := rt.getErrorName.Call(uintptr(status)); p != 0 {
		return dl.GoString(p)
	}
	return fmt.Sprintf("hipError_t %d", status)
}

// Device attributes (hipDeviceAttribute_t of HIP 6).
const (
	attrMaxThreadsPerBlock = 56
	attrWarpSize           = 87
	attrMultiprocessors    = 63
	attrSharedPerBlock     = 74
)

// Facts are what the runtime says of a device.
type Facts struct {
	Name                 string // the marketing name, e.g. "AMD Instinct MI250X"
	Arch                 string // the ISA, e.g. "gfx90a", from hipDeviceProp_t.gcnArchName
	Multiprocessors      int    // compute units
	SharedPerBlock       int    // LDS bytes a block may use
	MaxThreads, WarpSize int
	Memory               int64
	Version              int // the HIP runtime version, e.g. 60241134
}

// Device selects device ordinal for the calling thread and answers its facts.
func Device(ordinal int) (Facts, error) {
	if err := Open(); err != nil {
		return Facts{}, err
	}
	var n int32
	if err := rt.getDeviceCount.Status(uintptr(unsafe.Pointer(&n))); err != nil {
		return Facts{}, &NoGPUError{err}
	}
	if int(n) <= ordinal {
		return Facts{}, fmt.Errorf("batchlas: hip: no device %d (%d devices)", ordinal, n)
	}
	if err := rt.setDevice.Status(uintptr(ordinal)); err != nil {
		return Facts{}, err
	}
	props := make([]byte, propsBytes)
	if err := rt.getDeviceProps.Status(uintptr(unsafe.Pointer(&props[0])), uintptr(ordinal)); err != nil {
		return Facts{}, err
	}
	var vals [4]int
	for i, a := range []int{attrMultiprocessors, attrSharedPerBlock, attrMaxThreadsPerBlock, attrWarpSize} {
		var v int32
		if err := rt.deviceGetAttribute.Status(uintptr(unsafe.Pointer(&v)), uintptr(a), uintptr(ordinal)); err != nil {
			return Facts{}, err
		}
		vals[i] = int(v)
	}
	var mem uint64
	if err := rt.deviceTotalMem.Status(uintptr(unsafe.Pointer(&mem)), uintptr(ordinal)); err != nil {
		return Facts{}, err
	}
	var ver int32
	if err := rt.runtimeGetVersion.Status(uintptr(unsafe.Pointer(&ver))); err != nil {
		return Facts{}, err
	}
	return Facts{Name: cString(props[:256]), Arch: archOf(props[256:]), Multiprocessors: vals[0], SharedPerBlock: vals[1], MaxThreads: vals[2],
		WarpSize: vals[3], Memory: int64(mem), Version: int(ver)}, nil
}

// propsBytes holds hipDeviceProp_t of every HIP release (about 1.5 KB in HIP 6) with room
// to spare: the struct's layout changes between releases, so it is not declared here.
const propsBytes = 8 << 10

// archOf is the ISA word of hipDeviceProp_t's gcnArchName, e.g. "gfx90a" of
// "gfx90a:sramecc+:xnack-", found as the first string in the struct past its name (name is
// its first field, 256 bytes, in every release; gcnArchName is the only other field that
// holds a "gfx" string), so that no release's field offsets are needed; "" when none.
func archOf(props []byte) string {
	i := bytes.Index(props, []byte("gfx"))
	if i < 0 {
		return ""
	}
	arch, _, _ := strings.Cut(cString(props[i:]), ":")
	return arch
}

func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}
