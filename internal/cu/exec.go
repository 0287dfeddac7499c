package cu

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// Device attributes (CUdevice_attribute).
const (
	attrMaxThreadsPerBlock = 1
	attrWarpSize           = 10
	attrMultiprocessors    = 16
	attrCCMajor            = 75
	attrCCMinor            = 76
	attrSharedOptin        = 97
)

// Facts are what the driver says of a device.
type Facts struct {
	Name                 string
	Major, Minor         int // compute capability
	Multiprocessors      int
	SharedOptin          int // shared memory a block may opt in to, bytes
	MaxThreads, WarpSize int
	Memory               int64
	Version              int // the CUDA version the driver supports, e.g. 13000 for 13.0
}

// Exec owns one device's primary context on one locked OS thread. The driver binds a context
// to a thread, so every driver and library call for the device runs there: Do funnels work to
// it, and the functions of this package that take a stream or memory are called inside Do.
type Exec struct {
	Facts Facts
	// Vendor holds the vendor libraries' handles of the device, created on first use by the
	// caller; only the executor thread touches it.
	Vendor any

	ordinal int
	work    chan func()
	image   func(mod string) ([]byte, error)

	// Owned by the executor thread.
	ctx     uintptr
	modules map[string]uintptr    // fatbin name -> CUmodule
	funcs   map[kernelKey]uintptr // -> CUfunction
}

type kernelKey struct{ mod, fn string }

var (
	execMu sync.Mutex
	execs  = map[int]*Exec{}
)

// Executor returns the executor of device ordinal, starting it on first use; image gives a
// module's fatbin by name. An executor lives as long as the process: the primary context
// stays retained.
func Executor(ordinal int, image func(mod string) ([]byte, error)) (*Exec, error) {
	execMu.Lock()
	defer execMu.Unlock()
	if e := execs[ordinal]; e != nil {
		return e, nil
	}
	if err := Open(); err != nil {
		return nil, err
	}
	e := &Exec{ordinal: ordinal, work: make(chan func()), image: image, modules: map[string]uintptr{}, funcs: map[kernelKey]uintptr{}}
	started := make(chan error)
	go e.loop(started)
	if err := <-started; err != nil {
		return nil, err
	}
	execs[ordinal] = e
	return e, nil
}

func (e *Exec) loop(started chan<- error) {
	runtime.LockOSThread()
	err := e.open()
	started <- err
	if err != nil {
		return // the thread stays locked and exits with the goroutine
	}
	for f := range e.work {
		f()
	}
}

func (e *Exec) open() error {
	var dev, n int32
	if err := drv.deviceGetCount.Status(uintptr(unsafe.Pointer(&n))); err != nil {
		return err
	}
	if int(n) <= e.ordinal {
		return fmt.Errorf("batchlas: cuda: no device %d (%d devices)", e.ordinal, n)
	}
	if err := drv.deviceGet.Status(uintptr(unsafe.Pointer(&dev)), uintptr(e.ordinal)); err != nil {
		return err
	}
	if err := drv.primaryCtxRetain.Status(uintptr(unsafe.Pointer(&e.ctx)), uintptr(dev)); err != nil {
		return err
	}
	if err := drv.ctxSetCurrent.Status(e.ctx); err != nil {
		return err
	}
	f, err := deviceFacts(dev)
	e.Facts = f
	return err
}

func deviceFacts(dev int32) (Facts, error) {
	name := make([]byte, 256)
	if err := drv.deviceGetName.Status(uintptr(unsafe.Pointer(&name[0])), uintptr(len(name)), uintptr(dev)); err != nil {
		return Facts{}, err
	}
	var vals [6]int
	for i, a := range []int{attrCCMajor, attrCCMinor, attrMultiprocessors, attrSharedOptin, attrMaxThreadsPerBlock, attrWarpSize} {
		var v int32
		if err := drv.deviceGetAttribute.Status(uintptr(unsafe.Pointer(&v)), uintptr(a), uintptr(dev)); err != nil {
			return Facts{}, err
		}
		vals[i] = int(v)
	}
	var mem uint64
	if err := drv.deviceTotalMem.Status(uintptr(unsafe.Pointer(&mem)), uintptr(dev)); err != nil {
		return Facts{}, err
	}
	var ver int32
	if err := drv.driverGetVersion.Status(uintptr(unsafe.Pointer(&ver))); err != nil {
		return Facts{}, err
	}
	return Facts{
		Name: string(name[:max(0, bytes.IndexByte(name, 0))]), Major: vals[0], Minor: vals[1], Multiprocessors: vals[2],
		SharedOptin: vals[3], MaxThreads: vals[4], WarpSize: vals[5], Memory: int64(mem), Version: int(ver),
	}, nil
}

// Do runs f on the executor thread and returns its error.
func (e *Exec) Do(f func() error) error {
	done := make(chan error, 1)
	e.work <- func() { done <- f() }
	return <-done
}
