//go:build cuda && !novendor

package batchlas

import (
	"runtime"
	"unsafe"
)

// The BLAS ops on a CUDA queue: cuBLAS's strided-batched and pointer-array batched calls
// where they exist (gemm, gemv, trsm), and a loop of single-matrix calls on the queue's
// stream where cuBLAS has none (trmm, symm, hemm, syrk, herk, syr2k, her2k). A loop only
// enqueues; it never synchronizes the host. Every wrapper takes BLAS's quick return itself
// (blasQuick; scaleVector for gemv's y) before it calls cuBLAS.

func gemmCUDAVendor[T Scalar]() family[gemmCall[T]] {
	return family[gemmCall[T]]{
		canRun: func(q *Queue, g *gemmCall[T]) bool {
			return onCUDA(q) && fitsInt(g.a.ld, g.b.ld, g.c.ld, g.c.rows, g.c.cols, g.a.cols, g.a.rows, g.c.batch)
		},
		launch: gemmCUBLAS[T],
	}
}

// gemmCUBLAS calls cublas<t>gemmStridedBatched.
func gemmCUBLAS[T Scalar](q *Queue, g *gemmCall[T]) error {
	m, n, k := g.dims()
	if done, err := blasQuick(q, g.alpha == 0 || k == 0, g.c, scaleAll, g.beta); done || m == 0 || n == 0 || g.c.batch == 0 {
		return err
	}
	s := scalars(g.alpha, g.beta)
	defer runtime.KeepAlive(s)
	return vendorCall(q, func(h *cuHandles) error {
		return cublas.Gemm[dtypeIndex[T]()].Status(h.blas, cuOpOf[T](g.transA), cuOpOf[T](g.transB),
			uintptr(m), uintptr(n), uintptr(k), s.ptr(0),
			g.a.devPtr(), uintptr(g.a.ld), uintptr(g.a.strd), g.b.devPtr(), uintptr(g.b.ld), uintptr(g.b.strd),
			s.ptr(1), g.c.devPtr(), uintptr(g.c.ld), uintptr(g.c.strd), uintptr(g.c.batch))
	})
}

func gemvCUDAVendor[T Scalar]() family[gemvCall[T]] {
	return family[gemvCall[T]]{
		canRun: func(q *Queue, g *gemvCall[T]) bool {
			nx, ny := g.lens()
			return onCUDA(q) && fitsInt(g.a.ld, g.a.rows, g.a.cols, g.a.batch, ny*g.a.batch, nx, ny)
		},
		launch: gemvCUBLAS[T],
	}
}

// gemvCUBLAS calls cublas<t>gemvStridedBatched. alpha = 0 or an empty inner size is
// y = beta y (which BLAS's quick return would skip for nx = 0): y is then scaled (or zeroed)
// as one vector, x and A unread.
func gemvCUBLAS[T Scalar](q *Queue, g *gemvCall[T]) error {
	nx, ny := g.lens()
	if ny == 0 || g.a.batch == 0 {
		return nil
	}
	if g.alpha == 0 || nx == 0 {
		return scaleVector(q, g.beta, g.y.devPtr(), ny*g.a.batch)
	}
	s := scalars(g.alpha, g.beta)
	defer runtime.KeepAlive(s)
	return vendorCall(q, func(h *cuHandles) error {
		return cublas.Gemv[dtypeIndex[T]()].Status(h.blas, cuOpOf[T](g.trans),
			uintptr(g.a.rows), uintptr(g.a.cols), s.ptr(0), g.a.devPtr(), uintptr(g.a.ld), uintptr(g.a.strd),
			g.x.devPtr(), 1, uintptr(nx), s.ptr(1), g.y.devPtr(), 1, uintptr(ny), uintptr(g.a.batch))
	})
}

// scaleVector sets the n elements at y to beta y; beta 0 writes zeros (NaN in y does not
// survive), as BLAS's beta = 0 does, and beta 1 touches nothing, as BLAS's quick return.
func scaleVector[T Scalar](q *Queue, beta T, y uintptr, n int) error {
	switch beta {
	case 1:
		return nil
	case 0:
		return cudaOf(q).zero32(y, n*sizeOf[T]()/4)
	}
	s := scalars(beta)
	defer runtime.KeepAlive(s)
	return vendorCall(q, func(h *cuHandles) error {
		return cublas.Scal[dtypeIndex[T]()].Status(h.blas, uintptr(n), s.ptr(0), y, 1)
	})
}

// scaleTri is the scaleMat part of C's uplo triangle; herm makes it a Hermitian matrix's.
func scaleTri(uplo Uplo, herm bool) int {
	part := scaleUpper
	if uplo == Lower {
		part = scaleLower
	}
	if herm {
		part |= scaleHerm
	}
	return part
}

// blasQuick is BLAS's quick return, which every cuBLAS and cuSPARSE wrapper takes before it
// calls its library: when noProduct (alpha = 0, or an empty inner dimension), the part of c
// becomes beta c without A or B being read (beta 0 writes zeros, NaN in c does not survive;
// beta 1 touches nothing), and blasQuick reports done, so that the library is not called.
// cuBLAS multiplies by alpha = 0 in trsm, symm, hemm and the rank-k updates: NaN or Inf in
// A or B reaches C (the conformance suite on an H200 found it), so no wrapper relies on the
// library for this rule.
func blasQuick[T Scalar](q *Queue, noProduct bool, c *Matrix[T], part int, beta T) (done bool, err error) {
	if !noProduct {
		return false, nil
	}
	if beta == 1 {
		return true, nil
	}
	return true, scaleMat(q, c, part, beta)
}

