package batchlas

// posvHost solves, with the factor that Potrf's routing left in a, each matrix whose info is
// 0.
func posvHost[T Scalar](_ *Queue, c *posvCall[T]) error {
	a, b, info := c.a, c.b, c.info.host()
	hostBatch(a.batch, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			if info[k] == 0 {
				potrs(c.uplo, a.rows, b.cols, a.mat(k), a.ld, b.mat(k), b.ld)
			}
		}
	})
	return nil
}
