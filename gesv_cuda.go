//go:build cuda

package batchlas

// gesvCTAShared: A with leading dimension n and row_at.
func gesvCTAShared[T Scalar](c *gesvCall[T]) int {
	n := c.a.rows
	return luShared[T](n, n, n)
}

func gesvCTACanRun[T Scalar](q *Queue, c *gesvCall[T]) bool {
	return luCTAFits(q, c.a.rows, gesvCTAShared(c))
}

// gesvCTA launches gesv_cta (kernels/gesv/gesv_cta.cu): one block of luWarps(n) warps per
// matrix, which factors A and solves for B in one pass; the batch in grid x.
func gesvCTA[T Scalar](q *Queue, c *gesvCall[T]) error {
	a, b := c.a, c.b
	if a.batch == 0 {
		return nil
	}
	if a.rows == 0 {
		return cudaOf(q).zero32(c.info.devPtr(), a.batch)
	}
	return cudaOf(q).launch("gesv_cta", "gesv_cta_"+dtypeName[T](), dim3{a.batch, 1, 1}, dim3{32 * luWarps(a.rows), 1, 1},
		gesvCTAShared(c), a.devPtr(), uintptr(a.ld), uintptr(a.strd), c.ipiv.devPtr(), b.devPtr(), uintptr(b.ld),
		uintptr(b.strd), uintptr(a.rows), uintptr(b.cols), uintptr(a.batch), c.info.devPtr())
}
