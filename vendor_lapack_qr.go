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

// gelsLAPACK calls ?gels on each matrix, except on an A that is all zero: LAPACK returns
// X = 0 with info 0 for it, where Gels reports R(1,1) = 0 (info 1) as its other families do,
// so such a matrix gets info 1 and is left as it is.
func gelsLAPACK[T Scalar]() family[gelsCall[T]] {
	return lapackPart[T]("gels", func(fn uintptr, c *gelsCall[T]) error {
		a, bm, info := c.a, c.b, c.info.host()
		m, n, nrhs := a.rows, a.cols, bm.cols
		trans, fm, fn2, fr, lda, ldb := ftrans[T](c.trans), fint(m), fint(n), fint(nrhs), fint(a.ld), fint(bm.ld)
		zero := nrhs > 0 && min(m, n) > 0
		lapackWorkEach[T](a.batch, info, func(b int, work, lwork, inf unsafe.Pointer) {
			if zero && *(*int32)(lwork) >= 0 && allZero(m, n, a.mat(b), a.ld) {
				*(*int32)(inf) = 1
				return
			}
			fortranCall(fn, 1, trans, fm, fn2, fr, elemPtr(a.mat(b)), lda, elemPtr(bm.mat(b)), ldb, work, lwork, inf)
		})
		return nil
	})
}

// allZero reports whether the m-by-n column-major a is all zero.
func allZero[T Scalar](m, n int, a []T, lda int) bool {
	for j := 0; j < n; j++ {
		for _, v := range a[j*lda : j*lda+m] {
			if v != 0 {
				return false
			}
		}
	}
	return true
}
