//go:build host && !novendor

package batchlas

import "unsafe"

// The LU and Cholesky solvers of the host vendor family. Pivots are LAPACK's own (1-based
// int32, as Getrf documents); where an op reads pivots, they are checked as the host family
// checks them, before anything is written, since LAPACK would index memory with them.

func getrfLAPACK[T Scalar]() family[getrfCall[T]] {
	return lapackPart[T]("getrf", func(fn uintptr, c *getrfCall[T]) error {
		a, ipiv := c.a, c.ipiv.host()
		k := min(a.rows, a.cols)
		m, n, lda := fint(a.rows), fint(a.cols), fint(a.ld)
		lapackBatch(a.batch, c.info.host(), func(b int, info unsafe.Pointer) {
			fortranCall(fn, 0, m, n, elemPtr(a.mat(b)), lda, elemPtr(ipiv[b*k:]), info)
		})
		return nil
	})
}

func getrsLAPACK[T Scalar]() family[getrsCall[T]] {
	return lapackPart[T]("getrs", func(fn uintptr, c *getrsCall[T]) error {
		a, b, n := c.a, c.b, c.a.rows
		ipiv := c.ipiv.host()[:n*a.batch]
		if err := checkPivots("getrs", ipiv, n); err != nil {
			return err
		}
		trans, nn, nrhs, lda, ldb := ftrans[T](c.trans), fint(n), fint(b.cols), fint(a.ld), fint(b.ld)
		lapackBatch(a.batch, nil, func(k int, info unsafe.Pointer) {
			fortranCall(fn, 1, trans, nn, nrhs, elemPtr(a.mat(k)), lda, elemPtr(ipiv[k*n:]), elemPtr(b.mat(k)), ldb, info)
		})
		return nil
	})
}

func gesvLAPACK[T Scalar]() family[gesvCall[T]] {
	return lapackPart[T]("gesv", func(fn uintptr, c *gesvCall[T]) error {
		a, b, n, ipiv := c.a, c.b, c.a.rows, c.ipiv.host()
		nn, nrhs, lda, ldb := fint(n), fint(b.cols), fint(a.ld), fint(b.ld)
		lapackBatch(a.batch, c.info.host(), func(k int, info unsafe.Pointer) {
			fortranCall(fn, 0, nn, nrhs, elemPtr(a.mat(k)), lda, elemPtr(ipiv[k*n:]), elemPtr(b.mat(k)), ldb, info)
		})
		return nil
	})
}

func getriLAPACK[T Scalar]() family[getriCall[T]] {
	return lapackPart[T]("getri", func(fn uintptr, c *getriCall[T]) error {
		a, n := c.a, c.a.rows
		ipiv := c.ipiv.host()[:n*a.batch]
		if err := checkPivots("getri", ipiv, n); err != nil {
			return err
		}
		nn, lda := fint(n), fint(a.ld)
		lapackWorkEach[T](a.batch, c.info.host(), func(k int, work, lwork, info unsafe.Pointer) {
			fortranCall(fn, 0, nn, elemPtr(a.mat(k)), lda, elemPtr(ipiv[k*n:]), work, lwork, info)
		})
		return nil
	})
}

func potrsLAPACK[T Scalar]() family[potrsCall[T]] {
	return lapackPart[T]("potrs", func(fn uintptr, c *potrsCall[T]) error {
		return cholSolveVendor(fn, c.uplo, c.a, c.b, nil)
	})
}

func posvLAPACK[T Scalar]() family[posvCall[T]] {
	return lapackPart[T]("posv", func(fn uintptr, c *posvCall[T]) error {
		return cholSolveVendor(fn, c.uplo, c.a, c.b, c.info.host())
	})
}

// cholSolveVendor runs ?potrs or ?posv, which take the same arguments, on every matrix.
func cholSolveVendor[T Scalar](fn uintptr, u Uplo, a, b *Matrix[T], info []int32) error {
	uplo, n, nrhs, lda, ldb := fchar(u), fint(a.rows), fint(b.cols), fint(a.ld), fint(b.ld)
	lapackBatch(a.batch, info, func(k int, inf unsafe.Pointer) {
		fortranCall(fn, 1, uplo, n, nrhs, elemPtr(a.mat(k)), lda, elemPtr(b.mat(k)), ldb, inf)
	})
	return nil
}
