//go:build host && !novendor

package batchlas

import "unsafe"

// The eigen and singular value decompositions of the host vendor family.

// gesvdLAPACK runs ?gesvd on every matrix. Empty and non-finite matrices get exactly what
// the host family gives them (identity factors; NaN and info = k, as gesvdHost), since
// LAPACK writes nothing for the first and need not return for the second.
func gesvdLAPACK[T Scalar, R Real]() family[gesvdCall[T, R]] {
	return lapackPart[T]("gesvd", func(fn uintptr, c *gesvdCall[T, R]) error {
		a, s, info := c.a, c.s.host(), c.info.host()
		m, n := a.rows, a.cols
		k := min(m, n)
		jobu, jobvt, mm, nn, lda := fchar(c.jobu), fchar(c.jobvt), fint(m), fint(n), fint(a.ld)
		// rwork (5 min(m, n) reals) goes to the complex routine only.
		call := func(b int, work, lwork unsafe.Pointer, rwork []R, info unsafe.Pointer) {
			u, ldu := svdFactor(c.jobu, c.u, b)
			vt, ldvt := svdFactor(c.jobvt, c.vt, b)
			args := []unsafe.Pointer{jobu, jobvt, mm, nn, elemPtr(a.mat(b)), lda, elemPtr(s[b*k:]),
				elemPtr(u), fint(ldu), elemPtr(vt), fint(ldvt), work, lwork}
			if isComplex[T]() {
				args = append(args, elemPtr(rwork))
			}
			fortranCall(fn, 2, append(args, info)...)
		}
		lwork := 1
		if k > 0 && a.batch > 0 {
			lwork = lapackWork[T](func(work, lw unsafe.Pointer) { call(0, work, lw, nil, fint(0)) })
		}
		hostBatch(a.batch, func(lo, hi int) {
			work, rwork, lw, inf := make([]T, lwork), make([]R, 5*k), fint(lwork), new(int32)
			for b := lo; b < hi; b++ {
				u, ldu := svdFactor(c.jobu, c.u, b)
				vt, ldvt := svdFactor(c.jobvt, c.vt, b)
				switch {
				case k == 0:
					setIdentity(c.jobu, u, ldu, m)
					setIdentity(c.jobvt, vt, ldvt, n)
					info[b] = 0
				case !allFinite(a.mat(b), a.ld, m, n):
					setNaN(s[b*k:(b+1)*k], 1, k, 1)
					ur, uc, vr, vc := svdShapes(c.jobu, c.jobvt, m, n)
					setNaN(u, ldu, ur, uc)
					setNaN(vt, ldvt, vr, vc)
					info[b] = int32(k)
				default:
					*inf = 0
					call(b, elemPtr(work), lw, rwork, unsafe.Pointer(inf))
					info[b] = *inf
				}
			}
		})
		return nil
	})
}

// syevLAPACK runs ?syev (?heev) on every matrix. Empty and non-finite matrices get exactly
// what the host family gives them (info 0; NaN and info n-1, as syevHost), since LAPACK
// writes nothing for the first and need not return for the second.
func syevLAPACK[T Scalar, R Real]() family[syevCall[T, R]] {
	return lapackPart[T](lapackName[T]("syev", "heev"), func(fn uintptr, c *syevCall[T, R]) error {
		a, n, w, info := c.a, c.a.rows, c.w.host(), c.info.host()
		vectors, lower := c.jobz == Vectors, c.uplo == Lower
		jobz, uplo, nn, lda := fchar(c.jobz), fchar(c.uplo), fint(n), fint(a.ld)
		// rwork (3n-2 reals) goes to the complex routine only.
		call := func(b int, work, lwork unsafe.Pointer, rwork []R, info unsafe.Pointer) {
			args := []unsafe.Pointer{jobz, uplo, nn, elemPtr(a.mat(b)), lda, elemPtr(w[b*n:]), work, lwork}
			if isComplex[T]() {
				args = append(args, elemPtr(rwork))
			}
			fortranCall(fn, 2, append(args, info)...)
		}
		if n == 0 || a.batch == 0 {
			clear(info[:a.batch])
			return nil
		}
		lwork := lapackWork[T](func(work, lw unsafe.Pointer) { call(0, work, lw, nil, fint(0)) })
		hostBatch(a.batch, func(lo, hi int) {
			work, rwork, lw, inf := make([]T, lwork), make([]R, max(1, 3*n-2)), fint(lwork), new(int32)
			for b := lo; b < hi; b++ {
				if !finiteTriangle(lower, n, a.mat(b), a.ld) {
					info[b] = int32(nanEigen(vectors, n, a.mat(b), a.ld, w[b*n:(b+1)*n]))
					continue
				}
				*inf = 0
				call(b, elemPtr(work), lw, rwork, unsafe.Pointer(inf))
				info[b] = *inf
			}
		})
		return nil
	})
}
