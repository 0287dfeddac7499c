//go:build cuda && !novendor

package batchlas

import (
	"errors"
	"unsafe"

	"github.com/batchlas/batchlas/internal/cu"
)

// syev on a CUDA queue: cusolverDn<t>syevjBatched (heevj for the complex types) where
// n <= 32, its limit, and cusolverDnXsyevBatched above. Both work on a packed copy W of the
// batch, so that with NoVectors nothing of a is written and with Vectors the eigenvectors
// are copied into a's layout (gaps untouched). A matrix holding NaN or Inf is then marked as
// the host family marks it (markNonfinite).
//
// XsyevBatched's workspace is not proportional to the data: seen on the H200, n = 3 and
// batch 65536 asked for 17.8 GB and then failed with status 7, and float64 n <= 4 failed with
// an internal error. It never gets n <= 32 here, and a call whose device workspace exceeds
// xsyevMaxWork runs cusolverDn<t>syevd once per matrix instead, on the same packed copy.

func syevCUDAVendor[T Scalar, R Real]() family[syevCall[T, R]] {
	return family[syevCall[T, R]]{
		canRun: func(q *Queue, c *syevCall[T, R]) bool {
			n := c.a.rows
			if !onCUDA(q) || !fitsInt(c.a.ld, n, c.a.batch, n*n*c.a.batch) {
				return false
			}
			return true
		},
		bufferSize: func(q *Queue, c *syevCall[T, R]) int {
			if c.a.rows == 0 || c.a.batch == 0 {
				return 0
			}
			_, parts, _, _, err := syevParts(q, c, syevAuto)
			if err != nil {
				return 0
			}
			return carveBytes(parts...)
		},
		launch: syevCUDA[T, R],
	}
}

// The routes of syevCUDA: cuSOLVER's batched Jacobi solver for n <= 32, XsyevBatched above
// while its workspace stays within xsyevMaxWork, and otherwise (its workspace explodes for
// some shapes) cusolverDn<t>syevd once per matrix on the stream. syevAuto picks among them
// as said; batchbench forces each one in turn (vendorref.Syev) to time every vendor route.
const (
	syevAuto = iota
	syevSyevj
	syevBatched
	syevLoop
)

// syevParts picks the route (route itself unless it is syevAuto) and its workspace (the
// packed copy, the solver's device workspace in bytes), with the solver's lwork in elements
// (Jacobi, loop) or XsyevBatched's host bytes.
func syevParts[T Scalar, R Real](q *Queue, c *syevCall[T, R], route int) (_ int, parts []int, lwork, hostWork int, err error) {
	n := c.a.rows
	auto := route == syevAuto
	if auto {
		route = syevBatched
		if n <= 32 {
			route = syevSyevj
		}
	}
	work := 0
	switch route {
	case syevSyevj:
		lwork, err = syevjWork(q, c)
		work = lwork * sizeOf[T]()
	case syevBatched:
		work, hostWork, err = xsyevWork(q, c)
		if auto && (err != nil || work > xsyevMaxWork(q, c)) {
			route = syevLoop
		}
	}
	if route == syevLoop {
		lwork, err = syevdWork(q, c)
		work = lwork * sizeOf[T]()
	}
	return route, []int{n * n * c.a.batch * sizeOf[T](), max(work, 1)}, lwork, hostWork, err
}

// syevdWork is cusolverDn<t>syevd's workspace for one packed n-by-n matrix, in elements.
func syevdWork[T Scalar, R Real](q *Queue, c *syevCall[T, R]) (int, error) {
	var lwork int32
	n := c.a.rows
	err := vendorCall(q, func(h *cuHandles) error {
		return cusolver.SyevdBufferSize[dtypeIndex[T]()].Status(h.solver, cuEig(c.jobz), cuFill(c.uplo), uintptr(n),
			c.a.devPtr(), uintptr(n), c.w.devPtr(), uintptr(unsafe.Pointer(&lwork)))
	})
	return int(lwork), err
}

