//go:build cuda && !novendor

package batchlas

import "unsafe"

// QR on a CUDA queue: loops of cuSOLVER's single-matrix geqrf, orgqr/ungqr and ormqr/unmqr,
// enqueued on the stream with one shared workspace. cuBLAS has cublas<t>geqrfBatched, but
// on the H200 it returned NaN tau for matrices scaled near overflow or underflow (1e+36 in
// float32, 1e+300 in float64: its norms are not scaled as LAPACK's are), which the
// conformance suite checks; cuSOLVER's geqrf is right there.

func geqrfCUDAVendor[T Scalar]() family[geqrfCall[T]] {
	return family[geqrfCall[T]]{
		canRun: func(q *Queue, c *geqrfCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.a.rows, c.a.cols, c.a.batch)
		},
		launch: geqrfCUDA[T],
	}
}

func geqrfCUDA[T Scalar](q *Queue, c *geqrfCall[T]) error {
	a := c.a
	k := min(a.rows, a.cols)
	if k == 0 || a.batch == 0 {
		return nil
	}
	fn := "cusolverDn" + blasPrefix[T]() + "geqrf"
	return solverLoop(q, a.batch, fn, func(h *cuHandles, lwork *int32) error {
		return solverLib.check(fn+"_bufferSize", h.solver, uintptr(a.rows), uintptr(a.cols),
			a.devPtr(), uintptr(a.ld), uintptr(unsafe.Pointer(lwork)))
	}, func(h *cuHandles, b int, work uintptr, lwork int, dinfo uintptr) []uintptr {
		return []uintptr{h.solver, uintptr(a.rows), uintptr(a.cols), at(a, b), uintptr(a.ld),
			c.tau.devPtr() + uintptr(b*k*sizeOf[T]()), work, uintptr(lwork), dinfo}
	}, sizeOf[T]())
}

// solverLoop calls the cuSOLVER routine fn once per matrix with one workspace of the size that
// query answers (in elements of es bytes) and one device info word, all on the stream.
func solverLoop(q *Queue, batch int, fn string, query func(h *cuHandles, lwork *int32) error,
	args func(h *cuHandles, b int, work uintptr, lwork int, dinfo uintptr) []uintptr, es int) error {
	var lwork int32
	if err := vendorCall(q, func(h *cuHandles) error { return query(h, &lwork) }); err != nil {
		return err
	}
	p, err := carve(q, 4, max(1, int(lwork))*es)
	if err != nil {
		return err
	}
	return vendorLoop(q, batch, fn, func(h *cuHandles, b int) []uintptr { return args(h, b, p[1], int(lwork), p[0]) })
}

func orgqrCUDAVendor[T Scalar]() family[orgqrCall[T]] {
	return family[orgqrCall[T]]{
		canRun: func(q *Queue, c *orgqrCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.a.rows, c.a.cols, c.a.batch, c.k)
		},
		launch: orgqrCUDA[T],
	}
}

func orgqrCUDA[T Scalar](q *Queue, c *orgqrCall[T]) error {
	a := c.a
	if a.cols == 0 || a.batch == 0 {
		return nil
	}
	fn := "cusolverDn" + blasPrefix[T]() + qrName[T]("orgqr", "ungqr")
	return solverLoop(q, a.batch, fn, func(h *cuHandles, lwork *int32) error {
		return solverLib.check(fn+"_bufferSize", h.solver, uintptr(a.rows), uintptr(a.cols), uintptr(c.k),
			a.devPtr(), uintptr(a.ld), c.tau.devPtr(), uintptr(unsafe.Pointer(lwork)))
	}, func(h *cuHandles, b int, work uintptr, lwork int, dinfo uintptr) []uintptr {
		return []uintptr{h.solver, uintptr(a.rows), uintptr(a.cols), uintptr(c.k), at(a, b), uintptr(a.ld),
			c.tau.devPtr() + uintptr(b*c.k*sizeOf[T]()), work, uintptr(lwork), dinfo}
	}, sizeOf[T]())
}

// qrName picks the real or the complex name of a routine.
func qrName[T Scalar](real, cplx string) string {
	if isComplexT[T]() {
		return cplx
	}
	return real
}

func ormqrCUDAVendor[T Scalar]() family[ormqrCall[T]] {
	return family[ormqrCall[T]]{
		canRun: func(q *Queue, c *ormqrCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.c.ld, c.c.rows, c.c.cols, c.c.batch, c.k)
		},
		launch: ormqrCUDA[T],
	}
}

func ormqrCUDA[T Scalar](q *Queue, c *ormqrCall[T]) error {
	m, n := c.c.rows, c.c.cols
	if m == 0 || n == 0 || c.c.batch == 0 {
		return nil
	}
	fn := "cusolverDn" + blasPrefix[T]() + qrName[T]("ormqr", "unmqr")
	side, op := cuSide(c.side), cuOpOf[T](c.trans)
	return solverLoop(q, c.c.batch, fn, func(h *cuHandles, lwork *int32) error {
		return solverLib.check(fn+"_bufferSize", h.solver, side, op, uintptr(m), uintptr(n), uintptr(c.k),
			c.a.devPtr(), uintptr(c.a.ld), c.tau.devPtr(), c.c.devPtr(), uintptr(c.c.ld), uintptr(unsafe.Pointer(lwork)))
	}, func(h *cuHandles, b int, work uintptr, lwork int, dinfo uintptr) []uintptr {
		return []uintptr{h.solver, side, op, uintptr(m), uintptr(n), uintptr(c.k), at(c.a, b), uintptr(c.a.ld),
			c.tau.devPtr() + uintptr(b*c.k*sizeOf[T]()), at(c.c, b), uintptr(c.c.ld), work, uintptr(lwork), dinfo}
	}, sizeOf[T]())
}
