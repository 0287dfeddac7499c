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

// TestGeqrfCTAKernel: geqrf_cta_r32_f32 runs only what its entry is built for (32 rows a
// lane, at most 128 threads: its __launch_bounds__), and it is picked at n = 32 and 64.
func TestGeqrfCTAKernel(t *testing.T) {
	for m := 1; m <= 200; m += 3 {
		for _, n := range []int{1, 16, 32, 33, 64, 65, 100, 128, 129} {
			c := &geqrfCall[float32]{a: &Matrix[float32]{rows: m, cols: n}}
			l := geqrfCTAShape(c)
			if k := geqrfCTAKernel[float32](l); k == "geqrf_cta_r32_f32" && (l.rpl != 32 || l.threads > 128) {
				t.Errorf("m = %d, n = %d: %s for rpl %d, %d threads", m, n, k, l.rpl, l.threads)
			}
		}
	}
	for _, e := range []struct {
		m, n int
		want string
	}{{64, 64, "geqrf_cta_r32_f32"}, {32, 32, "geqrf_cta_r32_f32"}, {48, 40, "geqrf_cta_r32_f32"}, {16, 16, "geqrf_cta_f32"},
		{64, 100, "geqrf_cta_f32"}, {65, 65, "geqrf_cta_f32"}} {
		if k := geqrfCTAKernel[float32](geqrfCTAShape(&geqrfCall[float32]{a: &Matrix[float32]{rows: e.m, cols: e.n}})); k != e.want {
			t.Errorf("float32 %d x %d: %s, want %s", e.m, e.n, k, e.want)
		}
	}
	if k := geqrfCTAKernel[float64](geqrfCTAShape(&geqrfCall[float64]{a: &Matrix[float64]{rows: 64, cols: 64}})); k != "geqrf_cta_f64" {
		t.Errorf("float64 64 x 64: %s", k)
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
