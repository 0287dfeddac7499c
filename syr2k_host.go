package batchlas

// syr2kHost runs gonum's Ssyr2k, Dsyr2k, Csyr2k or Zsyr2k on every matrix, or the packed
// gemm (rankPacked).
func syr2kHost[T Scalar](_ *Queue, s *syr2kCall[T]) error {
	if rankPacked(&s.rankArgs, false, true, s.alpha, s.beta) {
		return nil
	}
	var up any
	switch alpha := any(s.alpha).(type) {
	case float32:
		up = rank2K(blasImpl.Ssyr2k, alpha, any(s.beta).(float32))
	case float64:
		up = rank2K(blasImpl.Dsyr2k, alpha, any(s.beta).(float64))
	case complex64:
		up = rank2K(blasImpl.Csyr2k, alpha, any(s.beta).(complex64))
	case complex128:
		up = rank2K(blasImpl.Zsyr2k, alpha, any(s.beta).(complex128))
	}
	rankBatch(&s.rankArgs, false, s.beta == 0, up.(rankFunc[T]))
	return nil
}
