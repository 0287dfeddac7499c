//go:build rocm && !novendor

package batchlas

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/hip"
)

// The vendor parts of a ROCm queue: rocBLAS's strided-batched gemm, gemv and trsm, and
// rocSOLVER's strided-batched potrf, getrf, getrs, getri, geqrf, syev (heev) and gesvd, each
// one library call for the whole batch on the queue's stream. The ops these do not cover
// have no route on a ROCm queue (*NoRouteError; spmm is one: rocSPARSE is not bound). Every
// wrapper takes the quick returns itself (an empty batch; an empty matrix's info = 0), so that
// what the libraries do with empty sizes never matters. Only the CPU stand-in
// (internal/hip/standin) has run these calls, no AMD GPU.

var (
	rocOnce   sync.Once
	rocBLAS   *hip.BLAS
	rocSolver *hip.Solver
	rocErr    error
)

// rocmVendorLibs opens rocBLAS and rocSOLVER, once.
func rocmVendorLibs() error {
	rocOnce.Do(func() {
		if rocBLAS, rocErr = hip.OpenBLAS(); rocErr == nil {
			rocSolver, rocErr = hip.OpenSolver()
		}
	})
	return rocErr
}

// rocmPart is a ROCm vendor part: it runs on ROCm queues whose libraries opened, and
// needs the sizes fits gives to fit rocBLAS's 32-bit ints.
func rocmPart[C any](fits func(c *C) bool, bufferSize func(q *Queue, c *C) int, launch func(q *Queue, c *C) error) family[C] {
	return family[C]{
		backend:    ROCm,
		canRun:     func(_ *Queue, c *C) bool { return rocmVendorLibs() == nil && fits(c) },
		bufferSize: bufferSize,
		launch:     launch,
		why: func(q *Queue) string {
			if q.dev.Backend != ROCm {
				return ""
			}
			if err := rocmVendorLibs(); err != nil {
				return err.Error()
			}
			return ""
		},
	}
}

// rocHandle is q's rocBLAS handle, created on first use and bound to q's stream; the engine
// destroys it on close.
func rocHandle(q *Queue) (uintptr, error) {
	e := rocmOf(q)
	if e.vendor != 0 {
		return e.vendor, nil
	}
	var h uintptr
	if err := rocBLAS.CreateHandle.Status(uintptr(unsafe.Pointer(&h))); err != nil {
		return 0, err
	}
	if err := rocBLAS.SetStream.Status(h, e.stream); err != nil {
		return 0, err
	}
	e.vendor = h
	e.closeVendor = func() error { return rocBLAS.DestroyHandle.Status(h) }
	return h, nil
}

func rocFill(u Uplo) uintptr {
	if u == Upper {
		return hip.FillUpper
	}
	return hip.FillLower
}

// rocOp is trans for a rocBLAS call on T: ConjTrans of a real type is Trans.
func rocOp[T Scalar](t Transpose) uintptr {
	switch {
	case t == NoTrans:
		return hip.OpNone
	case t == ConjTrans && isComplex[T]():
		return hip.OpConjTrans
	}
	return hip.OpTrans
}

func rocSide(s Side) uintptr {
	if s == Right {
		return hip.SideRight
	}
	return hip.SideLeft
}

func rocDiag(d Diag) uintptr {
	if d == Unit {
		return hip.DiagUnit
	}
	return hip.DiagNonUnit
}

func gemmROCm[T Scalar]() family[gemmCall[T]] {
	return rocmPart(func(g *gemmCall[T]) bool {
		return fitsInt(g.a.ld, g.b.ld, g.c.ld, g.c.rows, g.c.cols, g.a.cols, g.a.rows, g.c.batch)
	}, nil, gemmRocBLAS[T])
}

// gemmRocBLAS calls rocblas_<t>gemm_strided_batched. alpha = 0 or k = 0 is C = beta C
// (rocScale), A and B unread.
func gemmRocBLAS[T Scalar](q *Queue, g *gemmCall[T]) error {
	m, n, k := g.dims()
	if m == 0 || n == 0 || g.c.batch == 0 {
		return nil
	}
	if g.alpha == 0 || k == 0 {
		return rocScale(q, g.c.devPtr(), g.c.ld, g.c.strd, m, n, g.c.batch, g.beta)
	}
	h, err := rocHandle(q)
	if err != nil {
		return err
	}
	s := scalars(g.alpha, g.beta)
	defer runtime.KeepAlive(s)
	return rocBLAS.Gemm[dtypeIndex[T]()].Status(h, rocOp[T](g.transA), rocOp[T](g.transB),
		uintptr(m), uintptr(n), uintptr(k), s.ptr(0),
		g.a.devPtr(), uintptr(g.a.ld), uintptr(g.a.strd), g.b.devPtr(), uintptr(g.b.ld), uintptr(g.b.strd),
		s.ptr(1), g.c.devPtr(), uintptr(g.c.ld), uintptr(g.c.strd), uintptr(g.c.batch))
}

