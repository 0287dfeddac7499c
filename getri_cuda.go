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

// getriCTA launches getri_cta<C> (kernels/getri/getri_cta.cu): one block per matrix, each
// warp solving luSolveValues/C columns of the inverse at a time; the batch in grid x.
func getriCTA[T Scalar](q *Queue, c *getriCall[T]) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	n := a.rows
	return cudaOf(q).launch("getri_cta", luSolveKernel[T]("getri_cta", n),
		dim3{a.batch, 1, 1}, dim3{32 * luSolveWarps(n, n), 1, 1},
		getriCTAShared(c), a.devPtr(), uintptr(a.ld), uintptr(a.strd), c.ipiv.devPtr(), uintptr(a.rows), uintptr(a.batch),
		c.info.devPtr())
}
