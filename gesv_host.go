package batchlas

// gesvHost factors each matrix with getf2 and, when U is nonsingular, solves with getrs, in
// one pass over the batch so that each matrix is still in cache for its solve.
func gesvHost[T Scalar](_ *Queue, c *gesvCall[T]) error {
	a, b, n := c.a, c.b, c.a.rows
	ipiv, info := c.ipiv.host(), c.info.host()
	hostBatch(a.batch, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			p := ipiv[k*n : (k+1)*n]
			info[k] = int32(getf2(n, n, a.mat(k), a.ld, p))
			if info[k] == 0 {
				getrs(NoTrans, n, b.cols, a.mat(k), a.ld, p, b.mat(k), b.ld)
			}
		}
	})
	return nil
}
