//go:build !cuda

package batchlas

func orgqrCTACanRun[T Scalar](*Queue, *orgqrCall[T]) bool { return false }

func orgqrCTA[T Scalar](*Queue, *orgqrCall[T]) error {
	return argErr("orgqr", "route", "the cta family needs the cuda build")
}
