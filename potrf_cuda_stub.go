//go:build !cuda

package batchlas

func potrfTinyCanRun[T Scalar](*Queue, *potrfCall[T]) bool { return false }

func potrfTiny[T Scalar](*Queue, *potrfCall[T]) error {
	return argErr("potrf", "route", "the tiny family needs the cuda build")
}

func potrfWarpCanRun[T Scalar](*Queue, *potrfCall[T]) bool { return false }

func potrfWarp[T Scalar](*Queue, *potrfCall[T]) error {
	return argErr("potrf", "route", "the warp family needs the cuda build")
}

func potrfCTACanRun[T Scalar](bool) func(*Queue, *potrfCall[T]) bool {
	return func(*Queue, *potrfCall[T]) bool { return false }
}

func potrfCTA[T Scalar](bool) func(*Queue, *potrfCall[T]) error {
	return func(*Queue, *potrfCall[T]) error {
		return argErr("potrf", "route", "the cta family needs the cuda build")
	}
}

func potrfBlockedCanRun[T Scalar](*Queue, *potrfCall[T]) bool { return false }

func potrfBlockedBufferSize[T Scalar](*Queue, *potrfCall[T]) int { return 0 }

func potrfBlocked[T Scalar](*Queue, *potrfCall[T]) error {
	return argErr("potrf", "route", "the blocked family needs the cuda build")
}
