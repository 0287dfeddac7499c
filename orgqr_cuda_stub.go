//go:build !cuda

package batchlas

func orgqrCTACanRun[T Scalar](*Queue, *orgqrCall[T]) bool { return false }

func orgqrCTA[T Scalar](*Queue, *orgqrCall[T]) error {
	return argErr("orgqr", "route", "the cta family needs the cuda build")
}

func orgqrBlockedCanRun[T Scalar](*Queue, *orgqrCall[T]) bool { return false }

func orgqrBlockedBufferSize[T Scalar](*Queue, *orgqrCall[T]) int { return 0 }

func orgqrBlocked[T Scalar](*Queue, *orgqrCall[T]) error {
	return argErr("orgqr", "route", "the blocked family needs the cuda build")
}
