//go:build !cuda

package batchlas

func gesvRegsCanRun[T Scalar](*Queue, *gesvCall[T]) bool { return false }

func gesvRegs[T Scalar](*Queue, *gesvCall[T]) error {
	return argErr("gesv", "route", "the regs family needs the cuda build")
}

func gesvCTACanRun[T Scalar](*Queue, *gesvCall[T]) bool { return false }

func gesvCTABufferSize[T Scalar](*Queue, *gesvCall[T]) int { return 0 }

func gesvCTA[T Scalar](*Queue, *gesvCall[T]) error {
	return argErr("gesv", "route", "the cta family needs the cuda build")
}

func gesvBlockedCanRun[T Scalar](*Queue, *gesvCall[T]) bool { return false }

func gesvBlockedBufferSize[T Scalar](*Queue, *gesvCall[T]) int { return 0 }

func gesvBlocked[T Scalar](*Queue, *gesvCall[T]) error {
	return argErr("gesv", "route", "the blocked family needs the cuda build")
}
