//go:build cuda

package batchlas

import "fmt"

// The rank-k kernels of kernels/syrk (syrk_tiles.cuh) serve syrk, herk, syr2k and her2k:
// "gram", one block a matrix whose tile covers C, and "triangular", 64-by-64 tiles of C's
// triangle. Their flags (RK_*):
const (
	rkTrans = 1 << iota // op(X) = X^T (X^H with rkHerm), X k-by-n
	rkLower             // C's lower triangle is referenced
	rkHerm              // herk and her2k: P(X, Y) = op(X) op(Y)^H, a real diagonal
	rkTwo               // syr2k and her2k: the second product alpha2 P(B, A)
)

// gramEdge is the tile of the gram kernel for order n: 32, 64 or, for real types, 128; 0
// when n is larger.
func gramEdge[T Scalar](n int) int {
	top := 128
	if isComplex[T]() {
		top = 64
	}
	for e := 32; e <= top; e *= 2 {
		if n <= e {
			return e
		}
	}
	return 0
}

// gramKernel names the gram kernel for order n.
func gramKernel[T Scalar](n int) string {
	return fmt.Sprintf("syrk_gram%d_%s", gramEdge[T](n), dtypeName[T]())
}

// rankTriangularTiles is the number of 64-by-64 tiles of the triangle of C of order n.
func rankTriangularTiles(n int) int {
	t := ceilDiv(n, tileEdge)
	return t * (t + 1) / 2
}

// canRun: a CUDA queue, n and the fused depth 2k below 2^31, and the blocks of every matrix
// in grid x; for gram, n within its largest tile.
func (rk rankKernel[T]) canRun(q *Queue, family string) bool {
	n, k := rk.r.order()
	if !fits32(n, 2*k) {
		return false
	}
	if family == "gram" {
		return gramEdge[T](n) > 0 && gridFits(1, rk.r.c.batch)
	}
	return gridFits(rankTriangularTiles(n), rk.r.c.batch)
}

// launch runs kernels/syrk/syrk_<family>.cu, family "gram" or "triangular".
func (rk rankKernel[T]) launch(q *Queue, family string) error {
	r := rk.r
	n, k := r.order()
	if n == 0 || r.c.batch == 0 || (rk.alpha == 0 || k == 0) && rk.beta == 1 {
		return nil // BLAS's quick return: C is left as it is
	}
	flags := 0
	if r.trans != NoTrans {
		flags |= rkTrans
	}
	if r.uplo == Lower {
		flags |= rkLower
	}
	if rk.herm {
		flags |= rkHerm
	}
	if rk.two {
		flags |= rkTwo
	}
	fn, perMatrix := "syrk_triangular_"+dtypeName[T](), rankTriangularTiles(n)
	if family == "gram" {
		fn, perMatrix = gramKernel[T](n), 1
	}
	ar, ai := kernelScalar(rk.alpha)
	br, bi := kernelScalar(rk.beta)
	a, b, c := r.a, r.b, r.c
	return cudaOf(q).launch("syrk_"+family, fn, dim3{perMatrix * c.batch, 1, 1}, dim3{tileThreads, 1, 1}, 0,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), b.devPtr(), uintptr(b.ld), uintptr(b.strd),
		c.devPtr(), uintptr(c.ld), uintptr(c.strd), pack32(n, k), uintptr(flags), ar, ai, br, bi)
}
