//go:build rocm && !novendor

package batchlas

import (
	"runtime"

	"github.com/batchlas/batchlas/internal/dl"
)

// trmm, symm, hemm, syrk, herk, syr2k and her2k on a ROCm queue: one rocBLAS strided-batched
// call each for the whole batch. Their quick returns are BLAS's own (alpha = 0 or k = 0 is
// C = beta C on what the op writes, A and B unread), which rocBLAS keeps, so only an empty
// C or batch is taken here. For real types hemm is symm, herk syrk and her2k syr2k
// (internal/hip's tables answer so).

func trmmROCm[T Scalar]() family[trmmCall[T]] {
	return rocmPart(func(c *trmmCall[T]) bool { return fitsInt(c.a.ld, c.b.ld, c.b.rows, c.b.cols, c.b.batch) }, nil, trmmRocBLAS[T])
}

// trmmRocBLAS calls rocblas_<t>trmm_strided_batched in place (C = B): B = alpha op(A) B or
// alpha B op(A).
func trmmRocBLAS[T Scalar](q *Queue, c *trmmCall[T]) error {
	b := c.b
	if b.rows == 0 || b.cols == 0 || b.batch == 0 {
		return nil
	}
	h, err := rocHandle(q)
	if err != nil {
		return err
	}
	s := scalars(c.alpha)
	defer runtime.KeepAlive(s)
	return rocBLAS.Trmm[dtypeIndex[T]()].Status(h, rocSide(c.side), rocFill(c.uplo), rocOp[T](c.trans), rocDiag(c.diag),
		uintptr(b.rows), uintptr(b.cols), s.ptr(0), c.a.devPtr(), uintptr(c.a.ld), uintptr(c.a.strd),
		b.devPtr(), uintptr(b.ld), uintptr(b.strd), b.devPtr(), uintptr(b.ld), uintptr(b.strd), uintptr(b.batch))
}

func symmROCmFits[T Scalar](s *symmCall[T]) bool {
	return fitsInt(s.a.ld, s.b.ld, s.c.ld, s.c.rows, s.c.cols, s.c.batch)
}

func symmROCm[T Scalar]() family[symmCall[T]] {
	return rocmPart(symmROCmFits[T], nil, func(q *Queue, s *symmCall[T]) error { return symmRocBLAS(q, s, rocBLAS.Symm) })
}

func hemmROCm[T Scalar]() family[hemmCall[T]] {
	return rocmPart(func(h *hemmCall[T]) bool { return symmROCmFits(&h.symmCall) }, nil,
		func(q *Queue, h *hemmCall[T]) error { return symmRocBLAS(q, &h.symmCall, rocBLAS.Hemm) })
}

// symmRocBLAS calls T's fn, rocblas_<t>symm_strided_batched or hemm's: C = alpha A B +
// beta C (Left) or alpha B A + beta C (Right), A symmetric (Hermitian) in its uplo triangle.
func symmRocBLAS[T Scalar](q *Queue, s *symmCall[T], fn dl.Procs) error {
	c := s.c
	if c.rows == 0 || c.cols == 0 || c.batch == 0 {
		return nil
	}
	h, err := rocHandle(q)
	if err != nil {
		return err
	}
	sc := scalars(s.alpha, s.beta)
	defer runtime.KeepAlive(sc)
	return fn[dtypeIndex[T]()].Status(h, rocSide(s.side), rocFill(s.uplo), uintptr(c.rows), uintptr(c.cols), sc.ptr(0),
		s.a.devPtr(), uintptr(s.a.ld), uintptr(s.a.strd), s.b.devPtr(), uintptr(s.b.ld), uintptr(s.b.strd),
		sc.ptr(1), c.devPtr(), uintptr(c.ld), uintptr(c.strd), uintptr(c.batch))
}

func rankROCmFits[T Scalar](r *rankArgs[T]) bool {
	return fitsInt(r.a.ld, r.b.ld, r.c.ld, r.c.rows, r.a.rows, r.a.cols, r.c.batch)
}

func syrkROCm[T Scalar]() family[syrkCall[T]] {
	return rocmPart(func(s *syrkCall[T]) bool { return rankROCmFits(&s.rankArgs) }, nil, func(q *Queue, s *syrkCall[T]) error {
		return rankRocBLAS(q, &s.rankArgs, rocBLAS.Syrk, false, scalars(s.alpha, s.beta))
	})
}

func herkROCm[T Scalar]() family[herkCall[T]] {
	return rocmPart(func(h *herkCall[T]) bool { return rankROCmFits(&h.rankArgs) }, nil, func(q *Queue, h *herkCall[T]) error {
		return rankRocBLAS(q, &h.rankArgs, rocBLAS.Herk, false, realScalars[T](h.alpha, h.beta))
	})
}

func syr2kROCm[T Scalar]() family[syr2kCall[T]] {
	return rocmPart(func(s *syr2kCall[T]) bool { return rankROCmFits(&s.rankArgs) }, nil, func(q *Queue, s *syr2kCall[T]) error {
		return rankRocBLAS(q, &s.rankArgs, rocBLAS.Syr2k, true, scalars(s.alpha, s.beta))
	})
}

// her2kROCm: rocblas_<t>her2k takes a complex alpha and a real beta; syr2k (for real types)
// two of T.
func her2kROCm[T Scalar]() family[her2kCall[T]] {
	return rocmPart(func(h *her2kCall[T]) bool { return rankROCmFits(&h.rankArgs) }, nil, func(q *Queue, h *her2kCall[T]) error {
		sc := scalars(h.alpha, scalarOf[T](h.beta, 0))
		if isComplex[T]() {
			copy(sc[1:], realScalars[T](h.beta))
		}
		return rankRocBLAS(q, &h.rankArgs, rocBLAS.Her2k, true, sc)
	})
}

// rankRocBLAS calls T's fn, rocblas_<t>{syrk,herk,syr2k,her2k}_strided_batched (two: a
// rank-2k one, which reads r.b), with alpha and beta in sc as the routine reads them: C's
// uplo triangle = alpha op(A) op(A)^T (or ^H, or the two-term sum) + beta C.
func rankRocBLAS[T Scalar](q *Queue, r *rankArgs[T], fn dl.Procs, two bool, sc scalarBuf) error {
	n, k := r.order()
	if n == 0 || r.c.batch == 0 {
		return nil
	}
	h, err := rocHandle(q)
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(sc)
	args := []uintptr{h, rocFill(r.uplo), rocOp[T](r.trans), uintptr(n), uintptr(k), sc.ptr(0),
		r.a.devPtr(), uintptr(r.a.ld), uintptr(r.a.strd)}
	if two {
		args = append(args, r.b.devPtr(), uintptr(r.b.ld), uintptr(r.b.strd))
	}
	return fn[dtypeIndex[T]()].Status(append(args, sc.ptr(1), r.c.devPtr(), uintptr(r.c.ld), uintptr(r.c.strd), uintptr(r.c.batch))...)
}
