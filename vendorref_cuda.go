//go:build cuda && !novendor

package batchlas

import (
	"fmt"
	"unsafe"

	"github.com/batchlas/batchlas/internal/vendorref"
)

func init() { vendorref.GeqrfBatched = geqrfBatchedRef }

// geqrfBatchedRef is vendorref.GeqrfBatched: the argument types are checked here, since the
// hook takes any.
func geqrfBatchedRef(q, a, tau any) error {
	qq, ok := q.(*Queue)
	if !ok {
		return argErr("geqrf", "q", "is a %T, not a *batchlas.Queue", q)
	}
	switch a := a.(type) {
	case *Matrix[float32]:
		return geqrfCUBLASBatched(qq, a, tau)
	case *Matrix[float64]:
		return geqrfCUBLASBatched(qq, a, tau)
	case *Matrix[complex64]:
		return geqrfCUBLASBatched(qq, a, tau)
	case *Matrix[complex128]:
		return geqrfCUBLASBatched(qq, a, tau)
	}
	return argErr("geqrf", "a", "is a %T, not a *batchlas.Matrix of a scalar type", a)
}

// geqrfCUBLASBatched calls cublas<t>geqrfBatched on a, through pointer arrays to its matrices
// and to their taus in tau, after the checks of Geqrf.
func geqrfCUBLASBatched[T Scalar](q *Queue, a *Matrix[T], tau any) error {
	tv, ok := tau.(*Vector[T])
	if !ok {
		return argErr("geqrf", "tau", "is a %T, not a *batchlas.Vector of a's type", tau)
	}
	c := &geqrfCall[T]{a: a, tau: tv}
	if err := c.check(q); err != nil {
		return err
	}
	if !onCUDA(q) || a.rows < a.cols || !fitsInt(a.ld, a.rows, a.cols, a.batch) {
		return argErr("geqrf", "a", "cublas geqrfBatched needs a CUDA queue and m >= n")
	}
	if a.cols == 0 || a.batch == 0 {
		return nil
	}
	ptrs, _, err := ptrArrays(q, a.batch, 0, matArray(a), devArray{tv.devPtr(), a.cols * sizeOf[T]()})
	if err != nil {
		return err
	}
	info := new(int32)
	if err := vendorCall(q, func(h *cuHandles) error {
		return cublasLib.check("cublas"+blasPrefix[T]()+"geqrfBatched", h.blas, uintptr(a.rows), uintptr(a.cols),
			ptrs[0], uintptr(a.ld), ptrs[1], uintptr(unsafe.Pointer(info)), uintptr(a.batch))
	}); err != nil {
		return err
	}
	if *info != 0 {
		return fmt.Errorf("batchlas: geqrf: cublas geqrfBatched refused argument %d", -*info)
	}
	return nil
}
