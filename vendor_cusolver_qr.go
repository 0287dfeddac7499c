//go:build cuda && !novendor

package batchlas

import (
	"runtime"
	"unsafe"
)

// QR on a CUDA queue. geqrf with m >= n is one cublas<t>geqrfBatched over the whole batch;
// seen on the H200, it returns NaN tau for matrices scaled near overflow or underflow
// (1e+36 in float32, 1e+300 in float64: its norms are not scaled as LAPACK's are), which
// the conformance suite checks. So geqrf keeps a packed copy of A, marks the matrices whose
// factor or tau came out with NaN or Inf from a finite input (one kernel pass and one small
// download: one host synchronization per call, never per matrix), and refactors exactly
// those from the copy with cuSOLVER's single-matrix geqrf, which is right there. A matrix
// whose input holds NaN or Inf keeps the batched call's NaN. geqrf with m < n, orgqr/ungqr
// and ormqr/unmqr are loops of cuSOLVER's single-matrix routines, enqueued on the stream
// with one shared workspace.

func geqrfCUDAVendor[T Scalar]() family[geqrfCall[T]] {
	return family[geqrfCall[T]]{
		canRun: func(q *Queue, c *geqrfCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.a.rows, c.a.cols, c.a.batch)
		},
		bufferSize: func(q *Queue, c *geqrfCall[T]) int {
			if min(c.a.rows, c.a.cols) == 0 || c.a.batch == 0 {
				return 0
			}
			_, parts, err := geqrfJob(c).parts(q)
			if err != nil {
				return 0
			}
			return carveBytes(append(parts, geqrfBatchedParts(c)...)...)
		},
		launch: geqrfCUDA[T],
	}
}

// geqrfBatchedParts is the workspace that geqrfBatched needs beyond cuSOLVER's: the pointer
// arrays for A and tau, the packed copy of A and one flag per matrix; none for m < n, which
// runs cuSOLVER's loop alone.
func geqrfBatchedParts[T Scalar](c *geqrfCall[T]) []int {
	a := c.a
	if a.rows < a.cols {
		return nil
	}
	return []int{8 * a.batch, 8 * a.batch, a.rows * a.cols * a.batch * sizeOf[T](), 4 * a.batch}
}

func geqrfCUDA[T Scalar](q *Queue, c *geqrfCall[T]) error {
	a := c.a
	if min(a.rows, a.cols) == 0 || a.batch == 0 {
		return nil
	}
	j := geqrfJob(c)
	lwork, parts, err := j.parts(q)
	if err != nil {
		return err
	}
	p, err := carve(q, append(parts, geqrfBatchedParts(c)...)...)
	if err != nil {
		return err
	}
	if a.rows < a.cols {
		return j.loop(q, p, lwork, nil)
	}
	redo, err := geqrfBatched(q, c, p[2:])
	if err != nil || len(redo) == 0 {
		return err
	}
	// Put back the input of the matrices to refactor (p[5] flags them, p[4] holds the copy).
	m, n := a.rows, a.cols
	if err := copyMat[T](cudaOf(q), a.devPtr(), a.ld, a.strd, p[4], m, m*n, m, n, a.batch, p[5], copyIfFailed); err != nil {
		return err
	}
	return j.loop(q, p, lwork, redo)
}

// geqrfBatched factors the matrices of c (m >= n) with one cublas<t>geqrfBatched and returns
// the ones to refactor: those whose factor or tau holds NaN or Inf although their input did
// not. p holds geqrfBatchedParts; the packed copy keeps the input, and the flags (int32 per
// matrix, nonzero to refactor) stay on the device.
func geqrfBatched[T Scalar](q *Queue, c *geqrfCall[T], p []uintptr) ([]int, error) {
	a, e, es := c.a, cudaOf(q), sizeOf[T]()
	m, n := a.rows, a.cols
	if err := copyMat[T](e, p[2], m, m*n, a.devPtr(), a.ld, a.strd, m, n, a.batch, 0, 0); err != nil {
		return nil, err
	}
	if err := e.ptrArray(p[0], a.devPtr(), a.strd*es, a.batch); err != nil {
		return nil, err
	}
	if err := e.ptrArray(p[1], c.tau.devPtr(), n*es, a.batch); err != nil {
		return nil, err
	}
	info := new(int32)
	fn := "cublas" + blasPrefix[T]() + "geqrfBatched"
	err := vendorCall(q, func(h *cuHandles) error {
		return cublasLib.check(fn, h.blas, uintptr(m), uintptr(n), p[0], uintptr(a.ld), p[1],
			uintptr(unsafe.Pointer(info)), uintptr(a.batch))
	})
	runtime.KeepAlive(info)
	if err != nil {
		return nil, err
	}
	if err := hostInfoErr(fn, info); err != nil {
		return nil, err
	}
	const warps = 4
	err = e.launch("util", "nonfinite_new_"+dtypeName[T](), dim3{(a.batch + warps - 1) / warps, 1, 1}, dim3{32 * warps, 1, 1}, 0,
		p[2], uintptr(m), uintptr(m*n), a.devPtr(), uintptr(a.ld), uintptr(a.strd), c.tau.devPtr(), uintptr(n),
		uintptr(m), uintptr(n), uintptr(a.batch), p[3])
	if err != nil {
		return nil, err
	}
	flags := make([]int32, a.batch)
	if err := e.download(byteView(flags), p[3]); err != nil {
		return nil, err
	}
	var redo []int
	for b, f := range flags {
		if f != 0 {
			redo = append(redo, b)
		}
	}
	return redo, nil
}

