//go:build !cuda

package batchlas

func getriCTACanRun[T Scalar](*Queue, *getriCall[T]) bool { return false }

func getriCTA[T Scalar](*Queue, *getriCall[T]) error {
	return argErr("getri", "route", "the cta family needs the cuda build")
}
