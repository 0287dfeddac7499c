package batchlas

// Syr2k computes the symmetric rank-2k update of each matrix b of the batch:
//
//	C_b = alpha (A_b B_b^T + B_b A_b^T) + beta C_b  (trans NoTrans, A_b and B_b n-by-k)
//	C_b = alpha (A_b^T B_b + B_b^T A_b) + beta C_b  (trans Trans, A_b and B_b k-by-n),
//
// with no conjugation for complex types. C_b is n-by-n; only its uplo triangle is read and
// written, the other triangle is left untouched. When beta is zero C is not read; alpha = 0
// or k = 0 gives C = beta C without reading A or B (and leaves C untouched when beta is 1).
// ConjTrans is rejected for complex types (use Her2k) and means Trans for real types. All
// three matrices must have the same batch count.
//
// Errors: a wrapped ErrInvalidArgument for a bad uplo or trans, a nil or foreign matrix, a
// non-square c, an a or b that does not conform, or differing batch counts; *NoRouteError
// when no family of the build can run the call.
func Syr2k[T Scalar](q *Queue, uplo Uplo, trans Transpose, alpha T, a, b *Matrix[T], beta T, c *Matrix[T]) error {
	s := &syr2kCall[T]{rankArgs[T]{uplo: uplo, trans: trans, a: a, b: b, c: c}, alpha, beta}
	if err := s.check(q); err != nil {
		return err
	}
	return dispatch(q, "syr2k", dtypeName[T](), s.key(), syr2kFamilies[T](), s)
}

// Syr2kBufferSize is the workspace in bytes that Syr2k leases from q's arena for this call.
func Syr2kBufferSize[T Scalar](q *Queue, uplo Uplo, trans Transpose, alpha T, a, b *Matrix[T], beta T, c *Matrix[T]) (int, error) {
	s := &syr2kCall[T]{rankArgs[T]{uplo: uplo, trans: trans, a: a, b: b, c: c}, alpha, beta}
	if err := s.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "syr2k", dtypeName[T](), s.key(), syr2kFamilies[T](), s)
}

type syr2kCall[T Scalar] struct {
	rankArgs[T]
	alpha, beta T
}

func (s *syr2kCall[T]) check(q *Queue) error { return s.checkAs(q, "syr2k", false) }

// kernel is the call as the native rank-k kernels take it.
func (s *syr2kCall[T]) kernel() rankKernel[T] {
	return rankKernel[T]{r: &s.rankArgs, alpha: s.alpha, beta: s.beta, two: true}
}

func syr2kFamilies[T Scalar]() []family[syr2kCall[T]] {
	return append(rankNativeList((*syr2kCall[T]).kernel),
		vendorFamily(syr2kLAPACK[T](), syr2kCUDAVendor[T](), syr2kROCm[T]()),
		hostFamily(syr2kHost[T]),
	)
}