func geqrfJob[T Scalar](c *geqrfCall[T]) solverJob {
	a, k := c.a, min(c.a.rows, c.a.cols)
	fn := "cusolverDn" + blasPrefix[T]() + "geqrf"
	return solverJob{fn: fn, batch: a.batch, es: sizeOf[T](),
		query: func(h *cuHandles, lwork *int32) error {
			return solverLib.check(fn+"_bufferSize", h.solver, uintptr(a.rows), uintptr(a.cols),
				a.devPtr(), uintptr(a.ld), uintptr(unsafe.Pointer(lwork)))
		},
		args: func(h *cuHandles, b int, work uintptr, lwork int, dinfo uintptr) []uintptr {
			return []uintptr{h.solver, uintptr(a.rows), uintptr(a.cols), at(a, b), uintptr(a.ld),
				c.tau.devPtr() + uintptr(b*k*sizeOf[T]()), work, uintptr(lwork), dinfo}
		}}
}

// solverJob is a cuSOLVER routine called once per matrix, on the stream, with one workspace
// of the size its query answers (in elements of es bytes) and one device info word.
type solverJob struct {
	fn    string
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
	return j.loop(q, p, lwork, nil)
}

// loop calls the routine for the matrices listed in bs, or for every matrix when bs is nil,
// with the info word p[0] and the workspace p[1] of lwork elements.
func (j solverJob) loop(q *Queue, p []uintptr, lwork int32, bs []int) error {
	count, pick := j.batch, func(i int) int { return i }
	if bs != nil {
		count, pick = len(bs), func(i int) int { return bs[i] }
	}
	return vendorLoop(q, count, j.fn, func(h *cuHandles, i int) []uintptr { return j.args(h, pick(i), p[1], int(lwork), p[0]) })
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
	fn := "cusolverDn" + blasPrefix[T]() + qrName[T]("orgqr", "ungqr")
	return solverJob{fn: fn, batch: a.batch, es: sizeOf[T](),
		query: func(h *cuHandles, lwork *int32) error {
			return solverLib.check(fn+"_bufferSize", h.solver, uintptr(a.rows), uintptr(a.cols), uintptr(c.k),
				a.devPtr(), uintptr(a.ld), c.tau.devPtr(), uintptr(unsafe.Pointer(lwork)))
		},
		args: func(h *cuHandles, b int, work uintptr, lwork int, dinfo uintptr) []uintptr {
			return []uintptr{h.solver, uintptr(a.rows), uintptr(a.cols), uintptr(c.k), at(a, b), uintptr(a.ld),
				c.tau.devPtr() + uintptr(b*c.k*sizeOf[T]()), work, uintptr(lwork), dinfo}
		}}
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
	fn := "cusolverDn" + blasPrefix[T]() + qrName[T]("ormqr", "unmqr")
	side, op := cuSide(c.side), cuOpOf[T](c.trans)
	return solverJob{fn: fn, batch: c.c.batch, es: sizeOf[T](),
		query: func(h *cuHandles, lwork *int32) error {
			return solverLib.check(fn+"_bufferSize", h.solver, side, op, uintptr(m), uintptr(n), uintptr(c.k),
				c.a.devPtr(), uintptr(c.a.ld), c.tau.devPtr(), c.c.devPtr(), uintptr(c.c.ld), uintptr(unsafe.Pointer(lwork)))
		},
		args: func(h *cuHandles, b int, work uintptr, lwork int, dinfo uintptr) []uintptr {
			return []uintptr{h.solver, side, op, uintptr(m), uintptr(n), uintptr(c.k), at(c.a, b), uintptr(c.a.ld),
				c.tau.devPtr() + uintptr(b*c.k*sizeOf[T]()), at(c.c, b), uintptr(c.c.ld), work, uintptr(lwork), dinfo}
		}}
}
