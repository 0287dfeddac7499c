//go:build cuda

package batchlas

// getriCTAShared: A with leading dimension n, the permutation and row_at.
func getriCTAShared[T Scalar](c *getriCall[T]) int {
	n := c.a.rows
	return luShared[T](n, n, 2*n)
}

func getriCTACanRun[T Scalar](q *Queue, c *getriCall[T]) bool {
	return luCTAFits(q, c.a.rows, getriCTAShared(c))
}

// getriCTA launches getri_cta (kernels/getri/getri_cta.cu): one block of luWarps(n) warps
// per matrix, a warp per column of the inverse at a time; the batch in grid x.
func getriCTA[T Scalar](q *Queue, c *getriCall[T]) error {
	a := c.a
	if a.batch == 0 {
		return nil
	}
	if a.rows == 0 {
		return cudaOf(q).zero32(c.info.devPtr(), a.batch)
	}
	return cudaOf(q).launch("getri_cta", "getri_cta_"+dtypeName[T](), dim3{a.batch, 1, 1}, dim3{32 * luWarps(a.rows), 1, 1},
		getriCTAShared(c), a.devPtr(), uintptr(a.ld), uintptr(a.strd), c.ipiv.devPtr(), uintptr(a.rows), uintptr(a.batch),
		c.info.devPtr())
}
