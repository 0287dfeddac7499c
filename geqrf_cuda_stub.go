//go:build !cuda

package batchlas

func geqrfCTACanRun[T Scalar](*Queue, *geqrfCall[T]) bool { return false }

func geqrfCTA[T Scalar](*Queue, *geqrfCall[T]) error {
	return argErr("geqrf", "route", "the cta family needs the cuda build")
}

func geqrfTinyCanRun[T Scalar](*Queue, *geqrfCall[T]) bool { return false }

func geqrfTiny[T Scalar](*Queue, *geqrfCall[T]) error {
	return argErr("geqrf", "route", "the tiny family needs the cuda build")
}
