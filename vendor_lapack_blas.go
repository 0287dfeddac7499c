//go:build host && !novendor

package batchlas

import "unsafe"

// The BLAS ops of the host vendor family: one Fortran BLAS call per matrix. Reference BLAS
// and OpenBLAS both leave C unread when beta is zero (OpenBLAS writes zeros through its beta
// kernel before the update), which the conformance suite checks with NaN in C.

func symmLAPACK[T Scalar]() family[symmCall[T]] {
	return lapackPart[T]("symm", symmVendor[T])
}

// hemmLAPACK calls ?hemm, or ?symm for the real types.
func hemmLAPACK[T Scalar]() family[hemmCall[T]] {
	return lapackPart[T](lapackName[T]("symm", "hemm"), func(fn uintptr, h *hemmCall[T]) error {
		return symmVendor(fn, &h.symmCall)
	})
}

func symmVendor[T Scalar](fn uintptr, s *symmCall[T]) error {
	a, b, c := s.a, s.b, s.c
	side, uplo, m, n := fchar(s.side), fchar(s.uplo), fint(c.rows), fint(c.cols)
	alpha, beta, lda, ldb, ldc := fval(s.alpha), fval(s.beta), fint(a.ld), fint(b.ld), fint(c.ld)
	lapackBatch(c.batch, nil, func(i int, _ unsafe.Pointer) {
		fortranCall(fn, 2, side, uplo, m, n, alpha, elemPtr(a.mat(i)), lda, elemPtr(b.mat(i)), ldb,
			beta, elemPtr(c.mat(i)), ldc)
	})
	return nil
}

func syrkLAPACK[T Scalar]() family[syrkCall[T]] {
	return lapackPart[T]("syrk", func(fn uintptr, s *syrkCall[T]) error {
		return rankVendor(fn, &s.rankArgs, false, fval(s.alpha), fval(s.beta))
	})
}

// herkLAPACK calls ?herk, or ?syrk for the real types; alpha and beta are real either way.
func herkLAPACK[T Scalar]() family[herkCall[T]] {
	return lapackPart[T](lapackName[T]("syrk", "herk"), func(fn uintptr, h *herkCall[T]) error {
		return rankVendor(fn, &h.rankArgs, false, freal[T](h.alpha), freal[T](h.beta))
	})
}

func syr2kLAPACK[T Scalar]() family[syr2kCall[T]] {
	return lapackPart[T]("syr2k", func(fn uintptr, s *syr2kCall[T]) error {
		return rankVendor(fn, &s.rankArgs, true, fval(s.alpha), fval(s.beta))
	})
}

// her2kLAPACK calls ?her2k, or ?syr2k for the real types; beta is real either way.
func her2kLAPACK[T Scalar]() family[her2kCall[T]] {
	return lapackPart[T](lapackName[T]("syr2k", "her2k"), func(fn uintptr, h *her2kCall[T]) error {
		return rankVendor(fn, &h.rankArgs, true, fval(h.alpha), freal[T](h.beta))
	})
}

// rankVendor runs the rank-k update (two: rank-2k) fn on every matrix, with alpha and beta
// already in the routine's scalar types.
func rankVendor[T Scalar](fn uintptr, r *rankArgs[T], two bool, alpha, beta unsafe.Pointer) error {
	a, b, c := r.a, r.b, r.c
	n, k := r.order()
	uplo, trans, nn, kk := fchar(r.uplo), ftrans[T](r.trans), fint(n), fint(k)
	lda, ldb, ldc := fint(a.ld), fint(b.ld), fint(c.ld)
	lapackBatch(c.batch, nil, func(i int, _ unsafe.Pointer) {
		if two {
			fortranCall(fn, 2, uplo, trans, nn, kk, alpha, elemPtr(a.mat(i)), lda, elemPtr(b.mat(i)), ldb,
				beta, elemPtr(c.mat(i)), ldc)
		} else {
			fortranCall(fn, 2, uplo, trans, nn, kk, alpha, elemPtr(a.mat(i)), lda, beta, elemPtr(c.mat(i)), ldc)
		}
	})
	return nil
}

func gemmLAPACK[T Scalar]() family[gemmCall[T]] {
	return lapackPart[T]("gemm", func(fn uintptr, g *gemmCall[T]) error {
		m, n, k := g.dims()
		a, b, c := g.a, g.b, g.c
		ta, tb, mm, nn, kk := ftrans[T](g.transA), ftrans[T](g.transB), fint(m), fint(n), fint(k)
		alpha, beta, lda, ldb, ldc := fval(g.alpha), fval(g.beta), fint(a.ld), fint(b.ld), fint(c.ld)
		lapackBatch(c.batch, nil, func(i int, _ unsafe.Pointer) {
			// OpenBLAS (0.3.21, on small matrices at least) multiplies by alpha = 0, so that
			// NaN in A or B reaches C: the quick return is done here.
			if gemmQuick(g.alpha, g.beta, m, n, k, c.mat(i), c.ld) {
				return
			}
			fortranCall(fn, 2, ta, tb, mm, nn, kk, alpha, elemPtr(a.mat(i)), lda, elemPtr(b.mat(i)), ldb,
				beta, elemPtr(c.mat(i)), ldc)
		})
		return nil
	})
}

// gemvLAPACK runs ?gemv on every matrix. alpha = 0 or an empty inner size (nx = 0) gives
// y = beta y through gemm's quick return, as the host family does; ?gemv would leave y as it
// is for nx = 0.
func gemvLAPACK[T Scalar]() family[gemvCall[T]] {
	return lapackPart[T]("gemv", func(fn uintptr, g *gemvCall[T]) error {
		a, x, y := g.a, g.x.host(), g.y.host()
		nx, ny := g.lens()
		trans, m, n, lda, one := ftrans[T](g.trans), fint(a.rows), fint(a.cols), fint(a.ld), fint(1)
		alpha, beta := fval(g.alpha), fval(g.beta)
		lapackBatch(a.batch, nil, func(i int, _ unsafe.Pointer) {
			yi := y[i*ny : (i+1)*ny]
			if gemmQuick(g.alpha, g.beta, ny, 1, nx, yi, max(1, ny)) {
				return
			}
			fortranCall(fn, 1, trans, m, n, alpha, elemPtr(a.mat(i)), lda, elemPtr(x[i*nx:]), one, beta, elemPtr(yi), one)
		})
		return nil
	})
}

func trsmLAPACK[T Scalar]() family[trsmCall[T]] {
	return lapackPart[T]("trsm", func(fn uintptr, c *trsmCall[T]) error { return triVendor(fn, &c.triCall) })
}

func trmmLAPACK[T Scalar]() family[trmmCall[T]] {
	return lapackPart[T]("trmm", func(fn uintptr, c *trmmCall[T]) error { return triVendor(fn, &c.triCall) })
}

// triVendor runs ?trsm or ?trmm, which take the same arguments, on every matrix.
func triVendor[T Scalar](fn uintptr, c *triCall[T]) error {
	a, b := c.a, c.b
	side, uplo, trans, diag := fchar(c.side), fchar(c.uplo), ftrans[T](c.trans), fchar(c.diag)
	m, n, alpha, lda, ldb := fint(b.rows), fint(b.cols), fval(c.alpha), fint(a.ld), fint(b.ld)
	lapackBatch(b.batch, nil, func(i int, _ unsafe.Pointer) {
		fortranCall(fn, 4, side, uplo, trans, diag, m, n, alpha, elemPtr(a.mat(i)), lda, elemPtr(b.mat(i)), ldb)
	})
	return nil
}
