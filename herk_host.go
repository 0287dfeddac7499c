package batchlas

import "gonum.org/v1/gonum/blas"

// herkHost runs gonum's Cherk or Zherk on every matrix, and Ssyrk or Dsyrk for real types;
// alpha and beta are rounded to float32 for float32 and complex64. Or the packed gemm
// (rankPacked).
func herkHost[T Scalar](_ *Queue, h *herkCall[T]) error {
	if rankPacked(&h.rankArgs, true, false, scalarOf[T](h.alpha, 0), scalarOf[T](h.beta, 0)) {
		return nil
	}
	var up any
	switch any(*new(T)).(type) {
	case float32:
		up = rankK(blasImpl.Ssyrk, float32(h.alpha), float32(h.beta))
	case float64:
		up = rankK(blasImpl.Dsyrk, h.alpha, h.beta)
	case complex64:
		up = rankK(blasImpl.Cherk, float32(h.alpha), float32(h.beta))
	case complex128:
		up = rankK(blasImpl.Zherk, h.alpha, h.beta)
	}
	_, k := h.order()
	rankBatch(&h.rankArgs, true, h.beta == 0, realDiagonal(up.(rankFunc[T]), (h.alpha == 0 || k == 0) && h.beta == 1))
	return nil
}

// realDiagonal is up, for complex types, with the imaginary parts of C's diagonal set to zero
// first, unless keep says that C is to be left as it is: herk and her2k take them as zero,
// but gonum's Zherk and Zher2k multiply the whole diagonal element by beta, which carries a
// NaN imaginary part into the real part.
func realDiagonal[T Scalar](up rankFunc[T], keep bool) rankFunc[T] {
	if !isComplex[T]() || keep {
		return up
	}
	return func(ul blas.Uplo, tr blas.Transpose, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int) {
		for i := 0; i < n; i++ {
			c[i*ldc+i] = scalarOf[T](reS(c[i*ldc+i]), 0)
		}
		up(ul, tr, n, k, a, lda, b, ldb, c, ldc)
	}
}
