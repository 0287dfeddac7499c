//go:build !cuda

package batchlas

func posvCTACanRun[T Scalar](*Queue, *posvCall[T]) bool { return false }

func posvCTA[T Scalar](*Queue, *posvCall[T]) error {
	return argErr("posv", "route", "the cta family needs the cuda build")
}
