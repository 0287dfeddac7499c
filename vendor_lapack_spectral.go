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
		lwork := 1
		if k > 0 && a.batch > 0 {
			lwork = lapackWork[T](func(work, lw unsafe.Pointer) {
				u, ldu := svdFactor(c.jobu, c.u, 0)
				vt, ldvt := svdFactor(c.jobvt, c.vt, 0)
				gesvdCallF(fn, c.jobu, c.jobvt, m, n, a.mat(0), a.ld, s, u, ldu, vt, ldvt, work, lw, make([]R, 5*k))
			})
		}
		hostBatch(a.batch, func(lo, hi int) {
			work, rwork, lw := make([]T, lwork), make([]R, 5*k), fint(lwork)
			for b := lo; b < hi; b++ {
				u, ldu := svdFactor(c.jobu, c.u, b)
				vt, ldvt := svdFactor(c.jobvt, c.vt, b)
				ab, sb := a.mat(b), s[b*k:(b+1)*k]
				switch {
				case k == 0:
					setIdentity(c.jobu, u, ldu, m)
					setIdentity(c.jobvt, vt, ldvt, n)
					info[b] = 0
				case !allFinite(ab, a.ld, m, n):
					setNaN(sb, 1, k, 1)
					ur, uc, vr, vc := svdShapes(c.jobu, c.jobvt, m, n)
					setNaN(u, ldu, ur, uc)
					setNaN(vt, ldvt, vr, vc)
					info[b] = int32(k)
				default:
					info[b] = gesvdCallF(fn, c.jobu, c.jobvt, m, n, ab, a.ld, sb, u, ldu, vt, ldvt, elemPtr(work), lw, rwork)
				}
			}
		})
		return nil
	})
}

// gesvdCallF calls ?gesvd once and returns its info; rwork (5 min(m, n) reals) is passed to
// the complex routines only.
func gesvdCallF[T Scalar, R Real](fn uintptr, jobu, jobvt SVDJob, m, n int, a []T, lda int, s []R,
	u []T, ldu int, vt []T, ldvt int, work, lwork unsafe.Pointer, rwork []R) int32 {
	info := new(int32)
	args := []unsafe.Pointer{fchar(jobu), fchar(jobvt), fint(m), fint(n), elemPtr(a), fint(lda), elemPtr(s),
		elemPtr(u), fint(ldu), elemPtr(vt), fint(ldvt), work, lwork}
	if isComplex[T]() {
		args = append(args, elemPtr(rwork))
	}
	fortranCall(fn, 2, append(args, unsafe.Pointer(info))...)
	return *info
}
