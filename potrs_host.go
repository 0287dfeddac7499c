package batchlas

// potrsHost solves every system with two triangular solves in gonum's BLAS (all four types).
// gonum's Dpotrs is not used: it wants a row-major B, while our column-major B read
// row-major is B^T; solving from the right with Dtrsm on B^T is Dpotrs without the copies.
func potrsHost[T Scalar](_ *Queue, c *potrsCall[T]) error {
	a, b := c.a, c.b
	hostBatch(a.batch, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			potrs(c.uplo, a.rows, b.cols, a.mat(k), a.ld, b.mat(k), b.ld)
		}
	})
	return nil
}

// potrs solves A X = B for the n-by-nrhs column-major B with the Cholesky factor of A held in
// the uplo triangle of a, as LAPACK's potrs.
func potrs[T Scalar](uplo Uplo, n, nrhs int, a []T, lda int, b []T, ldb int) {
	first, second := NoTrans, ConjTrans // A = L L^H: solve with L, then L^H.
	if uplo == Upper {
		first, second = ConjTrans, NoTrans // A = U^H U: solve with U^H, then U.
	}
	cmTrsm(uplo, first, false, n, nrhs, a, lda, b, ldb)
	cmTrsm(uplo, second, false, n, nrhs, a, lda, b, ldb)
}
