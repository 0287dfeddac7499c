//go:build !cuda

package batchlas

func getrsCTACanRun[T Scalar](*Queue, *getrsCall[T]) bool { return false }

func getrsCTA[T Scalar](*Queue, *getrsCall[T]) error {
	return argErr("getrs", "route", "the cta family needs the cuda build")
}
