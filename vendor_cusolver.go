//go:build cuda && !novendor

package batchlas

// potrf through cusolverDn<t>potrfBatched, which reads a device array of matrix pointers.
func potrfCUDAVendor[T Scalar]() family[potrfCall[T]] {
	return family[potrfCall[T]]{
		canRun:     func(q *Queue, c *potrfCall[T]) bool { return onCUDA(q) && fitsInt(c.a.ld, c.a.batch) },
		bufferSize: func(_ *Queue, c *potrfCall[T]) int { return 8 * c.a.batch },
		launch:     potrfCUSOLVER[T],
	}
}

func potrfCUSOLVER[T Scalar](q *Queue, c *potrfCall[T]) error {
	a, e := c.a, cudaOf(q)
	if a.batch == 0 {
		return nil
	}
	if a.rows == 0 {
		return e.zero32(c.info.devPtr(), a.batch)
	}
	ptrs, err := q.scratch(8 * a.batch)
	if err != nil {
		return err
	}
	if err := e.ptrArray(ptrs, a.devPtr(), a.strd*sizeOf[T](), a.batch); err != nil {
		return err
	}
	return vendorCall(q, func(h *cuHandles) error {
		return solverLib.check("cusolverDn"+blasPrefix[T]()+"potrfBatched", h.solver, cuFill(c.uplo),
			uintptr(a.rows), ptrs, uintptr(a.ld), c.info.devPtr(), uintptr(a.batch))
	})
}
