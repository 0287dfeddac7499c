//go:build host && !novendor

package batchlas

import "unsafe"

// The LU and Cholesky solvers of the host vendor family. Pivots are LAPACK's own (1-based
// int32, as Getrf documents); where an op reads pivots, they are checked as the host family
// checks them, before anything is written, since LAPACK would index memory with them.

// getrfLAPACK runs ?getrf on every matrix, with ?getrf2 where a pivot is below the safe
// minimum (see luVendor).
func getrfLAPACK[T Scalar]() family[getrfCall[T]] {
	return lapackParts[T]([]string{"getrf", "getrf2"}, func(fns []uintptr, c *getrfCall[T]) error {
		a, ipiv := c.a, c.ipiv.host()
		k := min(a.rows, a.cols)
		lu := newLUVendor[T](fns, a.rows, a.cols, a.ld)
		lapackEach(a.batch, c.info.host(), func() func(int, unsafe.Pointer) {
			save := make([]T, a.rows*a.cols)
			return func(b int, info unsafe.Pointer) { lu.factor(a.mat(b), ipiv[b*k:], save, info) }
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

// gesvLAPACK solves with ?getrs each matrix whose info is 0 (the factors are Getrf's, see
// gesvFamilies).
func gesvLAPACK[T Scalar]() family[gesvCall[T]] {
	return lapackPart[T]("getrs", func(fn uintptr, c *gesvCall[T]) error {
		a, b, n, ipiv, info := c.a, c.b, c.a.rows, c.ipiv.host(), c.info.host()
		trans, nn, nrhs, lda, ldb := fchar(NoTrans), fint(n), fint(b.cols), fint(a.ld), fint(b.ld)
		lapackBatch(a.batch, nil, func(k int, inf unsafe.Pointer) {
			if info[k] == 0 {
				fortranCall(fn, 1, trans, nn, nrhs, elemPtr(a.mat(k)), lda, elemPtr(ipiv[k*n:]), elemPtr(b.mat(k)), ldb, inf)
			}
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

// potrfLAPACK runs ?potrf on every matrix, with the info LAPACK gives (see cholVendor).
func potrfLAPACK[T Scalar]() family[potrfCall[T]] {
	return lapackPart[T]("potrf", func(fn uintptr, c *potrfCall[T]) error {
		a := c.a
		ch := newCholVendor[T](fn, c.uplo, a.rows, a.ld)
		lapackBatch(a.batch, c.info.host(), func(b int, info unsafe.Pointer) { ch.factor(a.mat(b), info) })
		return nil
	})
}

func potrsLAPACK[T Scalar]() family[potrsCall[T]] {
	return lapackPart[T]("potrs", func(fn uintptr, c *potrsCall[T]) error {
		lapackBatch(c.a.batch, nil, cholSolve(fn, c.uplo, c.a, c.b))
		return nil
	})
}

// posvLAPACK solves with ?potrs each matrix whose info is 0 (the factor is Potrf's, see
// posvFamilies).
func posvLAPACK[T Scalar]() family[posvCall[T]] {
	return lapackPart[T]("potrs", func(fn uintptr, c *posvCall[T]) error {
		info, solve := c.info.host(), cholSolve(fn, c.uplo, c.a, c.b)
		lapackBatch(c.a.batch, nil, func(k int, inf unsafe.Pointer) {
			if info[k] == 0 {
				solve(k, inf)
			}
		})
		return nil
	})
}

// cholSolve is ?potrs on matrix k of a and b.
func cholSolve[T Scalar](potrs uintptr, u Uplo, a, b *Matrix[T]) func(k int, info unsafe.Pointer) {
	uplo, n, nrhs, lda, ldb := fchar(u), fint(a.rows), fint(b.cols), fint(a.ld), fint(b.ld)
	return func(k int, info unsafe.Pointer) {
		fortranCall(potrs, 1, uplo, n, nrhs, elemPtr(a.mat(k)), lda, elemPtr(b.mat(k)), ldb, info)
	}
}

// cholVendor factors n-by-n matrices of leading dimension lda with ?potrf. OpenBLAS's own
// potrf stops at a pivot that is not positive but goes on through a NaN one, while LAPACK's
// stops there too, as the host family does; so a factor with NaN on its diagonal gets the
// info of the first such pivot.
type cholVendor[T Scalar] struct {
	potrf        uintptr
	uplo, n, lda unsafe.Pointer
	order, ld    int
}

func newCholVendor[T Scalar](potrf uintptr, u Uplo, n, lda int) cholVendor[T] {
	return cholVendor[T]{potrf: potrf, uplo: fchar(u), n: fint(n), lda: fint(lda), order: n, ld: lda}
}

// factor factors a in place and sets *info.
func (c cholVendor[T]) factor(a []T, info unsafe.Pointer) {
	fortranCall(c.potrf, 1, c.uplo, c.n, elemPtr(a), c.lda, info)
	if *(*int32)(info) != 0 {
		return
	}
	for j := 0; j < c.order; j++ {
		if v := a[j*c.ld+j]; v != v {
			*(*int32)(info) = int32(j + 1)
			return
		}
	}
}

// luVendor factors m-by-n matrices of leading dimension lda with ?getrf. OpenBLAS's own
// getrf scales the column below a pivot by the pivot's inverse, which overflows when the
// pivot is below the safe minimum; LAPACK divides instead, as the host family does. A matrix
// whose U has such a pivot is therefore factored again, from a copy, with ?getrf2, LAPACK's
// recursive LU, which OpenBLAS takes from reference LAPACK.
type luVendor[T Scalar] struct {
	getrf, getrf2 uintptr
	m, n, lda     unsafe.Pointer
	rows, cols    int
	ld            int
}

func newLUVendor[T Scalar](fns []uintptr, m, n, lda int) luVendor[T] {
	return luVendor[T]{getrf: fns[0], getrf2: fns[1], m: fint(m), n: fint(n), lda: fint(lda), rows: m, cols: n, ld: lda}
}

// factor factors a in place, with its pivots, and sets *info; save is scratch of m*n
// elements.
func (l luVendor[T]) factor(a []T, ipiv []int32, save []T, info unsafe.Pointer) {
	if min(l.rows, l.cols) == 0 {
		return // nothing to factor: LAPACK's info 0 stands
	}
	copyMatrix(save, l.rows, a, l.ld, l.rows, l.cols)
	fortranCall(l.getrf, 0, l.m, l.n, elemPtr(a), l.lda, elemPtr(ipiv), info)
	sfmin := 0x1p-1022
	if isSingle[T]() {
		sfmin = 0x1p-126
	}
	for j := 0; j < min(l.rows, l.cols); j++ {
		if p := absS(a[j*l.ld+j]); p != 0 && p < sfmin {
			copyMatrix(a, l.ld, save, l.rows, l.rows, l.cols)
			*(*int32)(info) = 0
			fortranCall(l.getrf2, 0, l.m, l.n, elemPtr(a), l.lda, elemPtr(ipiv), info)
			return
		}
	}
}

// copyMatrix copies the r-by-c column-major src (leading dimension lds) to dst (ldd).
func copyMatrix[T Scalar](dst []T, ldd int, src []T, lds, r, c int) {
	for j := 0; j < c; j++ {
		copy(dst[j*ldd:j*ldd+r], src[j*lds:j*lds+r])
	}
}
