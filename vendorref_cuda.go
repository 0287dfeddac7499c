//go:build cuda && !novendor

package batchlas

import (
	"fmt"
	"unsafe"

	"github.com/batchlas/batchlas/internal/vendorref"
)

func init() {
	vendorref.GeqrfBatched = geqrfBatchedRef
	vendorref.Syev = syevRef
}

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
		return cublas.Geqrf[dtypeIndex[T]()].Status(h.blas, uintptr(a.rows), uintptr(a.cols),
			ptrs[0], uintptr(a.ld), ptrs[1], uintptr(unsafe.Pointer(info)), uintptr(a.batch))
	}); err != nil {
		return err
	}
	if *info != 0 {
		return fmt.Errorf("batchlas: geqrf: cublas geqrfBatched refused argument %d", -*info)
	}
	return nil
}

// syevRef is vendorref.Syev.
func syevRef(route string, q, jobz, uplo, a, w, info any) error {
	r, ok := map[string]int{"syevj": syevSyevj, "xsyev": syevBatched, "loop": syevLoop}[route]
	if !ok {
		return argErr("syev", "route", "unknown vendor route %q (syevj, xsyev, loop)", route)
	}
	switch a := a.(type) {
	case *Matrix[float32]:
		return syevRouteRef[float32, float32](r, q, jobz, uplo, a, w, info)
	case *Matrix[float64]:
		return syevRouteRef[float64, float64](r, q, jobz, uplo, a, w, info)
	case *Matrix[complex64]:
		return syevRouteRef[complex64, float32](r, q, jobz, uplo, a, w, info)
	case *Matrix[complex128]:
		return syevRouteRef[complex128, float64](r, q, jobz, uplo, a, w, info)
	}
	return argErr("syev", "a", "is a %T, not a *batchlas.Matrix of a scalar type", a)
}

// syevRouteRef runs route r of the vendor family after the checks of Syev.
func syevRouteRef[T Scalar, R Real](r int, q, jobz, uplo any, a *Matrix[T], w, info any) error {
	qq, ok := q.(*Queue)
	if !ok {
		return argErr("syev", "q", "is a %T, not a *batchlas.Queue", q)
	}
	c := &syevCall[T, R]{a: a}
	if c.jobz, ok = jobz.(Job); !ok {
		return argErr("syev", "jobz", "is a %T, not a batchlas.Job", jobz)
	}
	if c.uplo, ok = uplo.(Uplo); !ok {
		return argErr("syev", "uplo", "is a %T, not a batchlas.Uplo", uplo)
	}
	if c.w, ok = w.(*Vector[R]); !ok {
		return argErr("syev", "w", "is a %T, not a *batchlas.Vector of a's real type", w)
	}
	if c.info, ok = info.(*Vector[int32]); !ok {
		return argErr("syev", "info", "is a %T, not a *batchlas.Vector[int32]", info)
	}
	if err := c.check(qq); err != nil {
		return err
	}
	if !onCUDA(qq) || !fitsInt(a.ld, a.rows, a.batch, a.rows*a.rows*a.batch) {
		return argErr("syev", "a", "cuSOLVER's syev routes need a CUDA queue and 32-bit sizes")
	}
	return syevCUDARoute(qq, c, r)
}
