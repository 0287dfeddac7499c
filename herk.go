package batchlas

// Herk computes the Hermitian rank-k update of each matrix b of the batch:
//
//	C_b = alpha A_b A_b^H + beta C_b  (trans NoTrans, A_b n-by-k)
//	C_b = alpha A_b^H A_b + beta C_b  (trans ConjTrans, A_b k-by-n).
//
// alpha and beta are real; they are float64 whatever T and are rounded to float32 for
// float32 and complex64. C_b is n-by-n; only its uplo triangle is read and written, the other
// triangle is left untouched, and the diagonal comes out real (its imaginary parts are taken
// as zero, except that alpha = 0 or k = 0 with beta = 1 leaves C as it is). When beta is zero
// C is not read; alpha = 0 or k = 0 gives C = beta C without reading A. Trans is rejected for complex types; for real types Herk is Syrk, and Trans
// and ConjTrans mean the same. a and c must have the same batch count.
//
// Errors: as for Syrk.
func Herk[T Scalar](q *Queue, uplo Uplo, trans Transpose, alpha float64, a *Matrix[T], beta float64, c *Matrix[T]) error {
	h := &herkCall[T]{rankArgs[T]{uplo: uplo, trans: trans, a: a, b: a, c: c}, alpha, beta}
	if err := h.check(q); err != nil {
		return err
	}
	return dispatch(q, "herk", dtypeName[T](), h.key(), herkFamilies[T](), h)
}

// HerkBufferSize is the workspace in bytes that Herk leases from q's arena for this call.
func HerkBufferSize[T Scalar](q *Queue, uplo Uplo, trans Transpose, alpha float64, a *Matrix[T], beta float64, c *Matrix[T]) (int, error) {
	h := &herkCall[T]{rankArgs[T]{uplo: uplo, trans: trans, a: a, b: a, c: c}, alpha, beta}
	if err := h.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "herk", dtypeName[T](), h.key(), herkFamilies[T](), h)
}

type herkCall[T Scalar] struct {
	rankArgs[T]
	alpha, beta float64
}

func (h *herkCall[T]) check(q *Queue) error { return h.checkAs(q, "herk", true) }

// kernel is the call as the native rank-k kernels take it.
func (h *herkCall[T]) kernel() rankKernel[T] {
	return rankKernel[T]{r: &h.rankArgs, alpha: scalarOf[T](h.alpha, 0), beta: scalarOf[T](h.beta, 0), herm: true}
}

func herkFamilies[T Scalar]() []family[herkCall[T]] {
	return append(rankNativeList((*herkCall[T]).kernel),
		vendorFamily(herkLAPACK[T](), herkCUDAVendor[T](), herkROCm[T]()),
		hostFamily(herkHost[T]),
	)
}
