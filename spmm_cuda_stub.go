//go:build !cuda

package batchlas

func spmmDirectCanRun[T Scalar](*Queue, *spmmCall[T]) bool { return false }

func spmmDirect[T Scalar](*Queue, *spmmCall[T]) error {
	return argErr("spmm", "route", "the direct family needs the cuda build")
}
