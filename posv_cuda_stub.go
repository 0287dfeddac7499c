//go:build !cuda

package batchlas

func posvCTACanRun[T Scalar](*Queue, *posvCall[T]) bool { return false }

func posvCTABufferSize[T Scalar](*Queue, *posvCall[T]) int { return 0 }

func posvCTA[T Scalar](*Queue, *posvCall[T]) error {
	return argErr("posv", "route", "the cta family needs the cuda build")
}
