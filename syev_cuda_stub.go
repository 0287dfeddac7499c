//go:build !cuda

package batchlas

func syevTinyCanRun[T Scalar, R Real](*Queue, *syevCall[T, R]) bool { return false }

func syevTiny[T Scalar, R Real](*Queue, *syevCall[T, R]) error {
	return argErr("syev", "route", "the tiny family needs the cuda build")
}

func syevJacobiCanRun[T Scalar, R Real](*Queue, *syevCall[T, R]) bool { return false }

func syevJacobi[T Scalar, R Real](*Queue, *syevCall[T, R]) error {
	return argErr("syev", "route", "the jacobi family needs the cuda build")
}

func syevCTACanRun[T Scalar, R Real](*Queue, *syevCall[T, R]) bool { return false }

func syevCTABufferSize[T Scalar, R Real](bool) func(*Queue, *syevCall[T, R]) int { return nil }

func syevCTA[T Scalar, R Real](bool) func(*Queue, *syevCall[T, R]) error {
	return func(*Queue, *syevCall[T, R]) error {
		return argErr("syev", "route", "the cta family needs the cuda build")
	}
}

func syevBlockedCanRun[T Scalar, R Real](*Queue, *syevCall[T, R]) bool { return false }

func syevBlockedBufferSize[T Scalar, R Real](bool) func(*Queue, *syevCall[T, R]) int { return nil }

func syevBlocked[T Scalar, R Real](bool) func(*Queue, *syevCall[T, R]) error {
	return func(*Queue, *syevCall[T, R]) error {
		return argErr("syev", "route", "the blocked family needs the cuda build")
	}
}
