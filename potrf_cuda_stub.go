//go:build !cuda

package batchlas

func potrfTinyCanRun[T Scalar](*Queue, *potrfCall[T]) bool { return false }

func potrfTiny[T Scalar](*Queue, *potrfCall[T]) error {
	return argErr("potrf", "route", "the tiny family needs the cuda build")
}
