package batchlas

import "gonum.org/v1/gonum/blas"

// gemmHost multiplies every matrix of the batch with gonum's ?gemm, in the matrix's own
// precision.
func gemmHost[T Scalar](_ *Queue, g *gemmCall[T]) error {
	m, n, k := g.dims()
	a, b, c := g.a, g.b, g.c
	gemm := colGemm[T]()
	hostBatch(c.batch, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			gemm(g.transA, g.transB, m, n, k, g.alpha, a.mat(i), a.ld, b.mat(i), b.ld, g.beta, c.mat(i), c.ld)
		}
	})
	return nil
}

// gemmFunc is a BLAS gemm: C = alpha op(A) op(B) + beta C, C m-by-n, inner size k.
type gemmFunc[T Scalar] = func(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

// colGemm returns a column-major gemm over gonum's row-major one. Read row-major, each
// column-major matrix is its transpose, so it computes C^T = op(B)^T op(A)^T: the operands
// and sizes swap and the transposes carry over unchanged (the enums spell gonum's letters,
// so they convert directly). k = 0 is done here, because gonum checks the length of the
// empty A and B against their leading dimensions.
func colGemm[T Scalar]() func(tA, tB Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	var f any
	switch any(*new(T)).(type) {
	case float32:
		f = blasImpl.Sgemm
	case float64:
		f = blasImpl.Dgemm
	case complex64:
		f = blasImpl.Cgemm
	case complex128:
		f = blasImpl.Zgemm
	}
	rowMajor := f.(gemmFunc[T])
	return func(tA, tB Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
		if k == 0 {
			gemmScale(beta, m, n, c, ldc)
			return
		}
		rowMajor(blas.Transpose(tB), blas.Transpose(tA), n, m, k, alpha, b, ldb, a, lda, beta, c, ldc)
	}
}

// gemmScale sets the r-by-c column-major matrix x to beta x; beta = 0 clears it without reading
// it, as BLAS does.
func gemmScale[T Scalar](beta T, r, c int, x []T, ldx int) {
	if beta == 1 {
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
