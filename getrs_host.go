package batchlas

// getrsHost solves every system with the LU factors: row interchanges, then two triangular
// solves in gonum's BLAS (all four types). gonum's Dgetrs is not used: it wants row-major
// factors from its own Dgetrf and a row-major B, while our column-major B read row-major is
// B^T; solving from the right with Dtrsm on B^T does the same work with no copies.
func getrsHost[T Scalar](_ *Queue, c *getrsCall[T]) error {
	a, b, n := c.a, c.b, c.a.rows
	ipiv := c.ipiv.host()[:n*a.batch]
	if err := checkPivots("getrs", ipiv, n); err != nil {
		return err
	}
	hostBatch(a.batch, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			getrs(c.trans, n, b.cols, a.mat(k), a.ld, ipiv[k*n:(k+1)*n], b.mat(k), b.ld)
		}
	})
	return nil
}

// checkPivots refuses pivots outside [1, n]: the host uses them as row indices.
func checkPivots(op string, ipiv []int32, n int) error {
	for i, p := range ipiv {
		if p < 1 || int(p) > n {
			return argErr(op, "ipiv", "pivot %d of matrix %d is %d, outside [1, %d]", i%n+1, i/n, p, n)
		}
	}
	return nil
}

// getrs solves op(A) X = B for the n-by-nrhs column-major B, with A = P L U held as getf2
// leaves it, as LAPACK's getrs.
func getrs[T Scalar](trans Transpose, n, nrhs int, a []T, lda int, ipiv []int32, b []T, ldb int) {
	if n == 0 || nrhs == 0 {
		return
	}
	if trans == NoTrans {
		// A X = B: X = U^-1 L^-1 P^T B.
		laswp(b, ldb, nrhs, ipiv, true)
		cmTrsm(Lower, NoTrans, true, n, nrhs, a, lda, b, ldb)
		cmTrsm(Upper, NoTrans, false, n, nrhs, a, lda, b, ldb)
		return
	}
	// op(A) X = op(U) op(L) P^T X = B: X = P op(L)^-1 op(U)^-1 B.
	cmTrsm(Upper, trans, false, n, nrhs, a, lda, b, ldb)
	cmTrsm(Lower, trans, true, n, nrhs, a, lda, b, ldb)
	laswp(b, ldb, nrhs, ipiv, false)
}

// laswp applies the row interchanges of ipiv (row k+1 with row ipiv[k], 1-based) to the
// ncols columns of the column-major a: in order (forward, P^T a) or in reverse (P a).
func laswp[T Scalar](a []T, lda, ncols int, ipiv []int32, forward bool) {
	for j := 0; j < ncols; j++ {
		col := a[j*lda:]
		for i := range ipiv {
			k := i
			if !forward {
				k = len(ipiv) - 1 - i
			}
			if p := int(ipiv[k]) - 1; p != k {
				col[k], col[p] = col[p], col[k]
			}
		}
	}
}
