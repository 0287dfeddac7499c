//go:build cuda

package batchlas

// The native CUDA syev families (kernels/syev/). Each canRun is exactly what its launch
// accepts.

// syevCTAThreads is the block of the cta kernel at order n: a thread per row of Z in whole
// warps, from one warp to SYEV_CTA_MAX_THREADS = 256 (syev_cta.cu).
func syevCTAThreads(n int) int { return min(256, max(32, (n+31)/32*32)) }

// syevCTAShared is the dynamic shared memory of the cta kernel at order n (syev_layout in
// syev_cta.cu): the n-by-(n|1) tile, a column per warp, y and tau and 32 elements of T; d,
// e and two buffers of rotations (6n reals); n ints and two 16-byte rotation records.
func syevCTAShared[T Scalar, R Real](n int) int {
	nw := syevCTAThreads(n) / 32
	return (n*(n|1)+nw*n+2*n+32)*sizeOf[T]() + 6*n*sizeOf[R]() + (n+8)*4
}

// syevCTACanRun: a CUDA queue with 32-lane warps, the kernel's shared memory within the
// device's per-block limit (on an H200's 227 KB: n <= 232 for float32, 163 for float64, 164
// for complex64, 115 for complex128) and a block per matrix within the grid.
func syevCTACanRun[T Scalar, R Real](q *Queue, c *syevCall[T, R]) bool {
	return q.dev.Backend == CUDA && q.dev.SubGroup == 32 && syevCTAShared[T, R](c.a.rows) <= q.dev.SharedMem &&
		c.a.batch <= gridXMax
}

// syevCTA launches kernels/syev/syev_cta.cu: one block per matrix, the batch in grid x. It
// needs no workspace: Z lives in the output matrix.
func syevCTA[T Scalar, R Real](q *Queue, c *syevCall[T, R]) error {
	a, n := c.a, c.a.rows
	if done, err := quickReturn(q, n, n, a.batch, c.info); done {
		return err
	}
	var flags uintptr
	if c.uplo == Lower {
		flags |= 1
	}
	if c.jobz == Vectors {
		flags |= 2
	}
	return cudaOf(q).launch("syev_cta", "syev_cta_"+dtypeName[T](),
		dim3{a.batch, 1, 1}, dim3{syevCTAThreads(n), 1, 1}, syevCTAShared[T, R](n),
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(n), uintptr(a.batch), c.w.devPtr(), c.info.devPtr(), flags)
}