func triFits[T Scalar](q *Queue, c *triCall[T]) bool {
	return onCUDA(q) && fitsInt(c.a.ld, c.b.ld, c.b.rows, c.b.cols, c.b.batch)
}

func trsmCUDAVendor[T Scalar]() family[trsmCall[T]] {
	return family[trsmCall[T]]{
		canRun:     func(q *Queue, c *trsmCall[T]) bool { return triFits(q, &c.triCall) },
		bufferSize: func(_ *Queue, c *trsmCall[T]) int { return ptrArraysBytes(c.b.batch, 2, 0) },
		launch:     trsmCUBLAS[T],
	}
}

// trsmCUBLAS calls cublas<t>trsmBatched, which reads device arrays of matrix pointers.
// alpha = 0 is B = 0, A and B unread.
func trsmCUBLAS[T Scalar](q *Queue, c *trsmCall[T]) error {
	if done, err := blasQuick(q, c.alpha == 0, c.b, scaleAll, 0); done || c.b.rows == 0 || c.b.cols == 0 || c.b.batch == 0 {
		return err
	}
	ptrs, _, err := ptrArrays(q, c.b.batch, 0, matArray(c.a), matArray(c.b))
	if err != nil {
		return err
	}
	s := scalars(c.alpha)
	defer runtime.KeepAlive(s)
	return vendorCall(q, func(h *cuHandles) error {
		return cublas.Trsm[dtypeIndex[T]()].Status(h.blas, cuSide(c.side), cuFill(c.uplo),
			cuOpOf[T](c.trans), cuDiag(c.diag), uintptr(c.b.rows), uintptr(c.b.cols), s.ptr(0),
			ptrs[0], uintptr(c.a.ld), ptrs[1], uintptr(c.b.ld), uintptr(c.b.batch))
	})
}

func trmmCUDAVendor[T Scalar]() family[trmmCall[T]] {
	return family[trmmCall[T]]{
		canRun: func(q *Queue, c *trmmCall[T]) bool { return triFits(q, &c.triCall) },
		launch: trmmCUBLAS[T],
	}
}

// trmmCUBLAS loops cublas<t>trmm_v2 (in place: C = B) over the batch on the stream; cuBLAS
// has no batched trmm. alpha = 0 is B = 0, A and B unread.
func trmmCUBLAS[T Scalar](q *Queue, c *trmmCall[T]) error {
	if done, err := blasQuick(q, c.alpha == 0, c.b, scaleAll, 0); done || c.b.rows == 0 || c.b.cols == 0 {
		return err
	}
	s := scalars(c.alpha)
	defer runtime.KeepAlive(s)
	return vendorLoop(q, c.b.batch, cublas.Trmm[dtypeIndex[T]()], func(h *cuHandles, b int) []uintptr {
		pa, pb := c.a.devAt(b), c.b.devAt(b)
		return []uintptr{h.blas, cuSide(c.side), cuFill(c.uplo), cuOpOf[T](c.trans), cuDiag(c.diag),
			uintptr(c.b.rows), uintptr(c.b.cols), s.ptr(0), pa, uintptr(c.a.ld), pb, uintptr(c.b.ld), pb, uintptr(c.b.ld)}
	})
}

// gelsCUDAVendor is cublas<t>gelsBatched, which solves least squares problems alone: trans
// NoTrans with m >= n. Its devInfoArray is Gels's info (the first zero on R's diagonal).
func gelsCUDAVendor[T Scalar]() family[gelsCall[T]] {
	return family[gelsCall[T]]{
		canRun: func(q *Queue, c *gelsCall[T]) bool {
			return onCUDA(q) && c.trans == NoTrans && c.a.rows >= c.a.cols &&
				fitsInt(c.a.ld, c.b.ld, c.a.rows, c.b.cols, c.a.batch)
		},
		bufferSize: func(_ *Queue, c *gelsCall[T]) int {
			if c.a.batch == 0 {
				return 0
			}
			return gelsCUBLASBytes(c)
		},
		launch: gelsCUBLAS[T],
	}
}

// gelsCUBLASBytes: the two pointer arrays, then m zeros for the quick return.
func gelsCUBLASBytes[T Scalar](c *gelsCall[T]) int {
	return ptrArraysBytes(c.a.batch, 2, c.b.rows*sizeOf[T]())
}

func gelsCUBLAS[T Scalar](q *Queue, c *gelsCall[T]) error {
	if c.a.batch == 0 {
		return nil
	}
	ptrs, zeros, err := ptrArrays(q, c.a.batch, c.b.rows*sizeOf[T](), matArray(c.a), matArray(c.b))
	if err != nil {
		return err
	}
	if c.trivial() {
		if err := zeroInfoCUDA(q, c.info, c.a.batch); err != nil || c.b.cols == 0 {
			return err
		}
		return gelsClearCUDA(q, c.b, zeros)
	}
	hostInfo := new(int32)
	fn := cublas.Gels[dtypeIndex[T]()]
	err = vendorCall(q, func(h *cuHandles) error {
		return fn.Status(h.blas, cuOp(NoTrans), uintptr(c.a.rows), uintptr(c.a.cols), uintptr(c.b.cols),
			ptrs[0], uintptr(c.a.ld), ptrs[1], uintptr(c.b.ld), uintptr(unsafe.Pointer(hostInfo)), c.info.devPtr(),
			uintptr(c.a.batch))
	})
	runtime.KeepAlive(hostInfo)
	if err != nil {
		return err
	}
	return hostInfoErr(fn.Name(), hostInfo)
}
