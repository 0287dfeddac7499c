package cu

import "unsafe"

// Streams, memory and events: each a driver call, to be made on an executor thread (inside
// Exec.Do).

const streamNonBlocking = 1

// StreamCreate creates a stream that does not synchronize with the legacy default stream.
func StreamCreate() (stream uintptr, err error) {
	err = drv.streamCreate.Status(uintptr(unsafe.Pointer(&stream)), streamNonBlocking)
	return stream, err
}

func StreamSynchronize(stream uintptr) error { return drv.streamSynchronize.Status(stream) }

func StreamDestroy(stream uintptr) error { return drv.streamDestroy.Status(stream) }

// MemAlloc takes plain device memory (never managed memory).
func MemAlloc(bytes int) (p uintptr, err error) {
	err = drv.memAlloc.Status(uintptr(unsafe.Pointer(&p)), uintptr(bytes))
	return p, err
}

func MemFree(p uintptr) error { return drv.memFree.Status(p) }

// MemAllocHost takes pinned host memory.
func MemAllocHost(bytes int) (p uintptr, err error) {
	err = drv.memAllocHost.Status(uintptr(unsafe.Pointer(&p)), uintptr(bytes))
	return p, err
}

func MemFreeHost(p uintptr) error { return drv.memFreeHost.Status(p) }

func MemcpyHtoDAsync(dst, src uintptr, bytes int, stream uintptr) error {
	return drv.memcpyHtoDAsync.Status(dst, src, uintptr(bytes), stream)
}

func MemcpyDtoHAsync(dst, src uintptr, bytes int, stream uintptr) error {
	return drv.memcpyDtoHAsync.Status(dst, src, uintptr(bytes), stream)
}

// MemsetD32Async sets n 32-bit words at p to v.
func MemsetD32Async(p uintptr, v uint32, n int, stream uintptr) error {
	return drv.memsetD32Async.Status(p, uintptr(v), uintptr(n), stream)
}

// MemGetInfo is the device's free and total memory.
func MemGetInfo() (free, total int64, err error) {
	var f, t uint64
	err = drv.memGetInfo.Status(uintptr(unsafe.Pointer(&f)), uintptr(unsafe.Pointer(&t)))
	return int64(f), int64(t), err
}

func EventCreate() (ev uintptr, err error) {
	err = drv.eventCreate.Status(uintptr(unsafe.Pointer(&ev)), 0)
	return ev, err
}

func EventDestroy(ev uintptr) error { return drv.eventDestroy.Status(ev) }

func EventRecord(ev, stream uintptr) error { return drv.eventRecord.Status(ev, stream) }

func EventSynchronize(ev uintptr) error { return drv.eventSynchronize.Status(ev) }

// EventElapsedTime is the time from event a to event b, in milliseconds.
func EventElapsedTime(a, b uintptr) (ms float32, err error) {
	err = drv.eventElapsedTime.Status(uintptr(unsafe.Pointer(&ms)), a, b)
	return ms, err
}
