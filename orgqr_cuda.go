//go:build cuda

package batchlas

// orgqrCTAShape is the launch of kernels/orgqr/orgqr_cta.cu: the matrix (n columns of lds)
// and k taus in shared memory.
func orgqrCTAShape[T Scalar](c *orgqrCall[T]) qrCTA {
	l := qrCTALayout(c.a.rows, c.a.cols, sizeOf[T](), isComplex[T]())
	l.bytes = (c.a.cols*l.lds + c.k) * sizeOf[T]()
	return l
}

// orgqrCTACanRun: a CUDA queue whose blocks may hold the matrix in shared memory; an empty
// call always.
func orgqrCTACanRun[T Scalar](q *Queue, c *orgqrCall[T]) bool {
	if c.a.cols == 0 || c.a.batch == 0 {
		return true
	}
	l := orgqrCTAShape(c)
	return qrCTAFits(q, l.threads, l.bytes)
}

// orgqrCTA launches kernels/orgqr/orgqr_cta.cu: one block per matrix, the batch in grid x.
func orgqrCTA[T Scalar](q *Queue, c *orgqrCall[T]) error {
	a := c.a
	if a.cols == 0 || a.batch == 0 {
		return nil
	}
	l := orgqrCTAShape(c)
	return cudaOf(q).launch("orgqr_cta", "orgqr_cta_"+dtypeName[T](), dim3{a.batch, 1, 1}, dim3{l.threads, 1, 1}, l.bytes,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), uintptr(c.k), c.tau.devPtr(),
		uintptr(a.batch), uintptr(l.lanes), uintptr(l.lds), uintptr(l.rpl))
}
