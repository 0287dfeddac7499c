//go:build cuda

package batchlas

// orgqrCTAShape is the launch of kernels/orgqr/orgqr_cta.cu: the matrix (n columns of lds)
// and k taus in shared memory.
func orgqrCTAShape[T Scalar](c *orgqrCall[T]) (lanes, threads, lds, bytes int) {
	lanes, threads, lds = qrCTALayout(c.a.rows, c.a.cols)
	return lanes, threads, lds, (c.a.cols*lds + c.k) * sizeOf[T]()
}

// orgqrCTACanRun: a CUDA queue whose blocks may hold the matrix in shared memory; an empty
// call always.
func orgqrCTACanRun[T Scalar](q *Queue, c *orgqrCall[T]) bool {
	if c.a.cols == 0 || c.a.batch == 0 {
		return true
	}
	_, threads, _, bytes := orgqrCTAShape(c)
	return qrCTAFits(q, threads, bytes)
}

// orgqrCTA launches kernels/orgqr/orgqr_cta.cu: one block per matrix, the batch in grid x.
func orgqrCTA[T Scalar](q *Queue, c *orgqrCall[T]) error {
	a := c.a
	if a.cols == 0 || a.batch == 0 {
		return nil
	}
	lanes, threads, lds, bytes := orgqrCTAShape(c)
	return cudaOf(q).launch("orgqr_cta", "orgqr_cta_"+dtypeName[T](), dim3{a.batch, 1, 1}, dim3{threads, 1, 1}, bytes,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), uintptr(c.k), c.tau.devPtr(),
		uintptr(a.batch), uintptr(lanes), uintptr(lds))
}