// xsyevMaxWork bounds XsyevBatched's device workspace: half the device's memory. The bound
// was eight times the data plus 64 MiB, which every batch of 512 or 1024 matrices of n = 40
// to 128 passed on the H200, sending them to the per-matrix loop: 540 to 1230 ms where
// XsyevBatched itself took 1.4 to 11 ms (bench/results/sm_90/syev.jsonl, round 9).
func xsyevMaxWork[T Scalar, R Real](q *Queue, _ *syevCall[T, R]) int {
	return int(q.dev.Memory / 2)
}

// cudaDataType values of T and of its real type.
func cudaTypes[T Scalar]() (typ, real uintptr) {
	switch dtypeName[T]() {
	case "f32":
		return 0, 0
	case "f64":
		return 1, 1
	case "c64":
		return 4, 0
	}
	return 5, 1
}

// cuEig is cusolverEigMode_t.
func cuEig(j Job) uintptr {
	if j == Vectors {
		return 1
	}
	return 0
}

// xsyevWork asks cusolverDnXsyevBatched_bufferSize for the device and host workspace of c;
// the error of a cuSOLVER older than XsyevBatched (an optional binding) sends the auto
// route to the loop.
func xsyevWork[T Scalar, R Real](q *Queue, c *syevCall[T, R]) (dev, host int, err error) {
	var d, h uint64
	typ, rt := cudaTypes[T]()
	n := c.a.rows
	err = vendorCall(q, func(hd *cuHandles) error {
		return cusolver.XsyevBatchedBufferSize.Status(hd.solver, hd.params, cuEig(c.jobz), cuFill(c.uplo),
			uintptr(n), typ, c.a.devPtr(), uintptr(n), rt, c.w.devPtr(), typ,
			uintptr(unsafe.Pointer(&d)), uintptr(unsafe.Pointer(&h)), uintptr(c.a.batch))
	})
	return int(d), int(h), err
}

func syevCUDA[T Scalar, R Real](q *Queue, c *syevCall[T, R]) error {
	return syevCUDARoute(q, c, syevAuto)
}

// syevCUDARoute runs c on the vendor route given (syevAuto: syevParts' choice).
func syevCUDARoute[T Scalar, R Real](q *Queue, c *syevCall[T, R], route int) error {
	a, e := c.a, cudaOf(q)
	n, batch := a.rows, a.batch
	if batch == 0 {
		return nil
	}
	if n == 0 {
		return e.zero32(c.info.devPtr(), batch)
	}
	route, parts, lwork, hostWork, err := syevParts(q, c, route)
	if err != nil {
		return err
	}
	work := parts[1]
	p, err := carve(q, parts...)
	if err != nil {
		return err
	}
	if err := copyHermitian[T](e, p[0], a, c.uplo); err != nil {
		return err
	}
	switch route {
	case syevSyevj:
		err = vendorCall(q, func(h *cuHandles) error {
			return cusolver.SyevjBatched[dtypeIndex[T]()].Status(h.solver,
				cuEig(c.jobz), cuFill(c.uplo), uintptr(n), p[0], uintptr(n), c.w.devPtr(), p[1], uintptr(lwork),
				c.info.devPtr(), h.syevj, uintptr(batch))
		})
	case syevBatched:
		err = xsyevBatched(q, c, p[0], p[1], work, hostWork)
	default:
		err = vendorLoop(q, batch, cusolver.Syevd[dtypeIndex[T]()], func(h *cuHandles, b int) []uintptr {
			return []uintptr{h.solver, cuEig(c.jobz), cuFill(c.uplo), uintptr(n), p[0] + uintptr(b*n*n*sizeOf[T]()), uintptr(n),
				c.w.devPtr() + uintptr(b*n*sizeOf[R]()), p[1], uintptr(lwork), c.info.devPtr() + uintptr(4*b)}
		})
	}
	if err != nil {
		return err
	}
	vecs := uintptr(0)
	if c.jobz == Vectors {
		vecs = p[0]
	}
	if err := markNonfinite(q, c, vecs); err != nil || c.jobz == NoVectors {
		return err
	}
	return copyMat[T](e, a.devPtr(), a.ld, a.strd, p[0], n, n*n, n, n, batch, 0, 0)
}

