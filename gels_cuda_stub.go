//go:build !cuda

package batchlas

// Without the cuda build, Gels's "qr" family runs on host queues alone.

func gelsOnCUDA(*Queue) bool { return false }

// errGelsNoCUDA is never met: the family's canRun is false on every queue but a host one.
var errGelsNoCUDA = argErr("gels", "route", "qr: the GPU steps need the cuda build")

func gelsLease(*Queue, int) (uintptr, error) { return 0, errGelsNoCUDA }

func zeroInfoCUDA(*Queue, *Vector[int32], int) error { return errGelsNoCUDA }

func gelsClearCUDA[T Scalar](*Queue, *Matrix[T], uintptr) error { return errGelsNoCUDA }

func gelsAdjointCUDA[T Scalar](*Queue, *Matrix[T], *Matrix[T]) error { return errGelsNoCUDA }

func gelsZeroDiagCUDA[T Scalar](*Queue, *Matrix[T], *Vector[int32]) error { return errGelsNoCUDA }
