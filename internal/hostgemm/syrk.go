package hostgemm

import "gonum.org/v1/gonum/blas"

// Syrk computes one triangle of C += alpha op(A) op(A)^T for the column-major n-by-n C, with
// op(A) = A (n-by-k) for NoTrans and A^T (A k-by-n) otherwise: the lower triangle, diagonal
// included, when lower is true, else the upper one. The other triangle is neither read nor
// written. op(A) is packed as both operands of the gemm, and only the tiles that meet the
// triangle are computed, which halves the flops of a gemm with C's triangle in scratch.
// Only Enabled callers may call it.
func Syrk[F float32 | float64](lower bool, tA blas.Transpose, n, k int, alpha F, a []F, lda int, c []F, ldc int) {
	if n == 0 || k == 0 || alpha == 0 {
		return
	}
	ia, pa := 1, lda
	if tA != blas.NoTrans {
		ia, pa = lda, 1
	}
	t := upperPart
	if lower {
		t = lowerPart
	}
	switch a := any(a).(type) {
	case []float64:
		p := stridedPacker(a, ia, pa)
		run(k64, n, n, k, p, p, any(alpha).(float64), any(c).([]float64), ldc, t)
	case []float32:
		p := stridedPacker(a, ia, pa)
		run(k32, n, n, k, p, p, any(alpha).(float32), any(c).([]float32), ldc, t)
	}
}
