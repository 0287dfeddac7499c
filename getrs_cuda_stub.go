//go:build !cuda

package batchlas

func getrsCTACanRun[T Scalar](*Queue, *getrsCall[T]) bool { return false }

func getrsCTA[T Scalar](*Queue, *getrsCall[T]) error {
	return argErr("getrs", "route", "the cta family needs the cuda build")
}

func getrsBlockedCanRun[T Scalar](*Queue, *getrsCall[T]) bool { return false }

func getrsBlockedBufferSize[T Scalar](*Queue, *getrsCall[T]) int { return 0 }

func getrsBlocked[T Scalar](*Queue, *getrsCall[T]) error {
	return argErr("getrs", "route", "the blocked family needs the cuda build")
}
