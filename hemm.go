package batchlas

// Hemm computes, for each matrix b of the batch,
//
//	C_b = alpha A_b B_b + beta C_b  (side Left)    or    C_b = alpha B_b A_b + beta C_b  (side Right),
//
// where A_b is Hermitian, B_b and C_b are m-by-n, and A_b is m-by-m (Left) or n-by-n
// (Right). Only the uplo triangle of A_b is read, and the imaginary parts of its diagonal are
// taken as zero. For real types Hemm is Symm. C is overwritten; when beta is zero C is not
// read; alpha = 0 gives C = beta C without reading A or B, as for Symm. All three matrices
// must have the same batch count.
//
// Errors: as for Symm.
func Hemm[T Scalar](q *Queue, side Side, uplo Uplo, alpha T, a, b *Matrix[T], beta T, c *Matrix[T]) error {
	h := &hemmCall[T]{symmCall[T]{side: side, uplo: uplo, alpha: alpha, a: a, b: b, beta: beta, c: c}}
	if err := h.check(q); err != nil {
		return err
	}
	return dispatch(q, "hemm", dtypeName[T](), h.key(), hemmFamilies[T](), h)
}

// HemmBufferSize is the workspace in bytes that Hemm leases from q's arena for this call.
func HemmBufferSize[T Scalar](q *Queue, side Side, uplo Uplo, alpha T, a, b *Matrix[T], beta T, c *Matrix[T]) (int, error) {
	h := &hemmCall[T]{symmCall[T]{side: side, uplo: uplo, alpha: alpha, a: a, b: b, beta: beta, c: c}}
	if err := h.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "hemm", dtypeName[T](), h.key(), hemmFamilies[T](), h)
}

// hemmCall holds the same arguments as symmCall; only the reading of A differs.
type hemmCall[T Scalar] struct{ symmCall[T] }

func (h *hemmCall[T]) check(q *Queue) error { return h.checkAs(q, "hemm") }

func hemmFamilies[T Scalar]() []family[hemmCall[T]] {
	return []family[hemmCall[T]]{
		{name: "tiled", canRun: func(q *Queue, h *hemmCall[T]) bool { return symmTiledCanRun(q, &h.symmCall) },
			launch: func(q *Queue, h *hemmCall[T]) error { return symmTiled(q, &h.symmCall, true) }},
		vendorFamily(hemmLAPACK[T](), hemmCUDAVendor[T](), hemmROCm[T]()),
		hostFamily(hemmHost[T]),
	}
}
