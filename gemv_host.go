package batchlas

import "gonum.org/v1/gonum/blas"

// gemvHost multiplies every matrix of the batch by its vector with gonum's ?gemv, in the
// matrix's own precision. Read row-major, A is A^T, so NoTrans becomes Trans and the other
// way round. A^H x has no row-major gemv form (for real types it has, but is rare enough to
// share the complex path), and gonum's gemv leaves y unscaled when the inner size is 0, so
// those cases run as a gemm of one column (portableGemm: a packed kernel's tiles would be
// mostly padding for one column).
func gemvHost[T Scalar](_ *Queue, g *gemvCall[T]) error {
	a, x, y := g.a, g.x.host(), g.y.host()
	nx, ny := g.lens()
	viaGemm := nx == 0 || g.trans == ConjTrans
	rowTrans := blas.NoTrans
	if g.trans == NoTrans {
		rowTrans = blas.Trans
	}
	gemv, gemm := rowGemv[T](), portableGemm[T]()
	hostBatch(a.batch, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xi, yi := x[i*nx:(i+1)*nx], y[i*ny:(i+1)*ny]
			if viaGemm {
				gemm(g.trans, NoTrans, ny, 1, nx, g.alpha, a.mat(i), a.ld, xi, max(1, nx), g.beta, yi, max(1, ny))
				continue
			}
			gemv(rowTrans, a.cols, a.rows, g.alpha, a.mat(i), a.ld, xi, 1, g.beta, yi, 1)
		}
	})
	return nil
}

// gemvFunc is a BLAS gemv: y = alpha op(A) x + beta y with A m-by-n.
type gemvFunc[T Scalar] = func(tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int)

// rowGemv is gonum's gemv for T.
func rowGemv[T Scalar]() gemvFunc[T] {
	var f any
	switch any(*new(T)).(type) {
	case float32:
		f = blasImpl.Sgemv
	case float64:
		f = blasImpl.Dgemv
	case complex64:
		f = blasImpl.Cgemv
	case complex128:
		f = blasImpl.Zgemv
	}
	return f.(gemvFunc[T])
}
