//go:build !cuda

package batchlas

func gesvdJacobiCanRun[T Scalar, R Real](jacobiKind) func(*Queue, *gesvdCall[T, R]) bool {
	return func(*Queue, *gesvdCall[T, R]) bool { return false }
}

func gesvdJacobiBufferSize[T Scalar, R Real](jacobiKind) func(*Queue, *gesvdCall[T, R]) int {
	return func(*Queue, *gesvdCall[T, R]) int { return 0 }
}

func gesvdJacobi[T Scalar, R Real](jacobiKind) func(*Queue, *gesvdCall[T, R]) error {
	return func(*Queue, *gesvdCall[T, R]) error {
		return argErr("gesvd", "route", "the jacobi and blocked families need the cuda build")
	}
}
