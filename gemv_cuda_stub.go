//go:build !cuda

package batchlas

func gemvDirectCanRun[T Scalar](*Queue, *gemvCall[T]) bool { return false }

func gemvDirect[T Scalar](*Queue, *gemvCall[T]) error {
	return argErr("gemv", "route", "the direct family needs the cuda build")
}