// rocScale sets the rows-by-cols matrices at c (leading dimension ld, stride in elements)
// to beta C, as a gemm with k = 0, which BLAS defines as exactly that: beta 0 writes zeros
// without reading C, beta 1 leaves C alone (no call at all).
func rocScale[T Scalar](q *Queue, c uintptr, ld, stride, rows, cols, batch int, beta T) error {
	if beta == 1 || rows == 0 || cols == 0 || batch == 0 {
		return nil
	}
	h, err := rocHandle(q)
	if err != nil {
		return err
	}
	s := scalars(T(0), beta)
	defer runtime.KeepAlive(s)
	return rocBLAS.Gemm[dtypeIndex[T]()].Status(h, hip.OpNone, hip.OpNone, uintptr(rows), uintptr(cols), 0, s.ptr(0),
		c, uintptr(ld), uintptr(stride), c, 1, uintptr(stride), s.ptr(1), c, uintptr(ld), uintptr(stride), uintptr(batch))
}

func gemvROCm[T Scalar]() family[gemvCall[T]] {
	return rocmPart(func(g *gemvCall[T]) bool {
		nx, ny := g.lens()
		return fitsInt(g.a.ld, g.a.rows, g.a.cols, g.a.batch, ny*g.a.batch, nx, ny)
	}, nil, gemvRocBLAS[T])
}

// gemvRocBLAS calls rocblas_<t>gemv_strided_batched. alpha = 0 or an empty inner size is
// y = beta y, x and A unread.
func gemvRocBLAS[T Scalar](q *Queue, g *gemvCall[T]) error {
	nx, ny := g.lens()
	if ny == 0 || g.a.batch == 0 {
		return nil
	}
	if g.alpha == 0 || nx == 0 {
		return rocScale(q, g.y.devPtr(), ny, ny, ny, 1, g.a.batch, g.beta)
	}
	h, err := rocHandle(q)
	if err != nil {
		return err
	}
	s := scalars(g.alpha, g.beta)
	defer runtime.KeepAlive(s)
	return rocBLAS.Gemv[dtypeIndex[T]()].Status(h, rocOp[T](g.trans),
		uintptr(g.a.rows), uintptr(g.a.cols), s.ptr(0), g.a.devPtr(), uintptr(g.a.ld), uintptr(g.a.strd),
		g.x.devPtr(), 1, uintptr(nx), s.ptr(1), g.y.devPtr(), 1, uintptr(ny), uintptr(g.a.batch))
}

func trsmROCm[T Scalar]() family[trsmCall[T]] {
	return rocmPart(func(c *trsmCall[T]) bool { return fitsInt(c.a.ld, c.b.ld, c.b.rows, c.b.cols, c.b.batch) }, nil, trsmRocBLAS[T])
}

// trsmRocBLAS calls rocblas_<t>trsm_strided_batched. alpha = 0 is B = 0, A and B unread.
func trsmRocBLAS[T Scalar](q *Queue, c *trsmCall[T]) error {
	b := c.b
	if b.rows == 0 || b.cols == 0 || b.batch == 0 {
		return nil
	}
	if c.alpha == 0 {
		return rocScale(q, b.devPtr(), b.ld, b.strd, b.rows, b.cols, b.batch, T(0))
	}
	h, err := rocHandle(q)
	if err != nil {
		return err
	}
	s := scalars(c.alpha)
	defer runtime.KeepAlive(s)
	return rocBLAS.Trsm[dtypeIndex[T]()].Status(h, rocSide(c.side), rocFill(c.uplo), rocOp[T](c.trans), rocDiag(c.diag),
		uintptr(b.rows), uintptr(b.cols), s.ptr(0), c.a.devPtr(), uintptr(c.a.ld), uintptr(c.a.strd),
		b.devPtr(), uintptr(b.ld), uintptr(b.strd), uintptr(b.batch))
}

// rocEmpty is the quick return of a rocSOLVER factorization: true when no call need run,
// after writing info 0 for a batch of empty matrices.
func rocEmpty(q *Queue, empty bool, batch int, info *Vector[int32]) (bool, error) {
	switch {
	case batch == 0:
		return true, nil
	case empty:
		if info == nil {
			return true, nil
		}
		return true, rocmOf(q).zero32(info.devPtr(), batch)
	}
	return false, nil
}

func potrfROCm[T Scalar]() family[potrfCall[T]] {
	return rocmPart(func(c *potrfCall[T]) bool { return fitsInt(c.a.ld, c.a.rows, c.a.batch) }, nil,
		func(q *Queue, c *potrfCall[T]) error {
			a := c.a
			if done, err := rocEmpty(q, a.rows == 0, a.batch, c.info); done {
				return err
			}
			h, err := rocHandle(q)
			if err != nil {
				return err
			}
			return rocSolver.Potrf[dtypeIndex[T]()].Status(h, rocFill(c.uplo), uintptr(a.rows), a.devPtr(), uintptr(a.ld),
				uintptr(a.strd), c.info.devPtr(), uintptr(a.batch))
		})
}

