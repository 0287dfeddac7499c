//go:build cuda && !novendor

package batchlas

import (
	"runtime"
	"unsafe"
)

// The LU and Cholesky solvers on a CUDA queue. Square getrf, getrs and getri use cuBLAS's
// batched LU calls, rectangular getrf a loop of cusolverDn<t>getrf; potrs is
// cusolverDn<t>potrsBatched once per right-hand side (it takes nrhs = 1 only). gesv and posv
// chain the factorization and the solve, and put back B_b for each matrix whose
// factorization failed, which LAPACK leaves unsolved.
//
// Seen on the H200: cublas<t>getrfBatched stops at an exactly zero pivot, where LAPACK
// completes the factorization (the other columns are still eliminated). So square getrf
// keeps a packed copy of A, reads info back (one host synchronization per call, never per
// matrix) and refactors the singular matrices from that copy with cusolverDn<t>getrf,
// which completes it as LAPACK does.

func getrfCUDAVendor[T Scalar]() family[getrfCall[T]] {
	return family[getrfCall[T]]{
		canRun: func(q *Queue, c *getrfCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.a.rows, c.a.cols, c.a.batch)
		},
		bufferSize: func(q *Queue, c *getrfCall[T]) int {
			lwork, _ := getrfWork[T](q, c.a)
			if c.a.rows == c.a.cols {
				return carveBytes(luParts(c.a, lwork)...)
			}
			return carveBytes(lwork)
		},
		launch: getrfCUDA[T],
	}
}

func getrfCUDA[T Scalar](q *Queue, c *getrfCall[T]) error {
	a, e := c.a, cudaOf(q)
	if a.batch == 0 {
		return nil
	}
	if a.rows == 0 || a.cols == 0 {
		return e.zero32(c.info.devPtr(), a.batch)
	}
	if a.rows != a.cols {
		return getrfLoop(q, c)
	}
	lwork, err := getrfWork[T](q, a)
	if err != nil {
		return err
	}
	p, err := carve(q, luParts(a, lwork)...)
	if err != nil {
		return err
	}
	return getrfSquare(q, a, p, c.ipiv.devPtr(), c.info.devPtr())
}

// luParts is the workspace of getrfSquare: the pointer array, the packed copy of A,
// cusolverDn<t>getrf's workspace of lwork bytes and the diagonals of the factors.
func luParts[T Scalar](a *Matrix[T], lwork int) []int {
	return []int{8 * a.batch, a.rows * a.rows * a.batch * sizeOf[T](), lwork, a.rows * a.batch * sizeOf[T]()}
}

// getrfSquare factors the square matrices of a with cublas<t>getrfBatched, refactors those
// with a zero pivot with cusolverDn<t>getrf, and refactors the ones still failed on the host (luRescue);
// p holds luParts.
func getrfSquare[T Scalar](q *Queue, a *Matrix[T], p []uintptr, ipiv, info uintptr) error {
	e, n := cudaOf(q), a.rows
	if err := copyMat[T](e, p[1], n, n*n, a.devPtr(), a.ld, a.strd, n, n, a.batch, 0, 0); err != nil {
		return err
	}
	if err := getrfBatched(q, a, p[0], ipiv, info); err != nil {
		return err
	}
	failed, err := getrfFailed(q, a, p[3], info)
	if err != nil || len(failed) == 0 {
		return err
	}
	if err := copyMat[T](e, a.devPtr(), a.ld, a.strd, p[1], n, n*n, n, n, a.batch, info, copyIfFailed); err != nil {
		return err
	}
	err = vendorLoop(q, len(failed), cusolver.Getrf[dtypeIndex[T]()], func(h *cuHandles, i int) []uintptr {
		b := failed[i]
		return []uintptr{h.solver, uintptr(n), uintptr(n), a.devAt(b), uintptr(a.ld), p[2],
			ipiv + uintptr(4*n*b), info + uintptr(4*b)}
	})
	if err != nil {
		return err
	}
	if failed, err = getrfFailed(q, a, p[3], info); err != nil || len(failed) == 0 {
		return err
	}
	return luRescue(cudaOf(q), a, p[1], n, n*n, ipiv, info, failed)
}

