//go:build !cuda

package batchlas

func trmmTriangularCanRun[T Scalar](*Queue, *trmmCall[T]) bool { return false }

func trmmTriangular[T Scalar](*Queue, *trmmCall[T]) error {
	return argErr("trmm", "route", "the triangular family needs the cuda build")
}
