//go:build rocm && !novendor

package batchlas

import "github.com/batchlas/batchlas/internal/hip"

// syev and gesvd on a ROCm queue: rocSOLVER's strided-batched syev (heev) and gesvd on the
// finite matrices of the batch, in runs of consecutive ones. A matrix holding NaN or Inf is
// not given to rocSOLVER (its iterations promise nothing for one) and gets what the host
// family gives it, written from the host: NaN values and vectors, info n-1 (syev) or k
// (gesvd). Finding those matrices downloads the batch once; no ROCm kernel of this project
// exists that would test it on the device.

// rocSpan downloads the stored batch m, from matrix 0's element (0, 0) to the last matrix's
// last element: matrix b starts at b*m.strd.
func rocSpan[T Scalar](q *Queue, m *Matrix[T]) ([]T, error) {
	span := make([]T, m.extent())
	if len(span) == 0 {
		return span, nil
	}
	return span, rocmOf(q).download(bytesOf(span), m.devPtr())
}

// rocFinite downloads the batch a once (rocSpan) and tells of each matrix whether ok holds
// of it, given the span from its first element on.
func rocFinite[T Scalar](q *Queue, a *Matrix[T], ok func(m []T) bool) ([]T, []bool, error) {
	span, err := rocSpan(q, a)
	if err != nil {
		return nil, nil, err
	}
	finite := make([]bool, a.batch)
	for b := range finite {
		finite[b] = ok(span[b*a.strd:])
	}
	return span, finite, nil
}

// rocPutMat uploads matrix b of the host copy span (rocSpan's) back to m: its columns and
// the elements between them, which span holds as they were.
func rocPutMat[T Scalar](q *Queue, m *Matrix[T], span []T, b int) error {
	lo := b * m.strd
	return rocmOf(q).upload(m.devAt(b), bytesOf(span[lo:lo+(m.cols-1)*m.ld+m.rows]))
}

// rocPut uploads vals to v from element off on.
func rocPut[E Element](q *Queue, v *Vector[E], off int, vals []E) error {
	return rocmOf(q).upload(v.devPtr()+uintptr(off*sizeOf[E]()), bytesOf(vals))
}

// syevROCm calls rocsolver_<t>syev_strided_batched (heev for the complex types), whose
// off-diagonal workspace E (n reals per matrix) is leased from the queue.
func syevROCm[T Scalar, R Real]() family[syevCall[T, R]] {
	work := func(_ *Queue, c *syevCall[T, R]) int { return c.a.rows * c.a.batch * sizeOf[R]() }
	return rocmPart(func(c *syevCall[T, R]) bool { return fitsInt(c.a.ld, c.a.rows, c.a.batch) }, work,
		func(q *Queue, c *syevCall[T, R]) error {
			a, n := c.a, c.a.rows
			if done, err := rocEmpty(q, n == 0, a.batch, c.info); done {
				return err
			}
			span, finite, err := rocFinite(q, a, func(m []T) bool { return finiteTriangle(c.uplo == Lower, n, m, a.ld) })
			if err != nil {
				return err
			}
			e, err := q.scratch(work(q, c))
			if err != nil {
				return err
			}
			h, err := rocHandle(q)
			if err != nil {
				return err
			}
			evect := uintptr(hip.EvectNone)
			if c.jobz == Vectors {
				evect = hip.EvectOriginal
			}
			err = rocRuns(a.batch, func(b int) bool { return finite[b] }, func(lo, hi int) error {
				return rocSolver.Syev[dtypeIndex[T]()].Status(h, evect, rocFill(c.uplo), uintptr(n), a.devAt(lo),
					uintptr(a.ld), uintptr(a.strd), c.w.devPtr()+uintptr(lo*n*sizeOf[R]()), uintptr(n), e, uintptr(n),
					c.info.devPtr()+uintptr(4*lo), uintptr(hi-lo))
			})
			for b := 0; b < a.batch && err == nil; b++ {
				if finite[b] {
					continue
				}
				w := make([]R, n)
				info := []int32{int32(nanEigen(c.jobz == Vectors, n, span[b*a.strd:], a.ld, w))}
				if err = rocPut(q, c.w, b*n, w); err == nil {
					err = rocPut(q, c.info, b, info)
				}
				if err == nil && c.jobz == Vectors {
					err = rocPutMat(q, a, span, b)
				}
			}
			return err
		})
}

