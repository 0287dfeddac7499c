package batchlas

// getriHost inverts every matrix from its LU factors with getri, whose products run in
// gonum's BLAS (all four types); each goroutine keeps one column of scratch. gonum's Dgetri
// is not used: it wants the row-major factors of its own Dgetrf (see getrfHost).
func getriHost[T Scalar](_ *Queue, c *getriCall[T]) error {
	a, n := c.a, c.a.rows
	ipiv, info := c.ipiv.host()[:n*a.batch], c.info.host()
	if err := checkPivots("getri", ipiv, n); err != nil {
		return err
	}
	hostBatch(a.batch, func(lo, hi int) {
		work := make([]T, n)
		for k := lo; k < hi; k++ {
			info[k] = int32(getri(n, a.mat(k), a.ld, ipiv[k*n:(k+1)*n], work))
		}
	})
	return nil
}

// getri overwrites the LU factors in the n-by-n column-major a with inv(A), unblocked as
// LAPACK's getri; work holds n elements. It returns LAPACK's info, leaving a unchanged when
// U is singular.
func getri[T Scalar](n int, a []T, lda int, ipiv []int32, work []T) int {
	for j := 0; j < n; j++ {
		if a[j*lda+j] == 0 {
			return j + 1
		}
	}
	trti2Upper(n, a, lda)
	// Solve inv(A) L = inv(U) for inv(A), right to left: column j of inv(A) is column j of
	// inv(U) minus inv(A)[:, j+1:] times column j of L, whose place it takes.
	for j := n - 1; j >= 0; j-- {
		col := a[j*lda : j*lda+n]
		for i := j + 1; i < n; i++ {
			work[i], col[i] = col[i], 0
		}
		if j < n-1 {
			cmGemv(n, n-j-1, -1, a[(j+1)*lda:], lda, work[j+1:n], 1, col)
		}
	}
	// inv(A) = inv(U) inv(L) P^T: undo the row interchanges as column interchanges.
	for j := n - 2; j >= 0; j-- {
		if p := int(ipiv[j]) - 1; p != j {
			cj, cp := a[j*lda:j*lda+n], a[p*lda:p*lda+n]
			for i := range cj {
				cj[i], cp[i] = cp[i], cj[i]
			}
		}
	}
	return 0
}

// trti2Upper overwrites the nonsingular upper triangle of the n-by-n column-major a with its
// inverse, column by column as LAPACK's trti2.
func trti2Upper[T Scalar](n int, a []T, lda int) {
	for j := 0; j < n; j++ {
		col := a[j*lda : j*lda+j+1]
		col[j] = 1 / col[j]
		// inv(U)[:j, j] = -inv(U)[:j, :j] U[:j, j] / U(j,j).
		cmTrmv(Upper, false, j, a, lda, col[:j])
		scal(col[:j], -col[j])
	}
}
