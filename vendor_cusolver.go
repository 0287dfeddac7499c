//go:build cuda && !novendor

package batchlas

// potrf through cusolverDn<t>potrfBatched, which reads a device array of matrix pointers.
//
// Seen on the H200 (cuSOLVER 12, CUDA 13.0): potrfBatched with uplo Upper writes the strictly
// lower triangle too, and potrsBatched writes the triangle of A it should not read. So the
// library only ever factors the lower triangle: Upper factors W = A^H (a packed workspace
// copy) and copies W^H back, which restores A's lower triangle bit for bit (it went to W's
// upper triangle, which a Lower factorization leaves alone), and potrs solves with a
// workspace copy of the factor.
func potrfCUDAVendor[T Scalar]() family[potrfCall[T]] {
	return family[potrfCall[T]]{
		canRun:     func(q *Queue, c *potrfCall[T]) bool { return onCUDA(q) && fitsInt(c.a.ld, c.a.rows, c.a.batch) },
		bufferSize: func(_ *Queue, c *potrfCall[T]) int { return carveBytes(cholParts(c.uplo, c.a)...) },
		launch:     potrfCUSOLVER[T],
	}
}

// cholParts is the workspace of a vendor Cholesky factorization: the pointer array, and for
// Upper the packed W = A^H.
func cholParts[T Scalar](uplo Uplo, a *Matrix[T]) []int {
	if uplo == Lower {
		return []int{8 * a.batch}
	}
	return []int{8 * a.batch, a.rows * a.rows * a.batch * sizeOf[T]()}
}

func potrfCUSOLVER[T Scalar](q *Queue, c *potrfCall[T]) error {
	a, e := c.a, cudaOf(q)
	if a.batch == 0 {
		return nil
	}
	if a.rows == 0 {
		return e.zero32(c.info.devPtr(), a.batch)
	}
	p, err := carve(q, cholParts(c.uplo, a)...)
	if err != nil {
		return err
	}
	if c.uplo == Lower {
		return potrfLower[T](q, a.devPtr(), a.ld, a.strd, a.rows, a.batch, p[0], c.info.devPtr())
	}
	return viaAdjoint(q, a, p[1], true, func() error {
		return potrfLower[T](q, p[1], a.rows, a.rows*a.rows, a.rows, a.batch, p[0], c.info.devPtr())
	})
}

// viaAdjoint copies the upper triangle of the square matrices of a into the lower triangle of
// the packed workspace w, conjugate transposed, runs f, and, when back is set, copies the
// adjoint of w's lower triangle back into a's upper one. Neither copy touches a's lower
// triangle: it is not the call's.
func viaAdjoint[T Scalar](q *Queue, a *Matrix[T], w uintptr, back bool, f func() error) error {
	e, n := cudaOf(q), a.rows
	const adj = copyTranspose | copyConj
	if err := copyMat[T](e, w, n, n*n, a.devPtr(), a.ld, a.strd, n, n, a.batch, 0, adj|copyLower); err != nil {
		return err
	}
	if err := f(); err != nil || !back {
		return err
	}
	return copyMat[T](e, a.devPtr(), a.ld, a.strd, w, n, n*n, n, n, a.batch, 0, adj|copyUpper)
}

// potrfLower factors the lower triangles of the batch at base (ld and stride in elements)
// with cusolverDn<t>potrfBatched, through the pointer array ptrs that it fills.
func potrfLower[T Scalar](q *Queue, base uintptr, ld, stride, n, batch int, ptrs, info uintptr) error {
	if err := cudaOf(q).ptrArray(ptrs, base, stride*sizeOf[T](), batch); err != nil {
		return err
	}
	return vendorCall(q, func(h *cuHandles) error {
		return cusolver.PotrfBatched[dtypeIndex[T]()].Status(h.solver, cuFill(Lower),
			uintptr(n), ptrs, uintptr(ld), info, uintptr(batch))
	})
}