// getrfFailed copies the diagonal of every U into diag (n per matrix) and lists the failed
// matrices (luFailed, getrf_rescue.go).
func getrfFailed[T Scalar](q *Queue, a *Matrix[T], diag, info uintptr) ([]int, error) {
	e, n := cudaOf(q), a.rows
	if err := copyMat[T](e, diag, 1, n, a.devPtr(), a.ld+1, a.strd, 1, n, a.batch, 0, 0); err != nil {
		return nil, err
	}
	return luFailed[T](e, a.batch, n, info, diag)
}

// getrfBatched factors the square matrices of a with cublas<t>getrfBatched, through the
// pointer array ptrs it fills.
func getrfBatched[T Scalar](q *Queue, a *Matrix[T], ptrs, ipiv, info uintptr) error {
	if err := cudaOf(q).ptrArray(ptrs, a.devPtr(), a.strd*sizeOf[T](), a.batch); err != nil {
		return err
	}
	return vendorCall(q, func(h *cuHandles) error {
		return cublas.Getrf[dtypeIndex[T]()].Status(h.blas, uintptr(a.rows), ptrs, uintptr(a.ld),
			ipiv, info, uintptr(a.batch))
	})
}

// getrfWork is cusolverDn<t>getrf's workspace for one matrix of a, in bytes.
func getrfWork[T Scalar](q *Queue, a *Matrix[T]) (int, error) {
	var lwork int32
	err := vendorCall(q, func(h *cuHandles) error {
		return cusolver.GetrfBufferSize[dtypeIndex[T]()].Status(h.solver, uintptr(a.rows), uintptr(a.cols),
			a.devPtr(), uintptr(a.ld), uintptr(unsafe.Pointer(&lwork)))
	})
	return int(lwork) * sizeOf[T](), err
}

// getrfLoop factors rectangular matrices one by one with cusolverDn<t>getrf.
func getrfLoop[T Scalar](q *Queue, c *getrfCall[T]) error {
	a := c.a
	lwork, err := getrfWork[T](q, a)
	if err != nil {
		return err
	}
	p, err := carve(q, lwork)
	if err != nil {
		return err
	}
	k := min(a.rows, a.cols)
	return vendorLoop(q, a.batch, cusolver.Getrf[dtypeIndex[T]()], func(h *cuHandles, b int) []uintptr {
		return []uintptr{h.solver, uintptr(a.rows), uintptr(a.cols), a.devAt(b), uintptr(a.ld), p[0],
			c.ipiv.devPtr() + uintptr(4*k*b), c.info.devPtr() + uintptr(4*b)}
	})
}

func getrsCUDAVendor[T Scalar]() family[getrsCall[T]] {
	return family[getrsCall[T]]{
		canRun: func(q *Queue, c *getrsCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.b.ld, c.b.rows, c.b.cols, c.b.batch)
		},
		bufferSize: func(_ *Queue, c *getrsCall[T]) int { return carveBytes(8*c.b.batch, 8*c.b.batch) },
		launch: func(q *Queue, c *getrsCall[T]) error {
			if c.b.rows == 0 || c.b.cols == 0 || c.b.batch == 0 {
				return nil
			}
			p, err := carve(q, 8*c.b.batch, 8*c.b.batch)
			if err != nil {
				return err
			}
			if err := cudaOf(q).ptrArray(p[0], c.a.devPtr(), c.a.strd*sizeOf[T](), c.a.batch); err != nil {
				return err
			}
			return getrsBatched(q, c.trans, c.a, p[0], c.ipiv.devPtr(), c.b, p[1])
		},
	}
}

