//go:build !cuda

package batchlas

func getriCTACanRun[T Scalar](*Queue, *getriCall[T]) bool { return false }

func getriCTA[T Scalar](*Queue, *getriCall[T]) error {
	return argErr("getri", "route", "the cta family needs the cuda build")
}

func getriBlockedCanRun[T Scalar](*Queue, *getriCall[T]) bool { return false }

func getriBlockedBufferSize[T Scalar](*Queue, *getriCall[T]) int { return 0 }

func getriBlocked[T Scalar](*Queue, *getriCall[T]) error {
	return argErr("getri", "route", "the blocked family needs the cuda build")
}
