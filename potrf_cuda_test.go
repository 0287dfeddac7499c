//go:build cuda

package batchlas

import (
	"math"
	"testing"
)

// TestPotrfTinyShape checks the kernel potrfTinyShape names against potrf_tiny.cu's
// instances: a thread a matrix to n = 4, then the smallest group of 8, 16, 32 or 64 lanes
// that holds a row, so many matrices a block of 128 threads (64 for w64); float above 32 is
// the pair kernel, a warp a matrix with its 64-by-65 tile, four a block.
func TestPotrfTinyShape(t *testing.T) {
	type shape struct {
		kernel                    string
		threads, perBlock, shared int
	}
	check := func(dtype string, n int, got, want shape) {
		if got != want {
			t.Errorf("%s n = %d: %+v; want %+v", dtype, n, got, want)
		}
	}
	for n, want := range map[int]shape{
		1: {"t4", 64, 64, 2 * 32 * 1 * 8}, 4: {"t4", 64, 64, 2 * 32 * 17 * 8}, 5: {"w8", 128, 16, 128 * 9 * 8},
		8: {"w8", 128, 16, 128 * 9 * 8}, 9: {"w16", 128, 8, 128 * 17 * 8}, 16: {"w16", 128, 8, 128 * 17 * 8},
		17: {"w32", 128, 4, 128 * 33 * 8}, 32: {"w32", 128, 4, 128 * 33 * 8}, 33: {"w64", 64, 1, 64 * 65 * 8},
		64: {"w64", 64, 1, 64 * 65 * 8},
	} {
		var got shape
		got.kernel, got.threads, got.perBlock, got.shared = potrfTinyShape[float64](n)
		check("float64", n, got, want)
	}
	for n, want := range map[int]shape{
		32: {"w32", 128, 4, 128 * 33 * 4}, 33: {"p64", 128, 4, 4 * 64 * 65 * 4}, 64: {"p64", 128, 4, 4 * 64 * 65 * 4},
	} {
		var got shape
		got.kernel, got.threads, got.perBlock, got.shared = potrfTinyShape[float32](n)
		check("float32", n, got, want)
	}
}

// TestTinyLeadingDimension: the group kernels of potrf and geqrf form their addresses from a
// 32-bit ld, so their canRun refuses a larger one (no memory is taken: the calls are checked,
// not run).
func TestTinyLeadingDimension(t *testing.T) {
	q := &Queue{dev: Device{Backend: CUDA, Key: "sm_90", SubGroup: 32, SharedMem: 227 << 10, MaxBlock: 1024}}
	for _, ld := range []int{16, math.MaxUint32, math.MaxUint32 + 1} {
		a := &Matrix[float32]{rows: 16, cols: 16, ld: ld, strd: ld * 16, batch: 8}
		fits := ld <= math.MaxUint32
		if got := potrfTinyCanRun(q, &potrfCall[float32]{uplo: Lower, a: a, info: &Vector[int32]{}}); got != fits {
			t.Errorf("potrf tiny, ld = %d: canRun %v, want %v", ld, got, fits)
		}
		if got := geqrfTinyCanRun(q, &geqrfCall[float32]{a: a}); got != fits {
			t.Errorf("geqrf tiny, ld = %d: canRun %v, want %v", ld, got, fits)
		}
	}
}
