package batchlas

import "gonum.org/v1/gonum/blas"

// syrkHost runs gonum's Ssyrk, Dsyrk, Csyrk or Zsyrk on every matrix, or the packed gemm
// (rankPacked).
func syrkHost[T Scalar](_ *Queue, s *syrkCall[T]) error {
	if rankPacked(&s.rankArgs, false, false, s.alpha, s.beta) {
		return nil
	}
	var up any
	switch alpha := any(s.alpha).(type) {
	case float32:
		up = rankK(blasImpl.Ssyrk, alpha, any(s.beta).(float32))
	case float64:
		up = rankK(blasImpl.Dsyrk, alpha, any(s.beta).(float64))
	case complex64:
		up = rankK(blasImpl.Csyrk, alpha, any(s.beta).(complex64))
	case complex128:
		up = rankK(blasImpl.Zsyrk, alpha, any(s.beta).(complex128))
	}
	rankBatch(&s.rankArgs, false, s.beta == 0, up.(rankFunc[T]))
	return nil
}

// rankFunc is one matrix's rank-k or rank-2k update as gonum runs it: the triangle ul of the
// n-by-n C from a and b, n-by-k (tr NoTrans) or k-by-n, all row-major.
type rankFunc[T Scalar] = func(ul blas.Uplo, tr blas.Transpose, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int)

// rankK adapts gonum's syrk or herk, whose alpha and beta have type S, to a rankFunc that
// ignores b.
func rankK[T Scalar, S any](f func(blas.Uplo, blas.Transpose, int, int, S, []T, int, S, []T, int), alpha, beta S) rankFunc[T] {
	return func(ul blas.Uplo, tr blas.Transpose, n, k int, a []T, lda int, _ []T, _ int, c []T, ldc int) {
		f(ul, tr, n, k, alpha, a, lda, beta, c, ldc)
	}
}

// rank2K adapts gonum's syr2k or her2k, whose alpha has type A and beta type B, to a
// rankFunc.
func rank2K[T Scalar, A, B any](f func(blas.Uplo, blas.Transpose, int, int, A, []T, int, []T, int, B, []T, int), alpha A, beta B) rankFunc[T] {
	return func(ul blas.Uplo, tr blas.Transpose, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int) {
		f(ul, tr, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// rankBatch runs up on every matrix. Row-major, gonum sees the transposes A' = A^T,
// B' = B^T, C' = C^T, so the triangle swaps and the transposition flips: C' = alpha A'^T A'
// for syrk, alpha A'^H A' for herk (herm), in the other triangle. For her2k the transposed
// update is C' = alpha B'^H A' + conj(alpha) A'^H B', gonum's form with a and b swapped;
// syrk, herk and syr2k do not mind the swap.
//
// betaZero says that beta is zero, so that C must not be read. gonum's Ssyrk and Dsyrk (in
// v0.17.0, lower triangle with A transposed) scale C by beta even then, which keeps a NaN in
// C; the triangle is zeroed first instead.
func rankBatch[T Scalar](r *rankArgs[T], herm, betaZero bool, up rankFunc[T]) {
	ul := rowMajorUplo(r.uplo)
	tr := blas.NoTrans
	if r.trans == NoTrans {
		// gonum's real routines take ConjTrans as Trans.
		tr = blas.Trans
		if herm {
			tr = blas.ConjTrans
		}
	}
	n, k := r.order()
	a, b, c := r.a, r.b, r.c
	hostBatch(c.batch, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ma, lda, mb, ldb, mc := a.mat(i), a.ld, b.mat(i), b.ld, c.mat(i)
			if betaZero {
				zeroTriangle(r.uplo == Lower, n, mc, c.ld)
			}
			if k == 0 {
				// gonum checks the operands' lengths even when k = 0 and it reads none of
				// them; C's storage, long enough for any such check, stands in.
				ma, lda, mb, ldb = mc, c.ld, mc, c.ld
			}
			up(ul, tr, n, k, mb, ldb, ma, lda, mc, c.ld)
		}
	})
}

// zeroTriangle zeroes the named triangle, diagonal included, of the n-by-n column-major c.
func zeroTriangle[T Scalar](lower bool, n int, c []T, ldc int) {
	for j := 0; j < n; j++ {
		if lower {
			clear(c[j*ldc+j : j*ldc+n])
		} else {
			clear(c[j*ldc : j*ldc+j+1])
		}
	}
}
