package batchlas

import (
	"gonum.org/v1/gonum/blas"

	"github.com/batchlas/batchlas/internal/hostgemm"
)

// symmHost runs gonum's Ssymm, Dsymm, Csymm or Zsymm on every matrix, or the packed gemm
// (symmBatch).
func symmHost[T Scalar](_ *Queue, s *symmCall[T]) error {
	symmBatch(s, false)
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

// symmExpandMin is the order of A from which symmBatch copies A into a full matrix and
// calls gemmKernel's packed gemm: the copy costs order^2 moves against order^2 n
// multiply-adds, and the packed kernel runs several times faster than gonum's symm loops.
const symmExpandMin = 16

// symmBatch runs symm, or hemm when herm, on every matrix: on the packed gemm with A made
// full (symmFull) when this CPU has the assembly kernels, A's order is at least
// symmExpandMin and alpha is not 0 (then A is not read), with gonum's symm or hemm otherwise. Row-major, gonum sees C^T = alpha
// B^T A^T + beta C^T (side Left) with A^T = A held in the other triangle, so the side and the
// triangle swap. For hemm A^T = conj(A) is Hermitian too, and the same call is right.
func symmBatch[T Scalar](s *symmCall[T], herm bool) {
	a, b, c := s.a, s.b, s.c
	if order := a.rows; hostgemm.Enabled() && order >= symmExpandMin && s.alpha != 0 {
		gemm := gemmKernel[T]()
		m, n := c.rows, c.cols
		hostBatch(c.batch, func(lo, hi int) {
			w := make([]T, order*order)
			for i := lo; i < hi; i++ {
				symmFull(herm, s.uplo == Lower, order, a.mat(i), a.ld, w)
				if s.side == Left {
					gemm(NoTrans, NoTrans, m, n, m, s.alpha, w, order, b.mat(i), b.ld, s.beta, c.mat(i), c.ld)
				} else {
					gemm(NoTrans, NoTrans, m, n, n, s.alpha, b.mat(i), b.ld, w, order, s.beta, c.mat(i), c.ld)
				}
			}
		})
		return
	}
	k := symmKernel[T](herm)
	side := blas.Left
	if s.side == Left {
		side = blas.Right
	}
	ul := rowMajorUplo(s.uplo)
	hostBatch(c.batch, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			k(side, ul, c.cols, c.rows, s.alpha, a.mat(i), a.ld, b.mat(i), b.ld, s.beta, c.mat(i), c.ld)
		}
	})
}

// symmFull writes into the n-by-n w (leading dimension n) the full matrix whose lower (or
// upper) triangle a holds: symmetric, or Hermitian when herm, with the diagonal's imaginary
// parts taken as zero as hemm takes them. The other triangle of a is not read.
func symmFull[T Scalar](herm, lower bool, n int, a []T, lda int, w []T) {
	for j := 0; j < n; j++ {
		i0, i1 := j+1, n
		if !lower {
			i0, i1 = 0, j
		}
		for i := i0; i < i1; i++ {
			v := a[i+j*lda]
			w[i+j*n] = v
			if herm {
				v = conjS(v)
			}
			w[j+i*n] = v
		}
		d := a[j+j*lda]
		if herm {
			d = scalarOf[T](reS(d), 0)
		}
		w[j+j*n] = d
	}
}
