package batchlas

// Her2k computes the Hermitian rank-2k update of each matrix b of the batch:
//
//	C_b = alpha A_b B_b^H + conj(alpha) B_b A_b^H + beta C_b  (trans NoTrans, A_b and B_b n-by-k)
//	C_b = alpha A_b^H B_b + conj(alpha) B_b^H A_b + beta C_b  (trans ConjTrans, A_b and B_b k-by-n).
//
// beta is real; it is a float64 whatever T and is rounded to float32 for float32 and
// complex64. C_b is n-by-n; only its uplo triangle is read and written, the other triangle
// is left untouched, and the diagonal comes out real (its imaginary parts are taken as zero,
// except that alpha = 0 or k = 0 with beta = 1 leaves C as it is). When beta is zero C is not
// read; alpha = 0 or k = 0 gives C = beta C without reading A or B. Trans is rejected for complex types; for real types Her2k is Syr2k, and Trans and
// ConjTrans mean the same. All three matrices must have the same batch count.
//
// Errors: as for Syr2k.
func Her2k[T Scalar](q *Queue, uplo Uplo, trans Transpose, alpha T, a, b *Matrix[T], beta float64, c *Matrix[T]) error {
	h := &her2kCall[T]{rankArgs[T]{uplo: uplo, trans: trans, a: a, b: b, c: c}, alpha, beta}
	if err := h.check(q); err != nil {
		return err
	}
	return dispatch(q, "her2k", dtypeName[T](), h.key(), her2kFamilies[T](), h)
}

// Her2kBufferSize is the workspace in bytes that Her2k leases from q's arena for this call.
func Her2kBufferSize[T Scalar](q *Queue, uplo Uplo, trans Transpose, alpha T, a, b *Matrix[T], beta float64, c *Matrix[T]) (int, error) {
	h := &her2kCall[T]{rankArgs[T]{uplo: uplo, trans: trans, a: a, b: b, c: c}, alpha, beta}
	if err := h.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "her2k", dtypeName[T](), h.key(), her2kFamilies[T](), h)
}

type her2kCall[T Scalar] struct {
	rankArgs[T]
	alpha T
	beta  float64
}

func (h *her2kCall[T]) check(q *Queue) error { return h.checkAs(q, "her2k", true) }

// kernel is the call as the native rank-k kernels take it.
func (h *her2kCall[T]) kernel() rankKernel[T] {
	return rankKernel[T]{r: &h.rankArgs, alpha: h.alpha, beta: scalarOf[T](h.beta, 0), herm: true, two: true}
}

func her2kFamilies[T Scalar]() []family[her2kCall[T]] {
	return append(rankNativeList((*her2kCall[T]).kernel),
		vendorFamily(her2kLAPACK[T](), her2kCUDAVendor[T](), her2kROCm[T]()),
		hostFamily(her2kHost[T]),
	)
}
