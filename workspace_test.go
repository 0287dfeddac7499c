package batchlas

import (
	"errors"
	"testing"
)

// fakeDevice is a device engine with memory bytes of memory that records its allocations, so
// that the size checks of a GPU queue run without a GPU. An allocation fails with the
// driver's out-of-memory error when more than the free memory is asked for.
type fakeDevice struct {
	memory, used int
	allocs       []int
	frees        int
	next         uintptr
}

func (f *fakeDevice) device() Device {
	return Device{Backend: CUDA, Name: "fake GPU", Key: "sm_90", IsGPU: true, Memory: int64(f.memory)}
}
func (f *fakeDevice) wait() error  { return nil }
func (f *fakeDevice) close() error { return nil }
func (f *fakeDevice) alloc(bytes int) (uintptr, error) {
	f.allocs = append(f.allocs, bytes)
	if bytes > f.memory-f.used {
		return 0, &DeviceError{Library: "cuda", Call: "cuMemAlloc_v2", Status: 2, Name: "CUDA_ERROR_OUT_OF_MEMORY"}
	}
	f.used += bytes
	f.next += 1 << 20
	return f.next, nil
}
func (f *fakeDevice) free(uintptr) error                   { f.frees++; return nil }
func (f *fakeDevice) upload(uintptr, []byte) error         { return nil }
func (f *fakeDevice) download(dst []byte, _ uintptr) error { return nil }

func fakeQueue(f *fakeDevice) *Queue {
	return &Queue{eng: f, dev: f.device(), allocs: map[*allocation]struct{}{}}
}

// TestSizesBeyondDeviceMemory: on a GPU queue a matrix, vector or workspace larger than the
// device's memory is an argument error before the driver is asked, and a Reserve the driver
// refuses leaves the old workspace in place.
func TestSizesBeyondDeviceMemory(t *testing.T) {
	f := &fakeDevice{memory: 1 << 30}
	q := fakeQueue(f)
	if _, err := NewMatrix[float64](q, 1<<14, 1<<14, 1); !isArg(err, "rows, cols, batch") { // 2 GiB
		t.Errorf("NewMatrix of 2 GiB on a 1 GiB device: %v", err)
	}
	if _, err := NewVector[complex128](q, 1<<48); !isArg(err, "n") {
		t.Errorf("NewVector of 2^52 bytes: %v", err)
	}
	if err := q.Reserve(1 << 62); !isArg(err, "bytes") {
		t.Errorf("Reserve(1<<62): %v", err)
	}
	if len(f.allocs) != 0 {
		t.Fatalf("the driver was asked for %v bytes", f.allocs)
	}
	if err := q.Reserve(1 << 20); err != nil {
		t.Fatal(err)
	}
	old := [2]uintptr{q.arena.ptr, uintptr(q.arena.bytes)}
	now := func() [2]uintptr { return [2]uintptr{q.arena.ptr, uintptr(q.arena.bytes)} }
	f.used = f.memory - 1<<20 // the device is now nearly full
	err := q.Reserve(1 << 21)
	var de *DeviceError
	if !errors.As(err, &de) {
		t.Fatalf("Reserve beyond the free memory: %v, want the driver's out-of-memory error", err)
	}
	if now() != old || f.frees != 0 {
		t.Errorf("a failed Reserve changed the workspace (pointer, bytes) from %v to %v (%d frees)", old, now(), f.frees)
	}
	if err := q.Reserve(1 << 19); err != nil || now() != old {
		t.Errorf("a smaller Reserve after the failure: %v, arena %+v", err, q.arena)
	}
}

// TestReserveBeyondHostMemory: a host Reserve larger than the machine leaves the old buffer.
func TestReserveBeyondHostMemory(t *testing.T) {
	q, err := NewQueue(Host)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if err := q.Reserve(4096); err != nil {
		t.Fatal(err)
	}
	old := &q.arena.host[0]
	for _, n := range []int{1 << 62, int(hostMemory()) + 1} {
		if err := q.Reserve(n); !isArg(err, "bytes") {
			t.Errorf("Reserve(%d): %v", n, err)
		}
		if q.WorkspaceSize() != 4096 || &q.arena.host[0] != old {
			t.Errorf("a failed Reserve(%d) replaced the workspace (now %d bytes)", n, q.WorkspaceSize())
		}
	}
}

func isArg(err error, arg string) bool {
	var ae *ArgError
	return errors.As(err, &ae) && ae.Arg == arg && errors.Is(err, ErrInvalidArgument)
}
