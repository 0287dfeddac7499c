//go:build !cuda

package batchlas

func getrfTinyCanRun[T Scalar](*Queue, *getrfCall[T]) bool { return false }

func getrfTiny[T Scalar](*Queue, *getrfCall[T]) error {
	return argErr("getrf", "route", "the tiny family needs the cuda build")
}

func getrfWarpCanRun[T Scalar](*Queue, *getrfCall[T]) bool { return false }

func getrfWarp[T Scalar](*Queue, *getrfCall[T]) error {
	return argErr("getrf", "route", "the warp family needs the cuda build")
}

func getrfWarpSmemCanRun[T Scalar](*Queue, *getrfCall[T]) bool { return false }

func getrfWarpSmem[T Scalar](*Queue, *getrfCall[T]) error {
	return argErr("getrf", "route", "the warp family needs the cuda build")
}

func getrfRegsCanRun[T Scalar](*Queue, *getrfCall[T]) bool { return false }

func getrfRegs[T Scalar](*Queue, *getrfCall[T]) error {
	return argErr("getrf", "route", "the regs family needs the cuda build")
}

func getrfCTACanRun[T Scalar](*Queue, *getrfCall[T]) bool { return false }

func getrfCTA[T Scalar](*Queue, *getrfCall[T]) error {
	return argErr("getrf", "route", "the cta family needs the cuda build")
}

func getrfBlockedCanRun[T Scalar](*Queue, *getrfCall[T]) bool { return false }

func getrfBlockedBufferSize[T Scalar](*Queue, *getrfCall[T]) int { return 0 }

func getrfBlocked[T Scalar](*Queue, *getrfCall[T]) error {
	return argErr("getrf", "route", "the blocked family needs the cuda build")
}
