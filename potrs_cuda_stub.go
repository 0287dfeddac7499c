//go:build !cuda

package batchlas

func potrsCTACanRun[T Scalar](*Queue, *potrsCall[T]) bool { return false }

func potrsCTA[T Scalar](*Queue, *potrsCall[T]) error {
	return argErr("potrs", "route", "the cta family needs the cuda build")
}
