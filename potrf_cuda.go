//go:build cuda

package batchlas

// The native CUDA potrf families (kernels/potrf/potrf_tiny.cu, potrf_cta.cu). Each canRun is
// exactly what its launch accepts: a CUDA queue with 32-lane warps, the order in range, and
// the dynamic shared memory the launch asks for within the device's per-block limit.

// potrfTinyMax is the largest order of the "tiny" family: a thread per matrix up to n = 8,
// then 16 or 32 lanes per matrix, lane i holding row i.
const potrfTinyMax = 32

// Blocks of the tiny kernels, as in potrf_tiny.cu: TINY_THREAD_WARPS warps of one matrix a
// thread (n <= 8), TINY_WARP_WARPS warps of a matrix per 16 or 32 lanes (n > 8).
const (
	potrfTinyThreadWarps = 2
	potrfTinyWarpWarps   = 4
)

// potrfTinyShape is the kernel, block, matrices per block and dynamic shared bytes of the
// tiny family at order n (1 <= n <= 32).
func potrfTinyShape[T Scalar](n int) (kernel string, threads, perBlock, shared int) {
	switch {
	case n <= 8:
		kernel = "t4"
		if n > 4 {
			kernel = "t8"
		}
		// A warp stages its 32 matrices at pitch n*n rounded up to odd.
		return kernel, 32 * potrfTinyThreadWarps, 32 * potrfTinyThreadWarps, potrfTinyThreadWarps * 32 * (n*n | 1) * sizeOf[T]()
	case n <= 16:
		// Two matrices per warp; a warp's tile is 32 columns of 16 at pitch 17.
		return "w16", 32 * potrfTinyWarpWarps, 2 * potrfTinyWarpWarps, potrfTinyWarpWarps * 32 * 17 * sizeOf[T]()
	default:
		return "w32", 32 * potrfTinyWarpWarps, potrfTinyWarpWarps, potrfTinyWarpWarps * 32 * 33 * sizeOf[T]()
	}
}

// potrfGridMax is the most blocks a grid's x dimension takes.
const potrfGridMax = 1<<31 - 1

// potrfTinyCanRun: a CUDA queue with 32-lane warps, n <= 32, the shared memory and the grid
// within limits.
func potrfTinyCanRun[T Scalar](q *Queue, c *potrfCall[T]) bool {
	n := c.a.rows
	if q.dev.Backend != CUDA || q.dev.SubGroup != 32 || n > potrfTinyMax {
		return false
	}
	if n == 0 {
		return true
	}
	_, _, perBlock, shared := potrfTinyShape[T](n)
	return shared <= q.dev.SharedMem && (c.a.batch+perBlock-1)/perBlock <= potrfGridMax
}

// potrfTiny launches the tiny kernel for n, the batch in grid x.
func potrfTiny[T Scalar](q *Queue, c *potrfCall[T]) error {
	a := c.a
	if a.batch == 0 {
		return nil
	}
	if a.rows == 0 {
		return cudaOf(q).zero32(c.info.devPtr(), a.batch)
	}
	kernel, threads, perBlock, shared := potrfTinyShape[T](a.rows)
	return cudaOf(q).launch("potrf_tiny", "potrf_tiny_"+kernel+"_"+dtypeName[T](),
		dim3{(a.batch + perBlock - 1) / perBlock, 1, 1}, dim3{threads, 1, 1}, shared,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.batch), c.info.devPtr(), potrfLowerArg(c.uplo))
}

// potrfCTAShared is the dynamic shared memory of the cta kernel at order n: the lower
// triangle of order NP = n rounded up to the panel width 8, packed by columns from each
// column's 4-aligned diagonal row on (NP*NP/2 + 2*NP elements), then 8 reals and an int (80
// bytes are kept for them).
func potrfCTAShared[T Scalar](n int) int {
	np := (n + 7) / 8 * 8
	return (np*np/2+2*np)*sizeOf[T]() + 80
}

// potrfCTAThreads is the cta kernel's block: 128 threads, 256 from n = 97 on, where the
// trailing update has over 200 tiles of 4x4 in its first panels.
func potrfCTAThreads(n int) int {
	if n > 96 {
		return 256
	}
	return 128
}

// potrfCTACanRun: a CUDA queue with 32-lane warps, the tile within the shared memory of a
// block (f32 up to n = 336, f64 and c64 up to 232, c128 up to 168 on an H200) and a block per
// matrix within the grid.
func potrfCTACanRun[T Scalar](q *Queue, c *potrfCall[T]) bool {
	return q.dev.Backend == CUDA && q.dev.SubGroup == 32 && potrfCTAShared[T](c.a.rows) <= q.dev.SharedMem &&
		c.a.batch <= potrfGridMax
}

// potrfCTA launches kernels/potrf/potrf_cta.cu: one block per matrix, the batch in grid x.
func potrfCTA[T Scalar](q *Queue, c *potrfCall[T]) error {
	a := c.a
	if a.batch == 0 {
		return nil
	}
	if a.rows == 0 {
		return cudaOf(q).zero32(c.info.devPtr(), a.batch)
	}
	return cudaOf(q).launch("potrf_cta", "potrf_cta_"+dtypeName[T](),
		dim3{a.batch, 1, 1}, dim3{potrfCTAThreads(a.rows), 1, 1}, potrfCTAShared[T](a.rows),
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.batch), c.info.devPtr(), potrfLowerArg(c.uplo))
}

// potrfLowerArg is the kernels' lower flag.
func potrfLowerArg(uplo Uplo) uintptr {
	if uplo == Lower {
		return 1
	}
	return 0
}
