package hip

import "unsafe"

// Streams, memory and events: each a runtime call on the current device (Device set it).

const streamNonBlocking = 1

// hipMemcpyKind values.
const (
	memcpyHostToDevice   = 1
	memcpyDeviceToHost   = 2
	memcpyDeviceToDevice = 3
)

// StreamCreate creates a stream that does not synchronize with the null stream.
func StreamCreate() (stream uintptr, err error) {
	err = rt.streamCreate.Status(uintptr(unsafe.Pointer(&stream)), streamNonBlocking)
	return stream, err
}

func StreamSynchronize(stream uintptr) error { return rt.streamSynchronize.Status(stream) }

func StreamDestroy(stream uintptr) error { return rt.streamDestroy.Status(stream) }

// Malloc takes device memory.
func Malloc(bytes int) (p uintptr, err error) {
	err = rt.malloc.Status(uintptr(unsafe.Pointer(&p)), uintptr(bytes))
	return p, err
}

func Free(p uintptr) error { return rt.free.Status(p) }

// MemcpyHtoDAsync copies bytes from host memory src to device memory dst on the stream.
func MemcpyHtoDAsync(dst, src uintptr, bytes int, stream uintptr) error {
	return rt.memcpyAsync.Status(dst, src, uintptr(bytes), memcpyHostToDevice, stream)
}

// MemcpyDtoHAsync copies bytes from device memory src to host memory dst on the stream.
func MemcpyDtoHAsync(dst, src uintptr, bytes int, stream uintptr) error {
	return rt.memcpyAsync.Status(dst, src, uintptr(bytes), memcpyDeviceToHost, stream)
}

// MemcpyDtoDAsync copies bytes from device memory src to device memory dst on the stream.
func MemcpyDtoDAsync(dst, src uintptr, bytes int, stream uintptr) error {
	return rt.memcpyAsync.Status(dst, src, uintptr(bytes), memcpyDeviceToDevice, stream)
}

// MemsetD32Async sets n 32-bit words at p to v.
func MemsetD32Async(p uintptr, v uint32, n int, stream uintptr) error {
	return rt.memsetD32Async.Status(p, uintptr(v), uintptr(n), stream)
}

// MemGetInfo is the current device's free and total memory.
func MemGetInfo() (free, total int64, err error) {
	var f, t uint64
	err = rt.memGetInfo.Status(uintptr(unsafe.Pointer(&f)), uintptr(unsafe.Pointer(&t)))
	return int64(f), int64(t), err
}

func EventCreate() (ev uintptr, err error) {
	err = rt.eventCreate.Status(uintptr(unsafe.Pointer(&ev)))
	return ev, err
}

func EventDestroy(ev uintptr) error { return rt.eventDestroy.Status(ev) }

func EventRecord(ev, stream uintptr) error { return rt.eventRecord.Status(ev, stream) }

func EventSynchronize(ev uintptr) error { return rt.eventSynchronize.Status(ev) }

// EventElapsedTime is the time from event a to event b, in milliseconds.
func EventElapsedTime(a, b uintptr) (ms float32, err error) {
	err = rt.eventElapsedTime.Status(uintptr(unsafe.Pointer(&ms)), a, b)
	return ms, err
}
