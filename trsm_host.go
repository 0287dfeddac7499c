package batchlas

import "gonum.org/v1/gonum/blas"

// trsmHost solves for every matrix of the batch with gonum's ?trsm, in the matrix's own
// precision, recursively on the packed gemm above triLeaf (triRec).
func trsmHost[T Scalar](_ *Queue, c *trsmCall[T]) error {
	_, trsm := triFuncs[T]()
	triHost(&c.triCall, true, trsm)
	return nil
}

// triBLAS is a BLAS trsm or trmm: B m-by-n, A of order m (Left) or n (Right).
type triBLAS[T Scalar] = func(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int)

// triFuncs are gonum's trmm and trsm for T.
func triFuncs[T Scalar]() (trmm, trsm triBLAS[T]) {
	var mul, solve any
	switch any(*new(T)).(type) {
	case float32:
		mul, solve = blasImpl.Strmm, blasImpl.Strsm
	case float64:
		mul, solve = blasImpl.Dtrmm, blasImpl.Dtrsm
	case complex64:
		mul, solve = blasImpl.Ctrmm, blasImpl.Ctrsm
	case complex128:
		mul, solve = blasImpl.Ztrmm, blasImpl.Ztrsm
	}
	return mul.(triBLAS[T]), solve.(triBLAS[T])
}

// triHost runs f, gonum's trsm (solve) or trmm, on every matrix of the batch, through
// triRec's recursion where it has one. Read row-major, A and B are A^T and B^T, and
// op(A) X = B is X^T op(A)^T = B^T, with op(A)^T = op(A^T) for each of N, T and C: the side
// and the triangle swap, the transpose carries over, and B^T is n-by-m.
func triHost[T Scalar](c *triCall[T], solve bool, f triBLAS[T]) {
	a, b := c.a, c.b
	if r := newTriRec(c, solve, f); r != nil {
		hostBatch(b.batch, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				r.run(b.rows, b.cols, c.alpha, a.mat(i), a.ld, b.mat(i), b.ld)
			}
		})
		return
	}
	side := blas.Right
	if c.side == Right {
		side = blas.Left
	}
	uplo, trans, diag := rowMajorUplo(c.uplo), blasTrans(c.trans), blasDiag(c.diag == Unit)
	hostBatch(b.batch, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			f(side, uplo, trans, diag, b.cols, b.rows, c.alpha, a.mat(i), a.ld, b.mat(i), b.ld)
		}
	})
}
