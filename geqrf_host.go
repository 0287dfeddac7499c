package batchlas

// geqrfHost factors every matrix; see Geqrf for the kernel of each type.
func geqrfHost[T Scalar](_ *Queue, c *geqrfCall[T]) error {
	a, tau := c.a, c.tau.host()
	m, n := a.rows, a.cols
	k := min(m, n)
	if k == 0 {
		return nil
	}
	newKernel := geqrfKernel[T]()
	hostBatch(a.batch, func(lo, hi int) {
		f := newKernel()
		for b := lo; b < hi; b++ {
			f(m, n, a.mat(b), a.ld, tau[b*k:(b+1)*k])
		}
	})
	return nil
}

// geqrfKernel returns a constructor of single-matrix QR kernels; each goroutine makes its
// own, since a kernel keeps scratch space.
func geqrfKernel[T Scalar]() func() func(m, n int, a []T, lda int, tau []T) {
	z := func() func(int, int, []complex128, int, []complex128) { return zgeqr2[complex128] }
	var k any
	switch any(*new(T)).(type) {
	case float64:
		k = newDgeqrf
	case float32:
		k = qrWidened[float32](true, newDgeqrf)
	case complex64:
		k = qrWidened[complex64](true, z)
	case complex128:
		k = z
	}
	return k.(func() func(int, int, []T, int, []T))
}

// qrWidened makes kernels for the narrow type N (float32, complex64) of geqrf (factor:
// tau is written) or orgqr (tau is read) that run the wide kernel on a copy: Go evaluates
// complex64 products in float64 anyway, so this is faster as well as more accurate.
func qrWidened[N, W Scalar](factor bool, newWide func() func(int, int, []W, int, []W)) func() func(int, int, []N, int, []N) {
	return func() func(int, int, []N, int, []N) {
		var w, t []W
		f := newWide()
		return func(m, n int, a []N, lda int, tau []N) {
			ldw, k := max(1, m), len(tau)
			w, t = grow(w, ldw*n), grow(t, k)
			convert(w, ldw, a, lda, m, n)
			if !factor {
				convert(t, k, tau, k, k, 1)
			}
			f(m, n, w, ldw, t)
			convert(a, lda, w, ldw, m, n)
			if factor {
				convert(tau, k, t, k, k, 1)
			}
		}
	}
}

// newDgeqrf returns a float64 QR kernel with its own workspace. The column-major m-by-n A
// read row-major is the n-by-m A^T; gonum's LQ factorization of it, A^T = L P, stores P's
// reflectors along the rows of A^T, that is, down the columns of A, with the tau that
// Dgeqrf would give A: transposing, A = P^T L^T with P^T = H_1 ... H_k (real H_i are
// symmetric) and L^T upper trapezoidal.
func newDgeqrf() func(m, n int, a []float64, lda int, tau []float64) {
	var work []float64
	return func(m, n int, a []float64, lda int, tau []float64) {
		var size [1]float64
		lapackImpl.Dgelqf(n, m, a, lda, tau, size[:], -1)
		work = grow(work, max(1, int(size[0])))
		lapackImpl.Dgelqf(n, m, a, lda, tau, work, len(work))
	}
}

// zgeqr2 is LAPACK's unblocked complex Householder QR of one column-major m-by-n matrix
// with k = len(tau) = min(m, n): column i generates H_i, and H_i^H is applied to the
// columns on its right.
func zgeqr2[T Complex](m, n int, a []T, lda int, tau []T) {
	for i := range tau {
		col := a[i*lda+i : i*lda+m]
		beta, t := larfg(col[0], col[1:])
		col[0], tau[i] = T(complex(beta, 0)), t
		ct := conj(t)
		for j := i + 1; j < n; j++ {
			larfLeft(ct, col[1:], a[j*lda+i:j*lda+m])
		}
	}
}
