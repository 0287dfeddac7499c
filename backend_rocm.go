//go:build rocm

package batchlas

import (
	"errors"
	"fmt"
	"runtime"
	"time"
	"unsafe"

	"github.com/batchlas/batchlas/internal/hip"
)

// rocmEngine is one queue on an AMD GPU: a HIP stream on device 0. The HIP runtime keeps its
// context per process and every thread starts on device 0, so calls are made from the
// calling goroutine (no executor thread, as internal/hip says). No native kernels exist for
// ROCm: every op runs through its vendor family (vendor_rocm.go) or has no route.
type rocmEngine struct {
	facts  hip.Facts
	stream uintptr
	// vendor is the rocBLAS handle bound to the stream, created on the first vendor call;
	// closeVendor destroys it (both vendor_rocm.go's; nil in a novendor build).
	vendor      uintptr
	closeVendor func() error
}

func newROCmEngine() (engine, error) {
	f, err := hip.Device(0)
	if err != nil {
		return nil, err
	}
	e := &rocmEngine{facts: f}
	if e.stream, err = hip.StreamCreate(); err != nil {
		return nil, err
	}
	return e, nil
}

// device answers the facts of the queue's GPU. Its table key is the ISA ("gfx90a"): no
// table is shipped for a gfx device, so routing borrows as selection allows (the nearest
// gfx table, then the other GPU families', never the cpu's rows for a GPU).
func (e *rocmEngine) device() Device {
	f := e.facts
	key := f.Arch
	if key == "" {
		key = "gfx"
	}
	return Device{
		Backend: ROCm, Name: f.Name, Key: key, Family: "gfx", Arch: gfxArch(key), IsGPU: true,
		SubGroup: f.WarpSize, SharedMem: f.SharedPerBlock, MaxBlock: f.MaxThreads, Units: f.Multiprocessors,
		Memory: f.Memory, Driver: fmt.Sprintf("HIP %d.%d", f.Version/10_000_000, f.Version/100_000%100),
	}
}

// gfxArch is a gfx key's arch number as selection reads it: 90 for gfx90a, 1100 for gfx1100.
func gfxArch(key string) int {
	n := 0
	for _, c := range key[len("gfx"):] {
		if c < '0' || c > '9' {
			break
		}
		n = 10*n + int(c-'0')
	}
	return n
}

// wait synchronizes the stream; a fault of earlier work surfaces here.
func (e *rocmEngine) wait() error { return hip.StreamSynchronize(e.stream) }

func (e *rocmEngine) close() error {
	err := hip.StreamSynchronize(e.stream)
	if e.closeVendor != nil {
		err = errors.Join(err, e.closeVendor())
	}
	return errors.Join(err, hip.StreamDestroy(e.stream))
}

func (e *rocmEngine) alloc(bytes int) (uintptr, error) { return hip.Malloc(bytes) }

func (e *rocmEngine) free(p uintptr) error { return hip.Free(p) }

// upload copies src to device memory dst in order with the stream's earlier work and
// returns when src may be reused.
func (e *rocmEngine) upload(dst uintptr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	err := hip.MemcpyHtoDAsync(dst, uintptr(unsafe.Pointer(&src[0])), len(src), e.stream)
	if err == nil {
		err = hip.StreamSynchronize(e.stream)
	}
	runtime.KeepAlive(src)
	return err
}

// download copies device memory src to dst once the stream's earlier work is done.
func (e *rocmEngine) download(dst []byte, src uintptr) error {
	if len(dst) == 0 {
		return nil
	}
	err := hip.MemcpyDtoHAsync(uintptr(unsafe.Pointer(&dst[0])), src, len(dst), e.stream)
	if err == nil {
		err = hip.StreamSynchronize(e.stream)
	}
	runtime.KeepAlive(dst)
	return err
}

// memInfo is the device's free and total memory.
func (e *rocmEngine) memInfo() (free, total int64, err error) { return hip.MemGetInfo() }

// elapsed times f's work with two events on the stream.
func (e *rocmEngine) elapsed(f func() error) (d time.Duration, err error) {
	var ev [2]uintptr
	defer func() {
		for _, x := range ev {
			if x != 0 {
				err = errors.Join(err, hip.EventDestroy(x))
			}
		}
	}()
	for i := range ev {
		if ev[i], err = hip.EventCreate(); err != nil {
			return 0, err
		}
	}
	if err := hip.EventRecord(ev[0], e.stream); err != nil {
		return 0, err
	}
	if err := f(); err != nil {
		return 0, err
	}
	if err := hip.EventRecord(ev[1], e.stream); err != nil {
		return 0, err
	}
	if err := hip.EventSynchronize(ev[1]); err != nil {
		return 0, err
	}
	ms, err := hip.EventElapsedTime(ev[0], ev[1])
	return time.Duration(float64(ms) * 1e6), err
}

// zero32 clears n 32-bit words at p on the stream.
func (e *rocmEngine) zero32(p uintptr, n int) error {
	if n == 0 {
		return nil
	}
	return hip.MemsetD32Async(p, 0, n, e.stream)
}

// copy copies bytes of device memory from src to dst on the stream.
func (e *rocmEngine) copy(dst, src uintptr, bytes int) error {
	if bytes == 0 {
		return nil
	}
	return hip.MemcpyDtoDAsync(dst, src, bytes, e.stream)
}

// rocmOf is q's ROCm engine.
func rocmOf(q *Queue) *rocmEngine { return q.eng.(*rocmEngine) }
