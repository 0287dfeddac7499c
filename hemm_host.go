package batchlas

// hemmHost runs gonum's Chemm or Zhemm on every matrix, and Ssymm or Dsymm for real types.
func hemmHost[T Scalar](_ *Queue, h *hemmCall[T]) error {
	var k any
	switch any(*new(T)).(type) {
	case float32:
		k = blasImpl.Ssymm
	case float64:
		k = blasImpl.Dsymm
	case complex64:
		k = blasImpl.Chemm
	case complex128:
		k = blasImpl.Zhemm
	}
	symmBatch(&h.symmCall, k.(symmFunc[T]))
	return nil
}
