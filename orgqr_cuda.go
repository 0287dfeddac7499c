//go:build cuda

package batchlas

// orgqrCTAShape is the launch of kernels/orgqr/orgqr_cta.cu on q: each matrix (n columns of
// lds) and k taus in shared memory.
func orgqrCTAShape[T Scalar](q *Queue, c *orgqrCall[T]) qrCTA {
	size := sizeOf[T]()
	l := qrCTALayout(c.a.rows, c.a.cols, size, isComplex[T]())
	l.bytes = qrCTABytes(c.a.cols*l.lds+c.k, size)
	l.pack(q)
	return l
}

// orgqrCTACanRun: a CUDA queue whose blocks may hold the matrix in shared memory; an empty
// call always.
func orgqrCTACanRun[T Scalar](q *Queue, c *orgqrCall[T]) bool {
	if c.a.cols == 0 || c.a.batch == 0 {
		return true
	}
	return orgqrCTAShape(q, c).fits(q)
}

// orgqrCTA launches kernels/orgqr/orgqr_cta.cu: a team of threads per matrix, one or more
// matrices a block.
func orgqrCTA[T Scalar](q *Queue, c *orgqrCall[T]) error {
	a := c.a
	if a.cols == 0 || a.batch == 0 {
		return nil
	}
	l := orgqrCTAShape(q, c)
	return launchQRCTA[T](q, "orgqr", l, a.batch,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), uintptr(c.k), c.tau.devPtr(),
		uintptr(a.batch), uintptr(l.lanes), uintptr(l.lds))
}
