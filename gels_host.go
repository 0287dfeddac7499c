package batchlas

// gelsHost solves matrix by matrix with the host kernels of Geqrf, Ormqr and Trsm, each
// matrix in one pass while it is in cache. For m < n it factors A^H = Q R in scratch and
// copies the factor back conjugate-transposed: A = R^H Q^H is the LQ factorization, and
// that copy is what LAPACK's xGELQF leaves in A.
func gelsHost[T Scalar](_ *Queue, c *gelsCall[T]) error {
	if c.trivial() {
		gelsTrivialHost(c)
		return nil
	}
	a, b, info := c.a, c.b, c.info.host()
	m, n, nrhs := a.rows, a.cols, b.cols
	p, r, over := c.shape()
	newQR, newQ := geqrfKernel[T](p, r), ormqrKernel[T]()
	hostBatch(a.batch, func(lo, hi int) {
		qr, applyQ := newQR(), newQ()
		tau := make([]T, r)
		var w []T // A^H, when m < n
		if m < n {
			w = make([]T, p*r)
		}
		for k := lo; k < hi; k++ {
			f, ldf := a.mat(k), a.ld
			if w != nil {
				adjointInto(w, p, f, ldf, m, n)
				f, ldf = w, p
			}
			qr(p, r, f, ldf, tau)
			info[k] = int32(zeroDiag(f, ldf, r))
			if info[k] == 0 {
				gelsSolve(over, p, r, nrhs, f, ldf, tau, b.mat(k), b.ld, applyQ)
			}
			if w != nil {
				adjointInto(a.mat(k), a.ld, w, p, p, r)
			}
		}
	})
	return nil
}

// gelsSolve finishes one matrix from the QR factorization F = Q R (p-by-r, p >= r, reflectors
// and tau as Geqrf leaves them) of A or A^H: least squares (over) is R X = (Q^H B)(0:r),
// minimum norm is X = Q [Y; 0] with R^H Y = B(0:r).
func gelsSolve[T Scalar](over bool, p, r, nrhs int, f []T, ldf int, tau, b []T, ldb int,
	applyQ func(left, ctrans bool, m, n int, a []T, lda int, tau, c []T, ldc int)) {
	if over {
		applyQ(true, true, p, nrhs, f, ldf, tau, b, ldb)
		cmTrsm(Upper, NoTrans, false, r, nrhs, f, ldf, b, ldb)
		return
	}
	cmTrsm(Upper, ConjTrans, false, r, nrhs, f, ldf, b, ldb)
	for j := 0; j < nrhs; j++ {
		clear(b[j*ldb+r : j*ldb+p])
	}
	applyQ(true, false, p, nrhs, f, ldf, tau, b, ldb)
}

// gelsTrivialHost is the quick return: info 0, and X = 0 in the first max(m, n) rows of b
// when A is empty but B is not.
func gelsTrivialHost[T Scalar](c *gelsCall[T]) {
	clear(c.info.host()[:c.a.batch])
	if c.b.cols > 0 {
		gelsClearHost(c.b)
	}
}

// zeroDiag is the 1-based index of the first exactly zero diagonal element of the leading
// k-by-k part of f, or 0.
func zeroDiag[T Scalar](f []T, ldf, k int) int {
	for i := 0; i < k; i++ {
		if f[i*ldf+i] == 0 {
			return i + 1
		}
	}
	return 0
}

// adjointInto writes the c-by-r src^H into dst, for the r-by-c src.
func adjointInto[T Scalar](dst []T, ldd int, src []T, lds, r, c int) {
	for j := 0; j < c; j++ {
		for i := 0; i < r; i++ {
			dst[i*ldd+j] = src[j*lds+i]
		}
	}
	switch d := any(dst).(type) {
	case []complex64:
		conjRows(d, ldd, c, r)
	case []complex128:
		conjRows(d, ldd, c, r)
	}
}

// conjRows conjugates the r-by-c matrix x in place.
func conjRows[T Complex](x []T, ld, r, c int) {
	for j := 0; j < c; j++ {
		col := x[j*ld : j*ld+r]
		for i, v := range col {
			col[i] = conj(v)
		}
	}
}

// The steps of the "qr" family on a host queue.

func gelsAdjointHost[T Scalar](dst, src *Matrix[T]) {
	hostBatch(dst.batch, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			adjointInto(dst.mat(k), dst.ld, src.mat(k), src.ld, src.rows, src.cols)
		}
	})
}

func gelsClearHost[T Scalar](m *Matrix[T]) {
	if m.rows == 0 {
		return
	}
	for k := 0; k < m.batch; k++ {
		x := m.mat(k)
		for j := 0; j < m.cols; j++ {
			clear(x[j*m.ld : j*m.ld+m.rows])
		}
	}
}

func gelsZeroDiagHost[T Scalar](f *Matrix[T], info []int32) {
	k := min(f.rows, f.cols)
	for b := 0; b < f.batch; b++ {
		info[b] = int32(zeroDiag(f.mat(b), f.ld, k))
	}
}
