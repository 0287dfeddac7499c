//go:build cuda && !novendor

package batchlas

import (
	"runtime"

	"github.com/batchlas/batchlas/internal/dl"
)

// symm, hemm, syrk, herk, syr2k and her2k on a CUDA queue: cuBLAS has no batched form of
// these, so each is a loop of single-matrix calls enqueued on the queue's stream (see
// vendorLoop), after BLAS's quick return (blasQuick). For real types hemm is symm, herk syrk
// and her2k syr2k (cu.BLAS's Hemm, Herk and Her2k name them so).

func symmFits[T Scalar](q *Queue, s *symmCall[T]) bool {
	return onCUDA(q) && fitsInt(s.a.ld, s.b.ld, s.c.ld, s.c.rows, s.c.cols)
}

func symmCUDAVendor[T Scalar]() family[symmCall[T]] {
	return family[symmCall[T]]{canRun: symmFits[T], launch: func(q *Queue, s *symmCall[T]) error { return symmLoop(q, s, cublas.Symm) }}
}

func hemmCUDAVendor[T Scalar]() family[hemmCall[T]] {
	return family[hemmCall[T]]{
		canRun: func(q *Queue, h *hemmCall[T]) bool { return symmFits(q, &h.symmCall) },
		launch: func(q *Queue, h *hemmCall[T]) error { return symmLoop(q, &h.symmCall, cublas.Hemm) },
	}
}

// symmLoop calls T's fn (cuBLAS's symm_v2 or hemm_v2) for each matrix; alpha = 0 is
// C = beta C, A and B unread.
func symmLoop[T Scalar](q *Queue, s *symmCall[T], fn dl.Procs) error {
	if done, err := blasQuick(q, s.alpha == 0, s.c, scaleAll, s.beta); done || s.c.rows == 0 || s.c.cols == 0 {
		return err
	}
	sc := scalars(s.alpha, s.beta)
	defer runtime.KeepAlive(sc)
	return vendorLoop(q, s.c.batch, fn[dtypeIndex[T]()], func(h *cuHandles, b int) []uintptr {
		return []uintptr{h.blas, cuSide(s.side), cuFill(s.uplo), uintptr(s.c.rows), uintptr(s.c.cols), sc.ptr(0),
			s.a.devAt(b), uintptr(s.a.ld), s.b.devAt(b), uintptr(s.b.ld), sc.ptr(1), s.c.devAt(b), uintptr(s.c.ld)}
	})
}

func rankFits[T Scalar](q *Queue, r *rankArgs[T]) bool {
	return onCUDA(q) && fitsInt(r.a.ld, r.b.ld, r.c.ld, r.c.rows, r.a.rows, r.a.cols)
}

func syrkCUDAVendor[T Scalar]() family[syrkCall[T]] {
	return family[syrkCall[T]]{
		canRun: func(q *Queue, s *syrkCall[T]) bool { return rankFits(q, &s.rankArgs) },
		launch: func(q *Queue, s *syrkCall[T]) error {
			return rankLoop(q, s.kernel(), cublas.Syrk, scalars(s.alpha, s.beta))
		},
	}
}

func herkCUDAVendor[T Scalar]() family[herkCall[T]] {
	return family[herkCall[T]]{
		canRun: func(q *Queue, h *herkCall[T]) bool { return rankFits(q, &h.rankArgs) },
		launch: func(q *Queue, h *herkCall[T]) error {
			return rankLoop(q, h.kernel(), cublas.Herk, realScalars[T](h.alpha, h.beta))
		},
	}
}

func syr2kCUDAVendor[T Scalar]() family[syr2kCall[T]] {
	return family[syr2kCall[T]]{
		canRun: func(q *Queue, s *syr2kCall[T]) bool { return rankFits(q, &s.rankArgs) },
		launch: func(q *Queue, s *syr2kCall[T]) error {
			return rankLoop(q, s.kernel(), cublas.Syr2k, scalars(s.alpha, s.beta))
		},
	}
}

func her2kCUDAVendor[T Scalar]() family[her2kCall[T]] {
	return family[her2kCall[T]]{
		canRun: func(q *Queue, h *her2kCall[T]) bool { return rankFits(q, &h.rankArgs) },
		launch: func(q *Queue, h *her2kCall[T]) error {
			if isComplex[T]() {
				sc := scalars(h.alpha, 0)
				copy(sc[1:], realScalars[T](h.beta))
				return rankLoop(q, h.kernel(), cublas.Her2k, sc)
			}
			return rankLoop(q, h.kernel(), cublas.Syr2k, scalars(h.alpha, scalarOf[T](h.beta, 0)))
		},
	}
}

// rankLoop calls T's fn for each matrix of the rank-k or rank-2k update rk (rk.two:
// fn takes b); sc holds alpha and beta as fn reads them. alpha = 0 or k = 0 is C = beta C
// on C's triangle, A and B unread. For the complex Hermitian updates, whose C has a real
// diagonal (the imaginary parts are taken as zero and must not be read), those imaginary
// parts are set to zero before cuBLAS reads C: cublasCher2k reads them (the footprint suite
// on an H200 found it); herk gets the same step, which costs one pass over the diagonal.
func rankLoop[T Scalar](q *Queue, rk rankKernel[T], fn dl.Procs, sc scalarBuf) error {
	r := rk.r
	n, k := r.order()
	herm := rk.herm && isComplex[T]()
	if done, err := blasQuick(q, rk.alpha == 0 || k == 0, r.c, scaleTri(r.uplo, herm), rk.beta); done || n == 0 {
		return err
	}
	if herm && rk.beta != 0 {
		if err := scaleMat(q, r.c, scaleLower|scaleUpper|scaleHerm, 1); err != nil {
			return err
		}
	}
	defer runtime.KeepAlive(sc)
	return vendorLoop(q, r.c.batch, fn[dtypeIndex[T]()], func(h *cuHandles, b int) []uintptr {
		args := []uintptr{h.blas, cuFill(r.uplo), cuOpOf[T](r.trans), uintptr(n), uintptr(k), sc.ptr(0), r.a.devAt(b), uintptr(r.a.ld)}
		if rk.two {
			args = append(args, r.b.devAt(b), uintptr(r.b.ld))
		}
		return append(args, sc.ptr(1), r.c.devAt(b), uintptr(r.c.ld))
	})
}
