//go:build cuda

package batchlas

import "testing"

// BenchmarkLaunch is the host's cost of one kernel launch: an empty spin kernel of one
// thread, so that under the emulator (kernels/emu) or on a GPU the figure is the launch
// path's (executor hand-off, kernel handle, cuLaunchKernel), not the kernel's.
func BenchmarkLaunch(b *testing.B) {
	q, err := NewQueue(CUDA)
	if err != nil {
		b.Skipf("no CUDA queue: %v", err)
	}
	defer q.Close()
	e := cudaOf(q)
	for b.Loop() {
		if err := e.launch("util", "spin", dim3{1, 1, 1}, dim3{1, 1, 1}, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}
