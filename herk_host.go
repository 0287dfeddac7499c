package batchlas

// herkHost runs gonum's Cherk or Zherk on every matrix, and Ssyrk or Dsyrk for real types;
// alpha and beta are rounded to float32 for float32 and complex64.
func herkHost[T Scalar](_ *Queue, h *herkCall[T]) error {
	var up any
	switch any(*new(T)).(type) {
	case float32:
		up = rankK(blasImpl.Ssyrk, float32(h.alpha), float32(h.beta))
	case float64:
		up = rankK(blasImpl.Dsyrk, h.alpha, h.beta)
	case complex64:
		up = rankK(blasImpl.Cherk, float32(h.alpha), float32(h.beta))
	case complex128:
		up = rankK(blasImpl.Zherk, h.alpha, h.beta)
	}
	rankBatch(&h.rankArgs, true, h.beta == 0, up.(rankFunc[T]))
	return nil
}
