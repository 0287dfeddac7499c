//go:build cuda

package batchlas

import "testing"

// TestQRCTALayout checks what the "cta" QR kernels assume of qrCTALayout
// (kernels/common/householder.cuh) over a range of shapes and element sizes.
func TestQRCTALayout(t *testing.T) {
	for _, e := range []struct {
		size int
		cplx bool
	}{{4, false}, {8, false}, {8, true}, {16, true}} {
		size, w := e.size, 16/e.size
		for r := 1; r <= 600; r += 7 {
			for _, c := range []int{1, 2, 3, 16, 17, 32, 33, 64, 100, 200, 600} {
				l := qrCTALayout(r, c, size, e.cplx)
				if l.lanes < 1 || l.lanes > 32 || l.lanes&(l.lanes-1) != 0 {
					t.Fatalf("r=%d c=%d size=%d: lanes %d not a power of two up to 32", r, c, size, l.lanes)
				}
				if l.threads%32 != 0 || l.threads < 32 || l.threads > qrCTAMaxThreads || l.threads%l.lanes != 0 {
					t.Fatalf("r=%d c=%d size=%d: threads %d", r, c, size, l.threads)
				}
				if l.lds < r {
					t.Fatalf("r=%d c=%d size=%d: lds %d < r", r, c, size, l.lds)
				}
				if l.rpl == 0 {
					continue
				}
				if l.rpl > qrCTAMaxRegRows(size, e.cplx) || l.lanes*c > l.threads || r > l.lanes*l.rpl {
					t.Fatalf("r=%d c=%d size=%d: rpl %d with lanes %d, threads %d", r, c, size, l.rpl, l.lanes, l.threads)
				}
				if l.rpl*size > 128 && l.threads > qrCTAWideThreads {
					t.Fatalf("r=%d c=%d size=%d: rpl %d (over 128 bytes) in a team of %d threads, past the entry's launch bound", r, c, size, l.rpl, l.threads)
				}
				if l.lds < l.lanes*l.rpl || l.lds%w != 0 {
					t.Fatalf("r=%d c=%d size=%d: lds %d does not hold %d rows in 16-byte aligned columns", r, c, size, l.lds, l.lanes*l.rpl)
				}
			}
		}
	}
}

// TestQRCTAPack checks how qrCTA.pack gathers matrices into blocks: four 16-by-16 matrices
// (32-thread teams) a block, never more threads than qrCTAPackThreads, and more shared
// memory than the device has only where one matrix alone asks for it.
func TestQRCTAPack(t *testing.T) {
	q := &Queue{dev: Device{Backend: CUDA, SubGroup: 32, MaxBlock: 1024, SharedMem: 227 << 10}}
	for _, size := range []int{4, 8, 16} {
		for r := 1; r <= 3000; r += 37 {
			for _, c := range []int{1, 3, 16, 40, 200} {
				l := qrCTALayout(r, c, size, size == 16)
				l.bytes = qrCTABytes(c*l.lds+min(r, c), size)
				l.pack(q)
				if l.bytes%16 != 0 || l.matrices < 1 || (l.matrices > 1 && l.matrices*l.threads > qrCTAPackThreads) {
					t.Fatalf("r=%d c=%d size=%d: %d matrices of %d threads, %d bytes", r, c, size, l.matrices, l.threads, l.bytes)
				}
				if l.fits(q) != (l.bytes <= q.dev.SharedMem) {
					t.Fatalf("r=%d c=%d size=%d: %d matrices of %d bytes: fits %v", r, c, size, l.matrices, l.bytes, l.fits(q))
				}
			}
		}
		l := qrCTALayout(16, 16, size, size == 16)
		l.pack(q)
		if l.threads != 32 || l.matrices != 4 {
			t.Errorf("16x16 size=%d: %d matrices of %d threads, want 4 of 32", size, l.matrices, l.threads)
		}
	}
}
