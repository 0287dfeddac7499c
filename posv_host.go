package batchlas

// posvHost factors each matrix with Potrf's host kernel and, when it is positive definite,
// solves with potrs, in one pass over the batch so that each matrix is still in cache for
// its solve.
func posvHost[T Scalar](_ *Queue, c *posvCall[T]) error {
	a, b, info := c.a, c.b, c.info.host()
	n, lower := a.rows, c.uplo == Lower
	newKernel := potrfKernel[T](n)
	hostBatch(a.batch, func(lo, hi int) {
		factor := newKernel()
		for k := lo; k < hi; k++ {
			info[k] = int32(factor(lower, n, a.mat(k), a.ld))
			if info[k] == 0 {
				potrs(c.uplo, n, b.cols, a.mat(k), a.ld, b.mat(k), b.ld)
			}
		}
	})
	return nil
}