// getrfROCm calls rocsolver_<t>getrf_strided_batched on a with a copy of a kept in the
// workspace, and refactors on the host the matrices whose info is nonzero or whose U has a
// non-finite diagonal (getrf_rescue.go).
func getrfROCm[T Scalar]() family[getrfCall[T]] {
	work := func(_ *Queue, c *getrfCall[T]) int {
		return alignUp(c.a.extent()*sizeOf[T](), 256) + min(c.a.rows, c.a.cols)*c.a.batch*sizeOf[T]()
	}
	return rocmPart(func(c *getrfCall[T]) bool { return fitsInt(c.a.ld, c.a.rows, c.a.cols, c.a.batch, c.a.strd) }, work,
		func(q *Queue, c *getrfCall[T]) error {
			a, k := c.a, min(c.a.rows, c.a.cols)
			if done, err := rocEmpty(q, k == 0, a.batch, c.info); done {
				return err
			}
			ws, err := q.scratch(work(q, c))
			if err != nil {
				return err
			}
			orig, diag := ws, ws+uintptr(alignUp(a.extent()*sizeOf[T](), 256))
			e := rocmOf(q)
			if err := e.copy(orig, a.devPtr(), a.extent()*sizeOf[T]()); err != nil {
				return err
			}
			h, err := rocHandle(q)
			if err != nil {
				return err
			}
			err = rocSolver.Getrf[dtypeIndex[T]()].Status(h, uintptr(a.rows), uintptr(a.cols), a.devPtr(), uintptr(a.ld),
				uintptr(a.strd), c.ipiv.devPtr(), uintptr(k), c.info.devPtr(), uintptr(a.batch))
			if err == nil {
				err = rocBLAS.Copy[dtypeIndex[T]()].Status(h, uintptr(k), a.devPtr(), uintptr(a.ld+1), uintptr(a.strd),
					diag, 1, uintptr(k), uintptr(a.batch))
			}
			if err != nil {
				return err
			}
			failed, err := luFailed[T](e, a.batch, k, c.info.devPtr(), diag)
			if err != nil {
				return err
			}
			return luRescue(e, a, orig, a.ld, a.strd, c.ipiv.devPtr(), c.info.devPtr(), failed)
		})
}

func getrsROCm[T Scalar]() family[getrsCall[T]] {
	return rocmPart(func(c *getrsCall[T]) bool { return fitsInt(c.a.ld, c.b.ld, c.a.rows, c.b.cols, c.a.batch) }, nil,
		func(q *Queue, c *getrsCall[T]) error {
			a, b := c.a, c.b
			if done, err := rocEmpty(q, a.rows == 0 || b.cols == 0, a.batch, nil); done {
				return err
			}
			h, err := rocHandle(q)
			if err != nil {
				return err
			}
			return rocSolver.Getrs[dtypeIndex[T]()].Status(h, rocOp[T](c.trans), uintptr(a.rows), uintptr(b.cols),
				a.devPtr(), uintptr(a.ld), uintptr(a.strd), c.ipiv.devPtr(), uintptr(a.rows),
				b.devPtr(), uintptr(b.ld), uintptr(b.strd), uintptr(a.batch))
		})
}

func getriROCm[T Scalar]() family[getriCall[T]] {
	return rocmPart(func(c *getriCall[T]) bool { return fitsInt(c.a.ld, c.a.rows, c.a.batch) }, nil,
		func(q *Queue, c *getriCall[T]) error {
			a := c.a
			if done, err := rocEmpty(q, a.rows == 0, a.batch, c.info); done {
				return err
			}
			h, err := rocHandle(q)
			if err != nil {
				return err
			}
			return rocSolver.Getri[dtypeIndex[T]()].Status(h, uintptr(a.rows), a.devPtr(), uintptr(a.ld), uintptr(a.strd),
				c.ipiv.devPtr(), uintptr(a.rows), c.info.devPtr(), uintptr(a.batch))
		})
}

func geqrfROCm[T Scalar]() family[geqrfCall[T]] {
	return rocmPart(func(c *geqrfCall[T]) bool { return fitsInt(c.a.ld, c.a.rows, c.a.cols, c.a.batch) }, nil,
		func(q *Queue, c *geqrfCall[T]) error {
			a := c.a
			if done, err := rocEmpty(q, a.rows == 0 || a.cols == 0, a.batch, nil); done {
				return err
			}
			h, err := rocHandle(q)
			if err != nil {
				return err
			}
			return rocSolver.Geqrf[dtypeIndex[T]()].Status(h, uintptr(a.rows), uintptr(a.cols), a.devPtr(), uintptr(a.ld),
				uintptr(a.strd), c.tau.devPtr(), uintptr(min(a.rows, a.cols)), uintptr(a.batch))
		})
}