// getrsBatched solves with cublas<t>getrsBatched; aptrs already holds a's pointers, bptrs
// is filled here.
func getrsBatched[T Scalar](q *Queue, trans Transpose, a *Matrix[T], aptrs, ipiv uintptr, b *Matrix[T], bptrs uintptr) error {
	if err := cudaOf(q).ptrArray(bptrs, b.devPtr(), b.strd*sizeOf[T](), b.batch); err != nil {
		return err
	}
	info := new(int32)
	fn := cublas.Getrs[dtypeIndex[T]()]
	err := vendorCall(q, func(h *cuHandles) error {
		return fn.Status(h.blas, cuOpOf[T](trans), uintptr(b.rows), uintptr(b.cols), aptrs, uintptr(a.ld), ipiv,
			bptrs, uintptr(b.ld), uintptr(unsafe.Pointer(info)), uintptr(b.batch))
	})
	runtime.KeepAlive(info)
	if err != nil {
		return err
	}
	return hostInfoErr(fn.Name(), info)
}

func gesvCUDAVendor[T Scalar]() family[gesvCall[T]] {
	return family[gesvCall[T]]{
		canRun: func(q *Queue, c *gesvCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.b.ld, c.b.rows, c.b.cols, c.b.batch)
		},
		bufferSize: func(q *Queue, c *gesvCall[T]) int { return carveBytes(8*c.b.batch, 8*c.b.batch, packedBytes(c.b)) },
		launch:     gesvCUDA[T],
	}
}

// gesvCUDA solves with the factors that Getrf's routing left in a (see gesvFamilies), through
// cublas<t>getrsBatched, and puts back B_b where U_b is singular.
func gesvCUDA[T Scalar](q *Queue, c *gesvCall[T]) error {
	a, b := c.a, c.b
	if a.batch == 0 || a.rows == 0 {
		return nil
	}
	p, err := carve(q, 8*b.batch, 8*b.batch, packedBytes(b))
	if err != nil {
		return err
	}
	if err := cudaOf(q).ptrArray(p[0], a.devPtr(), a.strd*sizeOf[T](), a.batch); err != nil {
		return err
	}
	return solveKeepingFailed(q, b, p[2], c.info.devPtr(), func() error {
		return getrsBatched(q, NoTrans, a, p[0], c.ipiv.devPtr(), b, p[1])
	})
}

func getriCUDAVendor[T Scalar]() family[getriCall[T]] {
	return family[getriCall[T]]{
		canRun: func(q *Queue, c *getriCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.a.rows, c.a.batch)
		},
		bufferSize: func(_ *Queue, c *getriCall[T]) int { return carveBytes(getriParts(c.a)...) },
		launch:     getriCUDA[T],
	}
}

// getriParts: pointer arrays for A and the inverse, and the packed inverses.
func getriParts[T Scalar](a *Matrix[T]) []int {
	return []int{8 * a.batch, 8 * a.batch, a.rows * a.rows * a.batch * sizeOf[T]()}
}

// getriCUDA inverts out of place with cublas<t>getriBatched into packed workspace, then
// copies back the inverses of the matrices whose info is 0 (the others keep their factors).
func getriCUDA[T Scalar](q *Queue, c *getriCall[T]) error {
	a, e := c.a, cudaOf(q)
	n := a.rows
	if a.batch == 0 {
		return nil
	}
	if n == 0 {
		return e.zero32(c.info.devPtr(), a.batch)
	}
	p, err := carve(q, getriParts(a)...)
	if err != nil {
		return err
	}
	if err := e.ptrArray(p[0], a.devPtr(), a.strd*sizeOf[T](), a.batch); err != nil {
		return err
	}
	if err := e.ptrArray(p[1], p[2], n*n*sizeOf[T](), a.batch); err != nil {
		return err
	}
	err = vendorCall(q, func(h *cuHandles) error {
		return cublas.Getri[dtypeIndex[T]()].Status(h.blas, uintptr(n), p[0], uintptr(a.ld),
			c.ipiv.devPtr(), p[1], uintptr(n), c.info.devPtr(), uintptr(a.batch))
	})
	if err != nil {
		return err
	}
	return copyMat[T](e, a.devPtr(), a.ld, a.strd, p[2], n, n*n, n, n, a.batch, c.info.devPtr(), copyIfOK)
}

