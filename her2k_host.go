package batchlas

// her2kHost runs gonum's Cher2k or Zher2k on every matrix, and Ssyr2k or Dsyr2k for real
// types; beta is rounded to float32 for float32 and complex64. Or the packed gemm
// (rankPacked).
func her2kHost[T Scalar](_ *Queue, h *her2kCall[T]) error {
	if rankPacked(&h.rankArgs, true, true, h.alpha, scalarOf[T](h.beta, 0)) {
		return nil
	}
	var up any
	switch alpha := any(h.alpha).(type) {
	case float32:
		up = rank2K(blasImpl.Ssyr2k, alpha, float32(h.beta))
	case float64:
		up = rank2K(blasImpl.Dsyr2k, alpha, h.beta)
	case complex64:
		up = rank2K(blasImpl.Cher2k, alpha, float32(h.beta))
	case complex128:
		up = rank2K(blasImpl.Zher2k, alpha, h.beta)
	}
	_, k := h.order()
	rankBatch(&h.rankArgs, true, h.beta == 0, realDiagonal(up.(rankFunc[T]), (h.alpha == 0 || k == 0) && h.beta == 1))
	return nil
}
