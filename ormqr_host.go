package batchlas

import "gonum.org/v1/gonum/blas"

// ormqrHost applies Q or Q^H to every matrix; see Ormqr for the kernel of each type.
func ormqrHost[T Scalar](_ *Queue, call *ormqrCall[T]) error {
	a, c, tau, k := call.a, call.c, call.tau.host(), call.k
	m, n := c.rows, c.cols
	if m == 0 || n == 0 || k == 0 {
		return nil
	}
	left, ctrans := call.side == Left, call.trans != NoTrans
	newKernel := ormqrKernel[T]()
	hostBatch(c.batch, func(lo, hi int) {
		f := newKernel()
		for b := lo; b < hi; b++ {
			f(left, ctrans, m, n, a.mat(b), a.ld, tau[b*k:(b+1)*k], c.mat(b), c.ld)
		}
	})
	return nil
}

// ormqrKernel returns a constructor of single-matrix kernels that apply Q = H_1 ... H_k,
// k = len(tau), or Q^H (ctrans) from the left or the right to the m-by-n c; each goroutine
// makes its own, since a kernel keeps scratch space.
func ormqrKernel[T Scalar]() func() func(left, ctrans bool, m, n int, a []T, lda int, tau, c []T, ldc int) {
	var k any
	switch any(*new(T)).(type) {
	case float64:
		k = newDormqr
	case float32:
		k = ormqrWidened[float32](newDormqr)
	case complex64:
		k = ormqrWidened[complex64](newZunm2r[complex128])
	case complex128:
		k = newZunm2r[complex128]
	}
	return k.(func() func(bool, bool, int, int, []T, int, []T, []T, int))
}

// ormqrWidened makes kernels for the narrow type N (float32, complex64) that run the wide
// kernel on copies of the reflectors, tau and C, as qrWidened.
func ormqrWidened[N, W Scalar](newWide func() func(bool, bool, int, int, []W, int, []W, []W, int)) func() func(bool, bool, int, int, []N, int, []N, []N, int) {
	return func() func(bool, bool, int, int, []N, int, []N, []N, int) {
		var wa, wc, t []W
		f := newWide()
		return func(left, ctrans bool, m, n int, a []N, lda int, tau, c []N, ldc int) {
			nq, k := n, len(tau)
			if left {
				nq = m
			}
			wa, wc, t = grow(wa, nq*k), grow(wc, m*n), grow(t, k)
			// Only the reflectors, below the diagonal, are read; the rest of a's block
			// is not the call's to read.
			for j := 0; j < k && j+1 < nq; j++ {
				convert(wa[j*nq+j+1:], nq, a[j*lda+j+1:], lda, nq-j-1, 1)
			}
			convert(wc, m, c, ldc, m, n)
			convert(t, k, tau, k, k, 1)
			f(left, ctrans, m, n, wa, nq, t, wc, m)
			convert(c, ldc, wc, m, m, n)
		}
	}
}

// newDormqr returns a float64 kernel with its own workspace. Read row-major, c is C^T and a
// holds the reflectors of an LQ factorization whose P = H_k ... H_1 is Q^T, so
// Q C = (C^T P)^T, Q^T C = (C^T P^T)^T, C Q = (P C^T)^T and C Q^T = (P^T C^T)^T: gonum's
// Dormlq on C^T from the other side with the same transposition.
func newDormqr() func(left, ctrans bool, m, n int, a []float64, lda int, tau, c []float64, ldc int) {
	var work []float64
	return func(left, ctrans bool, m, n int, a []float64, lda int, tau, c []float64, ldc int) {
		side, trans := blas.Left, blas.NoTrans
		if left {
			side = blas.Right
		}
		if ctrans {
			trans = blas.Trans
		}
		var size [1]float64
		lapackImpl.Dormlq(side, trans, n, m, len(tau), a, lda, tau, c, ldc, size[:], -1)
		work = grow(work, max(1, int(size[0])))
		lapackImpl.Dormlq(side, trans, n, m, len(tau), a, lda, tau, c, ldc, work, len(work))
	}
}

// newZunm2r returns LAPACK's unblocked complex zunm2r with its own scratch: the reflectors
// are applied one at a time, in the order that the product Q = H_1 ... H_k or
// Q^H = H_k^H ... H_1^H meets the side of c.
func newZunm2r[T Complex]() func(left, ctrans bool, m, n int, a []T, lda int, tau, c []T, ldc int) {
	var w []T
	return func(left, ctrans bool, m, n int, a []T, lda int, tau, c []T, ldc int) {
		k, nq := len(tau), n
		if left {
			nq = m
		} else {
			w = grow(w, m)
		}
		forward := left == ctrans
		for s := range k {
			i := s
			if !forward {
				i = k - 1 - s
			}
			t := tau[i]
			if ctrans {
				t = conj(t)
			}
			v1 := a[i*lda+i+1 : i*lda+nq]
			if !left {
				larfRight(t, v1, c[i*ldc:], ldc, m, w)
				continue
			}
			for j := range n {
				larfLeft(t, v1, c[j*ldc+i:j*ldc+m])
			}
		}
	}
}