func potrsCUDAVendor[T Scalar]() family[potrsCall[T]] {
	return family[potrsCall[T]]{
		canRun: func(q *Queue, c *potrsCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.b.ld, c.b.rows, c.b.cols, c.b.batch)
		},
		bufferSize: func(_ *Queue, c *potrsCall[T]) int { return carveBytes(potrsParts(c.a)...) },
		launch: func(q *Queue, c *potrsCall[T]) error {
			if c.b.rows == 0 || c.b.cols == 0 || c.b.batch == 0 {
				return nil
			}
			p, err := carve(q, potrsParts(c.a)...)
			if err != nil {
				return err
			}
			return factorCopy(q, c.uplo, c.a, p[3], func() error {
				return potrsLower(q, c.a.rows, p[3], p[0], c.b, p[1], p[2])
			})
		},
	}
}

// potrsParts: pointer arrays for the factor and B, the device info word, and the packed
// workspace copy W of the factor (potrsBatched writes the triangle it should not read).
func potrsParts[T Scalar](a *Matrix[T]) []int {
	return []int{8 * a.batch, 8 * a.batch, 4, a.rows * a.rows * a.batch * sizeOf[T]()}
}

// factorCopy copies the factor in the uplo triangle of a into the lower triangle of the
// packed workspace w as a lower factor (for Upper, w = A^H) and runs f on w; the other
// triangle of a is neither read nor written.
func factorCopy[T Scalar](q *Queue, uplo Uplo, a *Matrix[T], w uintptr, f func() error) error {
	if uplo == Upper {
		return viaAdjoint(q, a, w, false, f)
	}
	if err := copyMat[T](cudaOf(q), w, a.rows, a.rows*a.rows, a.devPtr(), a.ld, a.strd, a.rows, a.rows, a.batch, 0, copyLower); err != nil {
		return err
	}
	return f()
}

// potrsLower solves with the packed lower factors at w (n-by-n, stride n*n) column by
// column with cusolverDn<t>potrsBatched, which takes one right-hand side; aptrs and bptrs
// are pointer arrays it fills, dinfo the call's device info word.
func potrsLower[T Scalar](q *Queue, n int, w, aptrs uintptr, b *Matrix[T], bptrs, dinfo uintptr) error {
	es, e := sizeOf[T](), cudaOf(q)
	if err := e.ptrArray(aptrs, w, n*n*es, b.batch); err != nil {
		return err
	}
	for j := 0; j < b.cols; j++ {
		if err := e.ptrArray(bptrs, b.devPtr()+uintptr(j*b.ld*es), b.strd*es, b.batch); err != nil {
			return err
		}
		err := vendorCall(q, func(h *cuHandles) error {
			return cusolver.PotrsBatched[dtypeIndex[T]()].Status(h.solver, cuFill(Lower), uintptr(n), 1,
				aptrs, uintptr(n), bptrs, uintptr(b.ld), dinfo, uintptr(b.batch))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func posvCUDAVendor[T Scalar]() family[posvCall[T]] {
	return family[posvCall[T]]{
		canRun: func(q *Queue, c *posvCall[T]) bool {
			return onCUDA(q) && fitsInt(c.a.ld, c.b.ld, c.b.rows, c.b.cols, c.b.batch)
		},
		bufferSize: func(_ *Queue, c *posvCall[T]) int {
			return carveBytes(append(potrsParts(c.a), packedBytes(c.b))...)
		},
		launch: posvCUDA[T],
	}
}

// posvCUDA solves with the factor that Potrf's routing left in a (see posvFamilies), through
// potrsBatched on its packed lower form W (see factorCopy), and puts back B_b where the
// factorization failed.
func posvCUDA[T Scalar](q *Queue, c *posvCall[T]) error {
	a, b := c.a, c.b
	if a.batch == 0 || a.rows == 0 {
		return nil
	}
	p, err := carve(q, append(potrsParts(a), packedBytes(b))...)
	if err != nil {
		return err
	}
	return solveKeepingFailed(q, b, p[4], c.info.devPtr(), func() error {
		return factorCopy(q, c.uplo, a, p[3], func() error {
			return potrsLower(q, a.rows, p[3], p[0], b, p[1], p[2])
		})
	})
}
