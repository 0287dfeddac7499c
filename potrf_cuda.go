//go:build cuda

package batchlas

// potrfTinyMax is the largest order the "tiny" kernel factors: one warp per matrix, lane i
// holding row i.
const potrfTinyMax = 32

// potrfTinyCanRun: a CUDA queue with 32-lane warps, n <= 32.
func potrfTinyCanRun[T Scalar](q *Queue, c *potrfCall[T]) bool {
	return q.dev.Backend == CUDA && q.dev.SubGroup == 32 && c.a.rows <= potrfTinyMax
}

// potrfTiny launches kernels/potrf/potrf_tiny.cu: 4 matrices (warps) per block, the batch
// in grid x.
func potrfTiny[T Scalar](q *Queue, c *potrfCall[T]) error {
	const warps = 4
	a := c.a
	if a.batch == 0 {
		return nil
	}
	lower := uintptr(0)
	if c.uplo == Lower {
		lower = 1
	}
	return cudaOf(q).launch("potrf_tiny", "potrf_tiny_"+dtypeName[T](),
		dim3{(a.batch + warps - 1) / warps, 1, 1}, dim3{32 * warps, 1, 1}, 0,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.batch), c.info.devPtr(), lower)
}
