//go:build cuda

package batchlas

import "testing"

// TestSyevJacobiShape checks the jacobi family's shared memory (syev_jacobi.cu's
// jacobi_slot) and that canRun follows it: as many warps as the shared memory holds, at most
// 4, and a refusal where not even one matrix fits (no memory is taken: the calls are
// checked, not run).
func TestSyevJacobiShape(t *testing.T) {
	// f32, n = 64, vectors: A and V 64 by 65, 32 phases and 96 reals, 64 ints.
	if got, want := syevJacobiSlot[float32, float32](64, true), 4*(2*64*65+32)+4*96+4*64; got != want {
		t.Errorf("f32 n = 64 slot %d, want %d", got, want)
	}
	// c128, n = 3 (padded to 4), no vectors: rounded up to 16 bytes.
	if got, want := syevJacobiSlot[complex128, float64](3, false), (16*(4*5+2)+8*6+4*4+15)/16*16; got != want {
		t.Errorf("c128 n = 3 slot %d, want %d", got, want)
	}
	for _, tc := range []struct {
		shared, n int
		jobz      Job
		warps     int
	}{
		{227 << 10, 64, Vectors, 1},   // 134,656 bytes a matrix
		{227 << 10, 64, NoVectors, 3}, // 68,096
		{227 << 10, 16, Vectors, 4},
		{100 << 10, 64, Vectors, 0},
		{48 << 10, 64, NoVectors, 0},
	} {
		q := &Queue{dev: Device{Backend: CUDA, Key: "sm_90", SubGroup: 32, SharedMem: tc.shared, MaxBlock: 1024}}
		c := &syevCall[complex128, float64]{jobz: tc.jobz, a: &Matrix[complex128]{rows: tc.n, cols: tc.n, ld: tc.n, strd: tc.n * tc.n, batch: 5}}
		warps, shared := syevJacobiShape(q, c)
		if warps != tc.warps || shared != warps*syevJacobiSlot[complex128, float64](tc.n, tc.jobz == Vectors) {
			t.Errorf("c128 n = %d %v, %d B shared: %d warps, %d B; want %d warps", tc.n, tc.jobz, tc.shared, warps, shared, tc.warps)
		}
		if got := syevJacobiCanRun(q, c); got != (tc.warps > 0) {
			t.Errorf("c128 n = %d %v, %d B shared: canRun %v", tc.n, tc.jobz, tc.shared, got)
		}
	}
}

// TestSyevTriBufferSize checks the workspace of the cta and blocked members: tri=1 adds its
// inverse-iteration arrays (4n reals per thread of the block, a slot per matrix rounded up
// to 256 bytes) with vectors alone; tri=0 of cta needs none; blocked's own parts hold a
// working copy per matrix, and the back-transform's X and Y with vectors alone.
func TestSyevTriBufferSize(t *testing.T) {
	q := &Queue{dev: Device{Backend: CUDA, Key: "sm_90", SubGroup: 32, SharedMem: 227 << 10, MaxBlock: 1024}}
	for _, tc := range []struct {
		n    int
		jobz Job
		inv  int // bytes per matrix
	}{
		{64, Vectors, 4 * 64 * 64 * 8},
		{33, Vectors, alignUp(4*33*64*8, 256)},
		{300, Vectors, 4 * 300 * 256 * 8},
		{64, NoVectors, 0},
	} {
		c := &syevCall[float64, float64]{jobz: tc.jobz, a: &Matrix[float64]{rows: tc.n, cols: tc.n, ld: tc.n, strd: tc.n * tc.n, batch: 3}}
		if got := syevCTABufferSize[float64, float64](false)(q, c); got != 0 {
			t.Errorf("cta:tri=0 n = %d %v: %d bytes, want 0", tc.n, tc.jobz, got)
		}
		if got := syevCTABufferSize[float64, float64](true)(q, c); got != 3*tc.inv {
			t.Errorf("cta:tri=1 n = %d %v: %d bytes, want %d", tc.n, tc.jobz, got, 3*tc.inv)
		}
		ql, bi := syevBlockedOwn[float64, float64](tc.n, 3, tc.jobz, false), syevBlockedOwn[float64, float64](tc.n, 3, tc.jobz, true)
		if ql[0] != 3*syevBlockedSlot[float64, float64](tc.n) {
			t.Errorf("blocked n = %d %v: working copies %d bytes, want %d", tc.n, tc.jobz, ql[0], 3*syevBlockedSlot[float64, float64](tc.n))
		}
		if len(bi) != len(ql)+1 || bi[len(ql)] != 3*tc.inv {
			t.Errorf("blocked:tri=1 n = %d %v: parts %v, want those of tri=0 %v and %d bytes", tc.n, tc.jobz, bi, ql, 3*tc.inv)
		}
		if xy := ql[3]; (xy == 0) == (tc.jobz == Vectors) {
			t.Errorf("blocked n = %d %v: the back-transform's X %d bytes", tc.n, tc.jobz, xy)
		}
	}
}
