//go:build cuda && !novendor

package batchlas

import (
	"unsafe"

	"github.com/batchlas/batchlas/internal/dl"
)

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
		bufferSize: func(q *Queue, c *geqrfCall[T]) int {
			if min(c.a.rows, c.a.cols) == 0 || c.a.batch == 0 {
				return 0
			}
			return geqrfJob(c).bytes(q)
		},
		launch: func(q *Queue, c *geqrfCall[T]) error {
			if min(c.a.rows, c.a.cols) == 0 || c.a.batch == 0 {
				return nil
			}
			return geqrfJob(c).run(q)
		},
	}
}

func geqrfJob[T Scalar](c *geqrfCall[T]) solverJob {
	a, k := c.a, min(c.a.rows, c.a.cols)
	return solverJob{fn: cusolver.Geqrf[dtypeIndex[T]()], batch: a.batch, es: sizeOf[T](),
		query: func(h *cuHandles, lwork *int32) error {
			return cusolver.GeqrfBufferSize[dtypeIndex[T]()].Status(h.solver, uintptr(a.rows), uintptr(a.cols),
				a.devPtr(), uintptr(a.ld), uintptr(unsafe.Pointer(lwork)))
		},
		args: func(h *cuHandles, b int, work uintptr, lwork int, dinfo uintptr) []uintptr {
			return []uintptr{h.solver, uintptr(a.rows), uintptr(a.cols), a.devAt(b), uintptr(a.ld),
				c.tau.devPtr() + uintptr(b*k*sizeOf[T]()), work, uintptr(lwork), dinfo}
		}}
}

// solverJob is a cuSOLVER routine called once per matrix, on the stream, with one workspace
// of the size its query answers (in elements of es bytes) and one device info word.
type solverJob struct {
	fn    *dl.Proc
	batch int
	es    int
	query func(h *cuHandles, lwork *int32) error
	args  func(h *cuHandles, b int, work uintptr, lwork int, dinfo uintptr) []uintptr
}

// parts asks the routine for its workspace and returns it with the carve parts: the info
// word and the workspace.
func (j solverJob) parts(q *Queue) (int32, []int, error) {
	var lwork int32
	err := vendorCall(q, func(h *cuHandles) error { return j.query(h, &lwork) })
	return lwork, []int{4, max(1, int(lwork)) * j.es}, err
}

// bytes is the workspace run leases; 0 when the query fails (run then reports the error).
func (j solverJob) bytes(q *Queue) int {
	_, parts, err := j.parts(q)
	if err != nil {
		return 0
	}
	return carveBytes(parts...)
}

func (j solverJob) run(q *Queue) error {
	lwork, parts, err := j.parts(q)
	if err != nil {
		return err
	}
	p, err := carve(q, parts...)
	if err != nil {
		return err
	}
	return vendorLoop(q, j.batch, j.fn, func(h *cuHandles, b int) []uintptr { return j.args(h, b, p[1], int(lwork), p[0]) })
}

func orgqrCUDAVendor[T Scalar]() family[orgqrCall[T]] {
	return family[orgqrCall[T]]{
		canRun: func(q *Queue, c *orgqrCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.a.rows, c.a.cols, c.a.batch, c.k)
		},
		bufferSize: func(q *Queue, c *orgqrCall[T]) int {
			if c.a.cols == 0 || c.a.batch == 0 {
				return 0
			}
			return orgqrJob(c).bytes(q)
		},
		launch: func(q *Queue, c *orgqrCall[T]) error {
			if c.a.cols == 0 || c.a.batch == 0 {
				return nil
			}
			return orgqrJob(c).run(q)
		},
	}
}

func orgqrJob[T Scalar](c *orgqrCall[T]) solverJob {
	a := c.a
	return solverJob{fn: cusolver.Orgqr[dtypeIndex[T]()], batch: a.batch, es: sizeOf[T](),
		query: func(h *cuHandles, lwork *int32) error {
			return cusolver.OrgqrBufferSize[dtypeIndex[T]()].Status(h.solver, uintptr(a.rows), uintptr(a.cols), uintptr(c.k),
				a.devPtr(), uintptr(a.ld), c.tau.devPtr(), uintptr(unsafe.Pointer(lwork)))
		},
		args: func(h *cuHandles, b int, work uintptr, lwork int, dinfo uintptr) []uintptr {
			return []uintptr{h.solver, uintptr(a.rows), uintptr(a.cols), uintptr(c.k), a.devAt(b), uintptr(a.ld),
				c.tau.devPtr() + uintptr(b*c.k*sizeOf[T]()), work, uintptr(lwork), dinfo}
		}}
}

func ormqrCUDAVendor[T Scalar]() family[ormqrCall[T]] {
	return family[ormqrCall[T]]{
		canRun: func(q *Queue, c *ormqrCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.c.ld, c.c.rows, c.c.cols, c.c.batch, c.k)
		},
		bufferSize: func(q *Queue, c *ormqrCall[T]) int {
			if c.c.rows == 0 || c.c.cols == 0 || c.c.batch == 0 {
				return 0
			}
			return ormqrJob(c).bytes(q)
		},
		launch: func(q *Queue, c *ormqrCall[T]) error {
			if c.c.rows == 0 || c.c.cols == 0 || c.c.batch == 0 {
				return nil
			}
			return ormqrJob(c).run(q)
		},
	}
}

func ormqrJob[T Scalar](c *ormqrCall[T]) solverJob {
	m, n := c.c.rows, c.c.cols
	side, op := cuSide(c.side), cuOpOf[T](c.trans)
	return solverJob{fn: cusolver.Ormqr[dtypeIndex[T]()], batch: c.c.batch, es: sizeOf[T](),
		query: func(h *cuHandles, lwork *int32) error {
			return cusolver.OrmqrBufferSize[dtypeIndex[T]()].Status(h.solver, side, op, uintptr(m), uintptr(n), uintptr(c.k),
				c.a.devPtr(), uintptr(c.a.ld), c.tau.devPtr(), c.c.devPtr(), uintptr(c.c.ld), uintptr(unsafe.Pointer(lwork)))
		},
		args: func(h *cuHandles, b int, work uintptr, lwork int, dinfo uintptr) []uintptr {
			return []uintptr{h.solver, side, op, uintptr(m), uintptr(n), uintptr(c.k), c.a.devAt(b), uintptr(c.a.ld),
				c.tau.devPtr() + uintptr(b*c.k*sizeOf[T]()), c.c.devAt(b), uintptr(c.c.ld), work, uintptr(lwork), dinfo}
		}}
}
