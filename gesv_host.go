package batchlas

// gesvHost solves, with the factors that Getrf's routing left in a and ipiv, each matrix
// whose info is 0.
func gesvHost[T Scalar](_ *Queue, c *gesvCall[T]) error {
	a, b, n := c.a, c.b, c.a.rows
	ipiv, info := c.ipiv.host(), c.info.host()
	hostBatch(a.batch, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			if info[k] == 0 {
				getrs(NoTrans, n, b.cols, a.mat(k), a.ld, ipiv[k*n:(k+1)*n], b.mat(k), b.ld)
			}
		}
	})
	return nil
}
