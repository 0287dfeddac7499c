//go:build cuda && !novendor

package batchlas

import "unsafe"

// gesvd on a CUDA queue: cusolverDn<t>gesvdjBatched (one-sided Jacobi) where m, n <= 32,
// its limit, and above that a loop of cusolverDn<t>gesvd over the batch, on the stream with
// one shared workspace. cusolverDn<t>gesvd takes m >= n only, so a wide A is decomposed as
// A^H = U' S V'^H, from which U = V' and V^H = U'^H, through transposing copies.

func gesvdCUDAVendor[T Scalar, R Real]() family[gesvdCall[T, R]] {
	return family[gesvdCall[T, R]]{
		canRun: func(q *Queue, c *gesvdCall[T, R]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.a.rows, c.a.cols, c.a.batch, c.a.rows*c.a.cols)
		},
		bufferSize: func(q *Queue, c *gesvdCall[T, R]) int {
			if c.a.batch == 0 {
				return 0
			}
			parts, _, err := gesvdParts(q, c)
			if err != nil {
				return 0
			}
			return carveBytes(parts...)
		},
		launch: gesvdCUDA[T, R],
	}
}

// gesvdParts is the workspace gesvdCUDA leases, with the solver's lwork: for k = 0 the
// identity staged for an SVDAll factor; for m, n <= 32 gesvdjCUDA's packed A, U, V and
// Jacobi workspace; above, the per-matrix gesvd's workspace and info words, plus A^H and
// its factors for a wide matrix.
func gesvdParts[T Scalar, R Real](q *Queue, c *gesvdCall[T, R]) ([]int, int32, error) {
	a, es := c.a, sizeOf[T]()
	m, n, batch := a.rows, a.cols, a.batch
	k := min(m, n)
	var lwork int32
	switch {
	case k == 0:
		return []int{svdEmptyBytes(c)}, 0, nil
	case m <= 32 && n <= 32:
		err := vendorCall(q, func(h *cuHandles) error {
			return cusolver.GesvdjBatchedBufferSize[dtypeIndex[T]()].Status(h.solver, gesvdjVectors(c), uintptr(m), uintptr(n), a.devPtr(), uintptr(m),
				c.s.devPtr(), a.devPtr(), uintptr(m), a.devPtr(), uintptr(n), uintptr(unsafe.Pointer(&lwork)), h.gesvdj, uintptr(batch))
		})
		return []int{m * n * batch * es, m * m * batch * es, n * n * batch * es, max(1, int(lwork)) * es}, lwork, err
	}
	rows, cols := max(m, n), k
	err := vendorCall(q, func(h *cuHandles) error {
		return cusolver.GesvdBufferSize[dtypeIndex[T]()].Status(h.solver, uintptr(rows), uintptr(cols), uintptr(unsafe.Pointer(&lwork)))
	})
	sizes := []int{max(1, int(lwork)) * es, k * 8}
	if m < n {
		sizes = append(sizes, rows*cols*batch*es, rows*rows*batch*es, cols*cols*batch*es)
	}
	return sizes, lwork, err
}

