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

func geqrfBlockedCanRun[T Scalar](*Queue, *geqrfCall[T]) bool { return false }

func geqrfBlockedBufferSize[T Scalar](*Queue, *geqrfCall[T]) int { return 0 }

func geqrfBlockedLaunch[T Scalar](*Queue, *geqrfCall[T]) error {
	return argErr("geqrf", "route", "the blocked family needs the cuda build")
}
