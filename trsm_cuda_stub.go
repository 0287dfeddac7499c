//go:build !cuda

package batchlas

func trsmCTACanRun[T Scalar](*Queue, *trsmCall[T]) bool { return false }

func trsmCTA[T Scalar](*Queue, *trsmCall[T]) error {
	return argErr("trsm", "route", "the cta family needs the cuda build")
}
