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
			for _, c := range []int{1, 2, 3, 16, 17, 32, 33, 64, 100, 600} {
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
				if l.lds < l.lanes*l.rpl || l.lds%w != 0 {
					t.Fatalf("r=%d c=%d size=%d: lds %d does not hold %d rows in 16-byte aligned columns", r, c, size, l.lds, l.lanes*l.rpl)
				}
			}
		}
	}
}

// TestGeqrfTinyShape checks what kernels/geqrf/geqrf_tiny.cu assumes of geqrfTinyShape: the
// least group of 8 or 16 that holds m and n, a whole warp of groups per warp of the block,
// and its tiles and reflector buffers, per matrix, in the shared bytes.
func TestGeqrfTinyShape(t *testing.T) {
	for m := 1; m <= geqrfTinyMax[complex64](); m++ {
		for n := 1; n <= geqrfTinyMax[complex64](); n++ {
			group, per, shared := geqrfTinyShape[complex128](m, n)
			if group < max(m, n) || group/2 >= max(m, n) && group > 8 || 32%group != 0 {
				t.Fatalf("%dx%d: group %d", m, n, group)
			}
			if per != geqrfTinyWarps*32/group || shared != per*group*(group+3)*16 {
				t.Fatalf("%dx%d: %d matrices a block, %d shared bytes", m, n, per, shared)
			}
		}
	}
}
