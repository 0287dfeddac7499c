package cu

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Dim3 is a launch's grid or block size.
type Dim3 struct{ X, Y, Z int }

// function returns kernel fn of fatbin mod, loading the module once per device: every later
// launch of the kernel finds its handle in the executor's cache (no lock: only the executor
// thread touches it). It runs on the executor thread.
func (e *Exec) function(mod, fn string) (uintptr, error) {
	if f, ok := e.funcs[kernelKey{mod, fn}]; ok {
		return f, nil
	}
	m, ok := e.modules[mod]
	if !ok {
		img, err := e.image(mod)
		if err != nil || len(img) == 0 {
			return 0, fmt.Errorf("batchlas: cuda: kernel image %s.fatbin is not in this build (a device bundle's binaries read it from the folder BATCHLAS_CUDA_KERNELS names)", mod)
		}
		if err := drv.moduleLoadData.Status(uintptr(unsafe.Pointer(&m)), uintptr(unsafe.Pointer(&img[0]))); err != nil {
			return 0, err
		}
		e.modules[mod] = m
	}
	name := append([]byte(fn), 0)
	var f uintptr
	if err := drv.moduleGetFunction.Status(uintptr(unsafe.Pointer(&f)), m, uintptr(unsafe.Pointer(&name[0]))); err != nil {
		return 0, err
	}
	e.funcs[kernelKey{mod, fn}] = f
	return f, nil
}

// Launch enqueues kernel fn of fatbin mod on stream. Every kernel parameter is 8 bytes (a
// device pointer or a long long), so the arguments travel packed in one buffer through
// cuLaunchKernel's extra (CU_LAUNCH_PARAM_BUFFER_POINTER and _SIZE), which the call copies;
// the buffer and its size are pinned for the call. The CPU emulator (kernels/emu) reads the
// argument count from the size.
func (e *Exec) Launch(stream uintptr, mod, fn string, grid, block Dim3, shared int, args ...uintptr) error {
	const paramBuffer, paramSize, paramEnd = 1, 2, 0
	vals := make([]uintptr, max(1, len(args))) // one word at least, for a pointer to pin
	copy(vals, args)
	size := uintptr(8 * len(args))
	extra := []uintptr{paramBuffer, uintptr(unsafe.Pointer(&vals[0])), paramSize, uintptr(unsafe.Pointer(&size)), paramEnd}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&vals[0])
	pin.Pin(&size)
	pin.Pin(&extra[0])
	return e.Do(func() error {
		f, err := e.function(mod, fn)
		if err != nil {
			return err
		}
		if shared > 48<<10 {
			const maxDynamicShared = 8 // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
			if err := drv.funcSetAttribute.Status(f, maxDynamicShared, uintptr(shared)); err != nil {
				return err
			}
		}
		return drv.launchKernel.Status(f, uintptr(grid.X), uintptr(grid.Y), uintptr(grid.Z),
			uintptr(block.X), uintptr(block.Y), uintptr(block.Z), uintptr(shared), stream,
			0, uintptr(unsafe.Pointer(&extra[0])))
	})
}
