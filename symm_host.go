package batchlas

import "gonum.org/v1/gonum/blas"

// symmHost runs gonum's Ssymm, Dsymm, Csymm or Zsymm on every matrix.
func symmHost[T Scalar](_ *Queue, s *symmCall[T]) error {
	symmBatch(s, symmKernel[T](false))
	return nil
}

// symmKernel is gonum's symm for T or, when herm, its hemm (Chemm, Zhemm; symm for real
// types, where the two are the same).
func symmKernel[T Scalar](herm bool) symmFunc[T] {
	var k any
	switch any(*new(T)).(type) {
	case float32:
		k = blasImpl.Ssymm
	case float64:
		k = blasImpl.Dsymm
	case complex64:
		k = blasImpl.Csymm
		if herm {
			k = blasImpl.Chemm
		}
	case complex128:
		k = blasImpl.Zsymm
		if herm {
			k = blasImpl.Zhemm
		}
	}
	return k.(symmFunc[T])
}

// symmFunc is the signature of gonum's symm and hemm.
type symmFunc[T Scalar] = func(s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

// symmBatch runs the gonum routine k on every matrix. Row-major, gonum sees C^T = alpha
// B^T A^T + beta C^T (side Left) with A^T = A held in the other triangle, so the side and the
// triangle swap. For hemm A^T = conj(A) is Hermitian too, and the same call is right.
func symmBatch[T Scalar](s *symmCall[T], k symmFunc[T]) {
	side := blas.Left
	if s.side == Left {
		side = blas.Right
	}
	ul := rowMajorUplo(s.uplo)
	a, b, c := s.a, s.b, s.c
	hostBatch(c.batch, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			k(side, ul, c.cols, c.rows, s.alpha, a.mat(i), a.ld, b.mat(i), b.ld, s.beta, c.mat(i), c.ld)
		}
	})
}