// copyHermitian copies the Hermitian matrices whose uplo triangle a holds into the packed
// n-by-n matrices at dst, whole: the other triangle is the conjugate transpose of the uplo
// one, written first so that the uplo copy that follows leaves the diagonal as stored. Only
// a's uplo triangle is read. Seen on the H200, syevjBatched's eigenvalues depend, bit for
// bit, on what the workspace's other triangle holds (TestSharedStorage, float32 NoVectors),
// so the solver is given the whole matrix rather than a triangle and leftovers.
func copyHermitian[T Scalar](e *cudaEngine, dst uintptr, a *Matrix[T], uplo Uplo) error {
	n, other := a.rows, copyTri(Upper)
	if uplo == Upper {
		other = copyTri(Lower)
	}
	if err := copyMat[T](e, dst, n, n*n, a.devPtr(), a.ld, a.strd, n, n, a.batch, 0, other|copyTranspose|copyConj); err != nil {
		return err
	}
	return copyMat[T](e, dst, n, n*n, a.devPtr(), a.ld, a.strd, n, n, a.batch, 0, copyTri(uplo))
}

// markNonfinite gives every matrix whose uplo triangle holds NaN or Inf NaN eigenvalues (and
// NaN eigenvectors in the packed vecs, when not 0) and info n-1, as the host family does:
// seen on the H200, syevjBatched returns finite eigenvalues and info 0 for a matrix with a
// NaN in it.
func markNonfinite[T Scalar, R Real](q *Queue, c *syevCall[T, R], vecs uintptr) error {
	const warps = 4
	a := c.a
	lower := uintptr(0)
	if c.uplo == Lower {
		lower = 1
	}
	return cudaOf(q).launch("util", "nonfinite_mark_"+dtypeName[T](), dim3{(a.batch + warps - 1) / warps, 1, 1},
		dim3{32 * warps, 1, 1}, 0, a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.batch),
		lower, c.w.devPtr(), vecs, c.info.devPtr())
}

// syevjWork is syevjBatched's workspace in elements.
func syevjWork[T Scalar, R Real](q *Queue, c *syevCall[T, R]) (int, error) {
	var lwork int32
	n := c.a.rows
	err := vendorCall(q, func(h *cuHandles) error {
		return cusolver.SyevjBatchedBufferSize[dtypeIndex[T]()].Status(h.solver,
			cuEig(c.jobz), cuFill(c.uplo), uintptr(n), c.a.devPtr(), uintptr(n), c.w.devPtr(), uintptr(unsafe.Pointer(&lwork)),
			h.syevj, uintptr(c.a.batch))
	})
	return int(lwork), err
}

// xsyevBatched runs cusolverDnXsyevBatched on the packed copy at w. Its host workspace is
// pinned memory, freed once the stream has finished with it (one host synchronization).
func xsyevBatched[T Scalar, R Real](q *Queue, c *syevCall[T, R], w, work uintptr, workBytes, hostBytes int) error {
	typ, rt := cudaTypes[T]()
	n := c.a.rows
	e := cudaOf(q)
	var host uintptr
	if hostBytes > 0 {
		err := e.ex.Do(func() (err error) { host, err = cu.MemAllocHost(hostBytes); return err })
		if err != nil {
			return err
		}
	}
	err := vendorCall(q, func(h *cuHandles) error {
		return cusolver.XsyevBatched.Status(h.solver, h.params, cuEig(c.jobz), cuFill(c.uplo),
			uintptr(n), typ, w, uintptr(n), rt, c.w.devPtr(), typ, work, uintptr(workBytes), host, uintptr(hostBytes),
			c.info.devPtr(), uintptr(c.a.batch))
	})
	if host == 0 {
		return err
	}
	return errors.Join(err, e.ex.Do(func() error {
		if err := cu.StreamSynchronize(e.stream); err != nil {
			return err
		}
		return cu.MemFreeHost(host)
	}))
}