func gesvdCUDA[T Scalar, R Real](q *Queue, c *gesvdCall[T, R]) error {
	a, e := c.a, cudaOf(q)
	m, n, batch := a.rows, a.cols, a.batch
	k := min(m, n)
	if batch == 0 {
		return nil
	}
	if k == 0 {
		return svdEmpty(q, c)
	}
	if m <= 32 && n <= 32 {
		return gesvdjCUDA(q, c)
	}
	es := sizeOf[T]()
	wide := m < n
	rows, cols, jobu, jobvt := m, n, c.jobu, c.jobvt
	if wide {
		rows, cols, jobu, jobvt = n, m, c.jobvt, c.jobu
	}
	fn := cusolver.Gesvd[dtypeIndex[T]()]
	sizes, lwork, err := gesvdParts(q, c)
	if err != nil {
		return err
	}
	p, err := carve(q, sizes...)
	if err != nil {
		return err
	}
	// The matrix decomposed (A, or A^H in workspace) and where its U and V^H go.
	src, sld, sstr := a.devPtr(), a.ld, a.strd
	uPtr, uld, ustr := uintptr(0), rows, 0
	vPtr, vld, vstr := uintptr(0), cols, 0
	if wide {
		if err := copyMat[T](e, p[2], rows, rows*cols, a.devPtr(), a.ld, a.strd, rows, cols, batch, 0, copyTranspose|copyConj); err != nil {
			return err
		}
		src, sld, sstr = p[2], rows, rows*cols
		uPtr, uld, ustr = p[3], rows, rows*rows
		vPtr, vld, vstr = p[4], cols, cols*cols
	} else {
		if c.jobu != SVDNone {
			uPtr, uld, ustr = c.u.devPtr(), c.u.ld, c.u.strd
		}
		if c.jobvt != SVDNone {
			vPtr, vld, vstr = c.vt.devPtr(), c.vt.ld, c.vt.strd
		}
	}
	off := func(base uintptr, stride, b int) uintptr {
		if base == 0 {
			return 0
		}
		return base + uintptr(b*stride*es)
	}
	err = vendorLoop(q, batch, fn, func(h *cuHandles, b int) []uintptr {
		return []uintptr{h.solver, uintptr(jobu), uintptr(jobvt), uintptr(rows), uintptr(cols),
			off(src, sstr, b), uintptr(sld), c.s.devPtr() + uintptr(b*k*sizeOf[R]()),
			off(uPtr, ustr, b), uintptr(uld), off(vPtr, vstr, b), uintptr(vld),
			p[0], uintptr(lwork), p[1], c.info.devPtr() + uintptr(4*b)}
	})
	if err != nil || !wide {
		return err
	}
	// V^H = U'^H and U = V'^H = (V'^H)^H.
	if c.jobvt != SVDNone {
		if err := copyMat[T](e, c.vt.devPtr(), c.vt.ld, c.vt.strd, uPtr, uld, ustr, c.vt.rows, c.vt.cols, batch, 0, copyTranspose|copyConj); err != nil {
			return err
		}
	}
	if c.jobu != SVDNone {
		return copyMat[T](e, c.u.devPtr(), c.u.ld, c.u.strd, vPtr, vld, vstr, c.u.rows, c.u.cols, batch, 0, copyTranspose|copyConj)
	}
	return nil
}

// gesvdjVectors is gesvdjBatched's jobz: vectors when either factor is asked for.
func gesvdjVectors[T Scalar, R Real](c *gesvdCall[T, R]) uintptr {
	if c.jobu != SVDNone || c.jobvt != SVDNone {
		return 1
	}
	return 0
}

// gesvdjCUDA runs cusolverDn<t>gesvdjBatched, which reads packed matrices (stride lda*n)
// and writes full U and V: a packed copy of A goes in, and U and V come out of workspace
// into u and vt (vt = V^H), keeping the columns or rows each job asks for.
func gesvdjCUDA[T Scalar, R Real](q *Queue, c *gesvdCall[T, R]) error {
	a, e := c.a, cudaOf(q)
	m, n, batch := a.rows, a.cols, a.batch
	vectors := gesvdjVectors(c)
	fn := cusolver.GesvdjBatched[dtypeIndex[T]()]
	sizes, lwork, err := gesvdParts(q, c)
	if err != nil {
		return err
	}
	p, err := carve(q, sizes...)
	if err != nil {
		return err
	}
	if err := copyMat[T](e, p[0], m, m*n, a.devPtr(), a.ld, a.strd, m, n, batch, 0, 0); err != nil {
		return err
	}
	err = vendorCall(q, func(h *cuHandles) error {
		return fn.Status(h.solver, vectors, uintptr(m), uintptr(n), p[0], uintptr(m), c.s.devPtr(),
			p[1], uintptr(m), p[2], uintptr(n), p[3], uintptr(lwork), c.info.devPtr(), h.gesvdj, uintptr(batch))
	})
	if err != nil {
		return err
	}
	if c.jobu != SVDNone {
		if err := copyMat[T](e, c.u.devPtr(), c.u.ld, c.u.strd, p[1], m, m*m, c.u.rows, c.u.cols, batch, 0, 0); err != nil {
			return err
		}
	}
	if c.jobvt != SVDNone {
		return copyMat[T](e, c.vt.devPtr(), c.vt.ld, c.vt.strd, p[2], n, n*n, c.vt.rows, c.vt.cols, batch, 0, copyTranspose|copyConj)
	}
	return nil
}
