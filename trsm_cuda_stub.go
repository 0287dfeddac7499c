//go:build !cuda

package batchlas

func trsmCTACanRun[T Scalar](*Queue, *trsmCall[T]) bool { return false }

func trsmCTA[T Scalar](*Queue, *trsmCall[T]) error {
	return argErr("trsm", "route", "the cta family needs the cuda build")
}

func trsmBlockedCanRun[T Scalar](*Queue, *trsmCall[T]) bool { return false }

func trsmBlockedBufferSize[T Scalar](*Queue, *trsmCall[T]) int { return 0 }

func trsmBlocked[T Scalar](*Queue, *trsmCall[T]) error {
	return argErr("trsm", "route", "the blocked family needs the cuda build")
}
