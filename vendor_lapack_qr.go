//go:build host && !novendor

package batchlas

import "unsafe"

// The QR factorization and its Q of the host vendor family: ?geqrf, ?orgqr (?ungqr) and
// ?ormqr (?unmqr), with LAPACK's reflectors, which are also the host family's.

func geqrfLAPACK[T Scalar]() family[geqrfCall[T]] {
	return lapackPart[T]("geqrf", func(fn uintptr, c *geqrfCall[T]) error {
		a, tau := c.a, c.tau.host()
		k := min(a.rows, a.cols)
		m, n, lda := fint(a.rows), fint(a.cols), fint(a.ld)
		lapackWorkEach[T](a.batch, nil, func(b int, work, lwork, info unsafe.Pointer) {
			fortranCall(fn, 0, m, n, elemPtr(a.mat(b)), lda, elemPtr(tau[b*k:]), work, lwork, info)
		})
		return nil
	})
}

func orgqrLAPACK[T Scalar]() family[orgqrCall[T]] {
	return lapackPart[T](lapackName[T]("orgqr", "ungqr"), func(fn uintptr, c *orgqrCall[T]) error {
		a, tau, k := c.a, c.tau.host(), c.k
		m, n, kk, lda := fint(a.rows), fint(a.cols), fint(k), fint(a.ld)
		lapackWorkEach[T](a.batch, nil, func(b int, work, lwork, info unsafe.Pointer) {
			fortranCall(fn, 0, m, n, kk, elemPtr(a.mat(b)), lda, elemPtr(tau[b*k:]), work, lwork, info)
		})
		return nil
	})
}

func ormqrLAPACK[T Scalar]() family[ormqrCall[T]] {
	return lapackPart[T](lapackName[T]("ormqr", "unmqr"), func(fn uintptr, c *ormqrCall[T]) error {
		a, tau, cm, k := c.a, c.tau.host(), c.c, c.k
		side, trans, m, n, kk := fchar(c.side), ftrans[T](c.trans), fint(cm.rows), fint(cm.cols), fint(k)
		lda, ldc := fint(a.ld), fint(cm.ld)
		lapackWorkEach[T](cm.batch, nil, func(b int, work, lwork, info unsafe.Pointer) {
			fortranCall(fn, 2, side, trans, m, n, kk, elemPtr(a.mat(b)), lda, elemPtr(tau[b*k:]),
				elemPtr(cm.mat(b)), ldc, work, lwork, info)
		})
		return nil
	})
}
