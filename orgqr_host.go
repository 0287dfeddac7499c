package batchlas

// orgqrHost forms every Q; see Orgqr for the kernel of each type.
func orgqrHost[T Scalar](_ *Queue, c *orgqrCall[T]) error {
	a, tau, k := c.a, c.tau.host(), c.k
	m, n := a.rows, a.cols
	if n == 0 {
		return nil
	}
	newKernel := orgqrKernel[T]()
	hostBatch(a.batch, func(lo, hi int) {
		f := newKernel()
		for b := lo; b < hi; b++ {
			f(m, n, a.mat(b), a.ld, tau[b*k:(b+1)*k])
		}
	})
	return nil
}

// orgqrKernel returns a constructor of single-matrix kernels that form Q from len(tau)
// reflectors; each goroutine makes its own, since a kernel keeps scratch space.
func orgqrKernel[T Scalar]() func() func(m, n int, a []T, lda int, tau []T) {
	z := func() func(int, int, []complex128, int, []complex128) { return zung2r[complex128] }
	var k any
	switch any(*new(T)).(type) {
	case float64:
		k = newDorgqr
	case float32:
		k = qrWidened[float32](false, newDorgqr)
	case complex64:
		k = qrWidened[complex64](false, z)
	case complex128:
		k = z
	}
	return k.(func() func(int, int, []T, int, []T))
}

// newDorgqr returns a float64 kernel with its own workspace. It calls gonum's Dorglq on
// A^T (A read row-major): Dorglq forms the first n rows of P = H_k ... H_1, whose transpose
// is the first n columns of Q = H_1 ... H_k.
func newDorgqr() func(m, n int, a []float64, lda int, tau []float64) {
	var work []float64
	return func(m, n int, a []float64, lda int, tau []float64) {
		var size [1]float64
		lapackImpl.Dorglq(n, m, len(tau), a, lda, tau, size[:], -1)
		work = grow(work, max(1, int(size[0])))
		lapackImpl.Dorglq(n, m, len(tau), a, lda, tau, work, len(work))
	}
}

// zung2r is LAPACK's unblocked complex zung2r for one column-major m-by-n matrix and
// k = len(tau) reflectors: Q is built from the last reflector back, each H_i applied to the
// columns on the right of column i, which then becomes H_i's own column i.
func zung2r[T Complex](m, n int, a []T, lda int, tau []T) {
	k := len(tau)
	for j := k; j < n; j++ {
		col := a[j*lda : j*lda+m]
		clear(col)
		col[j] = 1
	}
	for i := k - 1; i >= 0; i-- {
		v1 := a[i*lda+i+1 : i*lda+m]
		for j := i + 1; j < n; j++ {
			larfLeft(tau[i], v1, a[j*lda+i:j*lda+m])
		}
		scal(v1, -tau[i])
		a[i*lda+i] = 1 - tau[i]
		clear(a[i*lda : i*lda+i])
	}
}
