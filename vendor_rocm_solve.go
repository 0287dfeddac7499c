//go:build rocm && !novendor

package batchlas

import "github.com/batchlas/batchlas/internal/hip"

// potrs, posv, gesv, gels, orgqr and ormqr on a ROCm queue. potrs and gels are one rocSOLVER
// strided-batched call each; posv and gesv solve, with rocSOLVER's potrs and getrs, only the matrices whose
// factorization (Potrf's or Getrf's own routing, see factored) succeeded, as runs of
// consecutive ones, so that B_b of a failed matrix is never written; orgqr and ormqr loop
// rocSOLVER's single-matrix routines over the batch on the stream, since rocSOLVER has no
// batched form of them.

// rocRuns calls f(lo, hi) for each maximal run lo..hi-1 of the matrices of a batch whose ok
// is true, in order.
func rocRuns(batch int, ok func(b int) bool, f func(lo, hi int) error) error {
	for lo := 0; lo < batch; lo++ {
		if !ok(lo) {
			continue
		}
		hi := lo + 1
		for hi < batch && ok(hi) {
			hi++
		}
		if err := f(lo, hi); err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// rocSolvedRuns runs solve on the runs of matrices whose info is 0 (info is downloaded: the
// factorization's results decide which matrices are solved).
func rocSolvedRuns(info *Vector[int32], batch int, solve func(lo, hi int) error) error {
	iv, err := info.Download(nil)
	if err != nil {
		return err
	}
	return rocRuns(batch, func(b int) bool { return iv[b] == 0 }, solve)
}

func potrsROCm[T Scalar]() family[potrsCall[T]] {
	return rocmPart(func(c *potrsCall[T]) bool { return fitsInt(c.a.ld, c.b.ld, c.b.rows, c.b.cols, c.b.batch) }, nil,
		func(q *Queue, c *potrsCall[T]) error { return potrsRocSOLVER(q, c.uplo, c.a, c.b, 0, c.b.batch) })
}

// potrsRocSOLVER solves A_b X_b = B_b for the matrices lo..hi-1 with
// rocsolver_<t>potrs_strided_batched, A_b's Cholesky factor in its uplo triangle.
func potrsRocSOLVER[T Scalar](q *Queue, uplo Uplo, a, b *Matrix[T], lo, hi int) error {
	if b.rows == 0 || b.cols == 0 || hi == lo {
		return nil
	}
	h, err := rocHandle(q)
	if err != nil {
		return err
	}
	return rocSolver.Potrs[dtypeIndex[T]()].Status(h, rocFill(uplo), uintptr(b.rows), uintptr(b.cols),
		a.devAt(lo), uintptr(a.ld), uintptr(a.strd), b.devAt(lo), uintptr(b.ld), uintptr(b.strd), uintptr(hi-lo))
}

func posvROCm[T Scalar]() family[posvCall[T]] {
	return rocmPart(func(c *posvCall[T]) bool { return fitsInt(c.a.ld, c.b.ld, c.b.rows, c.b.cols, c.b.batch) }, nil,
		func(q *Queue, c *posvCall[T]) error {
			if c.b.rows == 0 || c.b.cols == 0 || c.b.batch == 0 {
				return nil
			}
			return rocSolvedRuns(c.info, c.b.batch, func(lo, hi int) error { return potrsRocSOLVER(q, c.uplo, c.a, c.b, lo, hi) })
		})
}

func gesvROCm[T Scalar]() family[gesvCall[T]] {
	return rocmPart(func(c *gesvCall[T]) bool { return fitsInt(c.a.ld, c.b.ld, c.b.rows, c.b.cols, c.b.batch) }, nil,
		func(q *Queue, c *gesvCall[T]) error {
			a, b := c.a, c.b
			if b.rows == 0 || b.cols == 0 || b.batch == 0 {
				return nil
			}
			h, err := rocHandle(q)
			if err != nil {
				return err
			}
			n := a.rows
			return rocSolvedRuns(c.info, b.batch, func(lo, hi int) error {
				return rocSolver.Getrs[dtypeIndex[T]()].Status(h, hip.OpNone, uintptr(n), uintptr(b.cols),
					a.devAt(lo), uintptr(a.ld), uintptr(a.strd), c.ipiv.devPtr()+uintptr(4*lo*n), uintptr(n),
					b.devAt(lo), uintptr(b.ld), uintptr(b.strd), uintptr(hi-lo))
			})
		})
}

func orgqrROCm[T Scalar]() family[orgqrCall[T]] {
	return rocmPart(func(c *orgqrCall[T]) bool { return fitsInt(c.a.ld, c.a.rows, c.a.cols, c.k) }, nil,
		func(q *Queue, c *orgqrCall[T]) error {
			a := c.a
			if a.cols == 0 || a.batch == 0 {
				return nil
			}
			h, err := rocHandle(q)
			if err != nil {
				return err
			}
			fn := rocSolver.Orgqr[dtypeIndex[T]()]
			for b := 0; b < a.batch; b++ {
				err := fn.Status(h, uintptr(a.rows), uintptr(a.cols), uintptr(c.k), a.devAt(b), uintptr(a.ld),
					c.tau.devPtr()+uintptr(b*c.k*sizeOf[T]()))
				if err != nil {
					return err
				}
			}
			return nil
		})
}

func ormqrROCm[T Scalar]() family[ormqrCall[T]] {
	return rocmPart(func(c *ormqrCall[T]) bool { return fitsInt(c.a.ld, c.c.ld, c.c.rows, c.c.cols, c.k) }, nil,
		func(q *Queue, c *ormqrCall[T]) error {
			m := c.c
			if m.rows == 0 || m.cols == 0 || m.batch == 0 || c.k == 0 {
				return nil
			}
			h, err := rocHandle(q)
			if err != nil {
				return err
			}
			fn := rocSolver.Ormqr[dtypeIndex[T]()]
			for b := 0; b < m.batch; b++ {
				err := fn.Status(h, rocSide(c.side), rocOp[T](c.trans), uintptr(m.rows), uintptr(m.cols), uintptr(c.k),
					c.a.devAt(b), uintptr(c.a.ld), c.tau.devPtr()+uintptr(b*c.k*sizeOf[T]()), m.devAt(b), uintptr(m.ld))
				if err != nil {
					return err
				}
			}
			return nil
		})
}

// gelsROCm calls rocsolver_<t>gels_strided_batched, whose info is Gels's (the first zero on
// the diagonal of R or L). The trivial calls are Gels's own: nrhs = 0 computes nothing, and
// m or n zero sets b to zero (rocSOLVER's quick returns are not relied on).
func gelsROCm[T Scalar]() family[gelsCall[T]] {
	return rocmPart(func(c *gelsCall[T]) bool {
		return fitsInt(c.a.ld, c.b.ld, c.a.rows, c.a.cols, c.b.cols, c.a.batch)
	}, nil, func(q *Queue, c *gelsCall[T]) error {
		a, b := c.a, c.b
		switch {
		case a.batch == 0:
			return nil
		case b.cols == 0:
			return rocmOf(q).zero32(c.info.devPtr(), a.batch)
		case min(a.rows, a.cols) == 0:
			if err := rocScale(q, b.devPtr(), b.ld, b.strd, b.rows, b.cols, b.batch, T(0)); err != nil {
				return err
			}
			return rocmOf(q).zero32(c.info.devPtr(), a.batch)
		}
		h, err := rocHandle(q)
		if err != nil {
			return err
		}
		return rocSolver.Gels[dtypeIndex[T]()].Status(h, rocOp[T](c.trans), uintptr(a.rows), uintptr(a.cols), uintptr(b.cols),
			a.devPtr(), uintptr(a.ld), uintptr(a.strd), b.devPtr(), uintptr(b.ld), uintptr(b.strd), c.info.devPtr(), uintptr(a.batch))
	})
}
