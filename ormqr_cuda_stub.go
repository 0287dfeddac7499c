//go:build !cuda

package batchlas

func ormqrCTACanRun[T Scalar](*Queue, *ormqrCall[T]) bool { return false }

func ormqrCTA[T Scalar](*Queue, *ormqrCall[T]) error {
	return argErr("ormqr", "route", "the cta family needs the cuda build")
}
