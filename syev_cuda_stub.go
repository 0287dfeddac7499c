//go:build !cuda

package batchlas

func syevCTACanRun[T Scalar, R Real](*Queue, *syevCall[T, R]) bool { return false }

func syevCTA[T Scalar, R Real](*Queue, *syevCall[T, R]) error {
	return argErr("syev", "route", "the cta family needs the cuda build")
}
