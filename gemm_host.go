package batchlas

import (
	"gonum.org/v1/gonum/blas"

	"github.com/batchlas/batchlas/internal/hostgemm"
)

// gemmHost multiplies every matrix of the batch with gemmKernel's gemm.
func gemmHost[T Scalar](_ *Queue, g *gemmCall[T]) error {
	m, n, k := g.dims()
	a, b, c := g.a, g.b, g.c
	gemm := gemmKernel[T]()
	hostBatch(c.batch, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			gemm(g.transA, g.transB, m, n, k, g.alpha, a.mat(i), a.ld, b.mat(i), b.ld, g.beta, c.mat(i), c.ld)
		}
	})
	return nil
}

// gemmFunc is a column-major BLAS gemm: C = alpha op(A) op(B) + beta C, C m-by-n, inner
// size k.
type gemmFunc[T Scalar] = func(tA, tB Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

// gemmKernel is the gemm of one matrix: internal/hostgemm's packed assembly kernels where
// the CPU has them (AVX2 and FMA, or AVX-512, on amd64), portableGemm elsewhere.
func gemmKernel[T Scalar]() gemmFunc[T] {
	if !hostgemm.Enabled() {
		return portableGemm[T]()
	}
	return func(tA, tB Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
		hostgemm.Gemm(blasTrans(tA), blasTrans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// portableGemm is the gemm of one matrix in Go: gonum's Sgemm or Dgemm for real types,
// zgemm over gonum's complex level-1 kernels for complex ones (gonum's Cgemm and Zgemm are
// plain loops, 4x slower than zgemm at n = 64 for complex128 and 16x for complex64).
func portableGemm[T Scalar]() gemmFunc[T] {
	var k any
	switch any(*new(T)).(type) {
	case float32:
		k = colGemm(blasImpl.Sgemm)
	case float64:
		k = colGemm(blasImpl.Dgemm)
	case complex64:
		k = zgemm(cplxLevel1[complex64]{blasImpl.Caxpy, blasImpl.Cdotu, blasImpl.Cdotc})
	case complex128:
		k = zgemm(cplxLevel1[complex128]{blasImpl.Zaxpy, blasImpl.Zdotu, blasImpl.Zdotc})
	}
	return k.(gemmFunc[T])
}

// colGemm is a column-major gemm over gonum's row-major one. Read row-major, each
// column-major matrix is its transpose, so it computes C^T = op(B)^T op(A)^T: the operands
// and sizes swap and the transposes carry over unchanged. The quick return is done here:
// gonum's Sgemm and Dgemm (v0.17.0) multiply by alpha = 0, so that NaN in A or B reaches C,
// and they check the length of an empty A and B (k = 0) against their leading dimensions.
func colGemm[T float32 | float64](rowMajor func(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)) gemmFunc[T] {
	return func(tA, tB Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
		if gemmQuick(alpha, beta, m, n, k, c, ldc) {
			return
		}
		rowMajor(blasTrans(tB), blasTrans(tA), n, m, k, alpha, b, ldb, a, lda, beta, c, ldc)
	}
}

// zgemm is a column-major complex gemm over gonum's level-1 kernels (SIMD assembly on
// amd64). As in BLAS, A and B are not read when alpha is 0.
func zgemm[T Complex](l cplxLevel1[T]) gemmFunc[T] {
	return func(tA, tB Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
		gemmScale(beta, m, n, c, ldc)
		if alpha == 0 || k == 0 || m == 0 {
			return
		}
		if tA == NoTrans {
			l.gemmAxpy(tB, m, n, k, alpha, a, lda, b, ldb, c, ldc)
		} else {
			l.gemmDot(tA, tB, m, n, k, alpha, a, lda, b, ldb, c, ldc)
		}
	}
}

// cplxLevel1 holds gonum's complex level-1 kernels for T.
type cplxLevel1[T Complex] struct {
	axpy       func(n int, alpha T, x []T, incX int, y []T, incY int)
	dotu, dotc func(n int, x []T, incX int, y []T, incY int) T
}

// gemmAxpy is C += alpha A op(B): each column of C gathers axpys of the columns of A (a
// plain loop for columns shorter than zgemmShort).
func (l cplxLevel1[T]) gemmAxpy(tB Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, c []T, ldc int) {
	for j := 0; j < n; j++ {
		cj := c[j*ldc : j*ldc+m]
		for p := 0; p < k; p++ {
			var bpj T
			switch tB {
			case NoTrans:
				bpj = b[j*ldb+p]
			case Trans:
				bpj = b[p*ldb+j]
			default:
				bpj = conj(b[p*ldb+j])
			}
			s, ap := alpha*bpj, a[p*lda:p*lda+m]
			if m >= zgemmShort {
				l.axpy(m, s, ap, 1, cj, 1)
				continue
			}
			for i, v := range ap {
				cj[i] += s * v
			}
		}
	}
}

// gemmDot is C += alpha op(A) op(B) for op(A) = A^T or A^H: each element of C is a dot
// product of a column of A with a column of B or, for op(B) = B^T or B^H, a row of B.
func (l cplxLevel1[T]) gemmDot(tA, tB Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, c []T, ldc int) {
	for j := 0; j < n; j++ {
		bj, inc := b[j:], ldb
		if tB == NoTrans {
			bj, inc = b[j*ldb:], 1
		}
		cj := c[j*ldc : j*ldc+m]
		for i := range cj {
			ai := a[i*lda : i*lda+k]
			var d T
			switch {
			case tA == Trans && tB != ConjTrans:
				d = l.dotu(k, ai, 1, bj, inc)
			case tA == Trans: // sum_p A[p,i] conj(B[j,p])
				d = l.dotc(k, bj, inc, ai, 1)
			case tB != ConjTrans: // sum_p conj(A[p,i]) op(B)[p,j]
				d = l.dotc(k, ai, 1, bj, inc)
			default: // sum_p conj(A[p,i]) conj(B[j,p])
				d = conj(l.dotu(k, ai, 1, bj, inc))
			}
			cj[i] += alpha * d
		}
	}
}

// zgemmShort is the column length below which zgemm's axpy is a plain loop: the level-1
// call costs more than it saves on shorter columns.
const zgemmShort = 8

// gemmQuick is BLAS gemm's quick return: with alpha = 0 or k = 0 it sets the m-by-n C to
// beta C, reading neither A nor B (nor C when beta is 0, and not writing it when beta is 1),
// and reports true; otherwise it does nothing and reports false.
func gemmQuick[T Scalar](alpha, beta T, m, n, k int, c []T, ldc int) bool {
	if alpha != 0 && k != 0 {
		return false
	}
	gemmScale(beta, m, n, c, ldc)
	return true
}

// gemmScale sets the r-by-c column-major matrix x to beta x; beta = 0 clears it without
// reading it, as BLAS does.
func gemmScale[T Scalar](beta T, r, c int, x []T, ldx int) {
	if beta == 1 || r == 0 {
		return
	}
	for j := 0; j < c; j++ {
		col := x[j*ldx : j*ldx+r]
		if beta == 0 {
			clear(col)
			continue
		}
		for i := range col {
			col[i] *= beta
		}
	}
}