// gesvdROCm calls rocsolver_<t>gesvd_strided_batched out of place, whose superdiagonal
// workspace E (min(m, n) reals per matrix) is leased from the queue. k = 0 calls nothing:
// the singular values are empty, info is 0 and a requested SVDAll factor the identity.
func gesvdROCm[T Scalar, R Real]() family[gesvdCall[T, R]] {
	work := func(_ *Queue, c *gesvdCall[T, R]) int { return min(c.a.rows, c.a.cols) * c.a.batch * sizeOf[R]() }
	return rocmPart(func(c *gesvdCall[T, R]) bool {
		return fitsInt(c.a.ld, c.a.rows, c.a.cols, c.a.batch, svdLD(c.u), svdLD(c.vt))
	}, work, func(q *Queue, c *gesvdCall[T, R]) error {
		a := c.a
		m, n, k := a.rows, a.cols, min(a.rows, a.cols)
		switch {
		case a.batch == 0:
			return nil
		case k == 0:
			return gesvdROCmEmpty(q, c)
		}
		_, finite, err := rocFinite(q, a, func(s []T) bool { return allFinite(s, a.ld, m, n) })
		if err != nil {
			return err
		}
		e, err := q.scratch(work(q, c))
		if err != nil {
			return err
		}
		h, err := rocHandle(q)
		if err != nil {
			return err
		}
		u, ldu, su := svdArg(c.jobu, c.u)
		v, ldv, sv := svdArg(c.jobvt, c.vt)
		err = rocRuns(a.batch, func(b int) bool { return finite[b] }, func(lo, hi int) error {
			return rocSolver.Gesvd[dtypeIndex[T]()].Status(h, rocSvect(c.jobu), rocSvect(c.jobvt), uintptr(m), uintptr(n),
				a.devAt(lo), uintptr(a.ld), uintptr(a.strd), c.s.devPtr()+uintptr(lo*k*sizeOf[R]()), uintptr(k),
				svdAt[T](u, su, lo), ldu, su, svdAt[T](v, sv, lo), ldv, sv,
				e, uintptr(k), hip.OutOfPlace, c.info.devPtr()+uintptr(4*lo), uintptr(hi-lo))
		})
		if err != nil {
			return err
		}
		return gesvdROCmNonfinite(q, c, finite)
	})
}

// gesvdROCmNonfinite writes, for each matrix b that is not finite, NaN singular values and
// factors and info k, as the host family does.
func gesvdROCmNonfinite[T Scalar, R Real](q *Queue, c *gesvdCall[T, R], finite []bool) error {
	a := c.a
	k := min(a.rows, a.cols)
	ur, uc, vr, vc := svdShapes(c.jobu, c.jobvt, a.rows, a.cols)
	var uspan, vspan []T
	for b, ok := range finite {
		if ok {
			continue
		}
		s := make([]R, k)
		setNaN(s, 1, k, 1)
		if err := rocPut(q, c.s, b*k, s); err != nil {
			return err
		}
		if err := rocPut(q, c.info, b, []int32{int32(k)}); err != nil {
			return err
		}
		for _, f := range []struct {
			m     *Matrix[T]
			span  *[]T
			r, cl int
		}{{c.u, &uspan, ur, uc}, {c.vt, &vspan, vr, vc}} {
			if f.r == 0 || f.cl == 0 {
				continue
			}
			if *f.span == nil {
				sp, err := rocSpan(q, f.m)
				if err != nil {
					return err
				}
				*f.span = sp
			}
			setNaN((*f.span)[b*f.m.strd:], f.m.ld, f.r, f.cl)
			if err := rocPutMat(q, f.m, *f.span, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// gesvdROCmEmpty is Gesvd of a batch of empty matrices (k = 0): info 0, and an SVDAll
// factor (u when m > 0, vt when n > 0) the identity.
func gesvdROCmEmpty[T Scalar, R Real](q *Queue, c *gesvdCall[T, R]) error {
	for _, m := range c.emptyIdentities() {
		span, err := rocSpan(q, m)
		if err != nil {
			return err
		}
		for b := 0; b < m.batch; b++ {
			identity(span[b*m.strd:], m.ld, m.rows, m.rows)
		}
		if err := rocmOf(q).upload(m.devPtr(), bytesOf(span)); err != nil {
			return err
		}
	}
	return rocmOf(q).zero32(c.info.devPtr(), c.a.batch)
}

func rocSvect(j SVDJob) uintptr {
	switch j {
	case SVDAll:
		return hip.SvectAll
	case SVDThin:
		return hip.SvectSingular
	}
	return hip.SvectNone
}

// svdLD is a factor's leading dimension, 1 for an absent one.
func svdLD[T Scalar](f *Matrix[T]) int {
	if f == nil {
		return 1
	}
	return f.ld
}

// svdArg is a factor's address, leading dimension and stride for rocSOLVER; an unreferenced
// factor (SVDNone, possibly nil) is 0, 1, 1.
func svdArg[T Scalar](job SVDJob, f *Matrix[T]) (p, ld, stride uintptr) {
	if job == SVDNone || f == nil {
		return 0, 1, 1
	}
	return f.devPtr(), uintptr(f.ld), uintptr(f.strd)
}

// svdAt is the address of matrix b of a factor at p with the given stride; 0 stays 0.
func svdAt[T Scalar](p, stride uintptr, b int) uintptr {
	if p == 0 {
		return 0
	}
	return p + uintptr(b)*stride*uintptr(sizeOf[T]())
}
