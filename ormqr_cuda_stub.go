//go:build !cuda

package batchlas

func ormqrCTACanRun[T Scalar](*Queue, *ormqrCall[T]) bool { return false }

func ormqrCTA[T Scalar](*Queue, *ormqrCall[T]) error {
	return argErr("ormqr", "route", "the cta family needs the cuda build")
}

func ormqrBlockedCanRun[T Scalar](*Queue, *ormqrCall[T]) bool { return false }

func ormqrBlockedBufferSize[T Scalar](*Queue, *ormqrCall[T]) int { return 0 }

func ormqrBlocked[T Scalar](*Queue, *ormqrCall[T]) error {
	return argErr("ormqr", "route", "the blocked family needs the cuda build")
}
