package batchlas

// hemmHost runs gonum's Chemm or Zhemm on every matrix, and Ssymm or Dsymm for real types,
// or the packed gemm (symmBatch).
func hemmHost[T Scalar](_ *Queue, h *hemmCall[T]) error {
	symmBatch(&h.symmCall, true)
	return nil
}
