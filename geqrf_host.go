package batchlas

import "math"

// geqrfHost factors every matrix; see Geqrf for the kernel of each type.
func geqrfHost[T Scalar](_ *Queue, c *geqrfCall[T]) error {
	a, tau := c.a, c.tau.host()
	m, n := a.rows, a.cols
	k := min(m, n)
	if k == 0 {
		return nil
	}
	newKernel := geqrfKernel[T](m, n)
	hostBatch(a.batch, func(lo, hi int) {
		f := newKernel()
		for b := lo; b < hi; b++ {
			f(m, n, a.mat(b), a.ld, tau[b*k:(b+1)*k])
		}
	})
	return nil
}

// geqrfKernel returns a constructor of single-matrix QR kernels for m-by-n matrices; each
// goroutine makes its own, since a kernel keeps scratch space. Real matrices of at most
// smallMax rows and columns run smallGeqrf's kernels.
func geqrfKernel[T Scalar](m, n int) func() func(m, n int, a []T, lda int, tau []T) {
	z := func() func(int, int, []complex128, int, []complex128) { return zgeqr2[complex128] }
	var k any
	small := m <= smallMax && n <= smallMax
	switch any(*new(T)).(type) {
	case float64:
		if small {
			k = smallGeqrf[float64](m, n)
			break
		}
		k = newDgeqrf
	case float32:
		if small {
			k = smallGeqrf[float32](m, n)
			break
		}
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

// smallGeqrf makes QR kernels for real m-by-n matrices of at most smallMax rows and
// columns: geqrfUnrolled's straight-line kernel for square ones, geqrfSmall for the others.
func smallGeqrf[F float32 | float64](m, n int) func() func(int, int, []F, int, []F) {
	f := geqrfSmall[F]
	if m == n && n > 0 {
		u := geqrfUnrolled[F](n)
		f = func(_, _ int, a []F, lda int, tau []F) { u(a, lda, tau) }
	}
	return func() func(int, int, []F, int, []F) { return f }
}

// geqrfSmall is LAPACK's unblocked Householder QR (dgeqr2, with dlarfg's reflectors) of one
// real matrix of at most smallMax rows and columns, in float64 on a local copy;
// k = len(tau) = min(m, n).
func geqrfSmall[F float32 | float64](m, n int, a []F, lda int, tau []F) {
	const ld = smallMax
	var w [ld * ld]float64
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			w[j*ld+i] = float64(a[j*lda+i])
		}
	}
	for i := range tau {
		col := w[i*ld+i : i*ld+m]
		beta, t := dlarfg(col[0], col[1:])
		col[0], tau[i] = beta, F(t)
		if t == 0 {
			continue
		}
		// Columns j > i: c -= t v (v^T c) with v = [1; col[1:]].
		v := col[1:]
		for j := i + 1; j < n; j++ {
			c := w[j*ld+i : j*ld+m]
			c0, c := c[0], c[1:]
			v := v[:len(c)]
			s := c0
			for r, x := range c {
				s += v[r] * x
			}
			s *= t
			w[j*ld+i] = c0 - s
			for r := range c {
				c[r] -= s * v[r]
			}
		}
	}
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			a[j*lda+i] = F(w[j*ld+i])
		}
	}
}

// dlarfg is LAPACK's real dlarfg: the reflector H = I - tau v v^T with H [alpha; x] =
// [beta; 0] and v = [1; v1]; x is overwritten by v1. tau is 0 when x is zero; x is rescaled
// when |beta| is below the safe minimum, so that 1/(alpha - beta) stays finite. NaN or Inf in
// the input gives NaN in beta or tau.
func dlarfg(alpha float64, x []float64) (beta, tau float64) {
	xnorm := dnrm2(x)
	if xnorm == 0 {
		return alpha, 0
	}
	beta = -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	knt := 0
	for ; math.Abs(beta) < larfgSafmin && knt < 20; knt++ {
		for i := range x {
			x[i] /= larfgSafmin
		}
		beta /= larfgSafmin
		alpha /= larfgSafmin
	}
	if knt > 0 {
		beta = -math.Copysign(math.Hypot(alpha, dnrm2(x)), alpha)
	}
	tau = (beta - alpha) / beta
	r := 1 / (alpha - beta)
	for i := range x {
		x[i] *= r
	}
	for ; knt > 0; knt-- {
		beta *= larfgSafmin
	}
	return beta, tau
}

// dnrm2 is the Euclidean norm of x: the plain sum of squares where it can neither overflow
// nor lose precision to underflow, a sum scaled by the largest |x_i| otherwise. NaN gives NaN.
func dnrm2(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	if s > 0x1p-900 && s < 0x1p900 || s != s {
		return math.Sqrt(s)
	}
	var big float64
	for _, v := range x {
		big = max(big, math.Abs(v))
	}
	if big == 0 || math.IsInf(big, 1) {
		return big
	}
	s = 0
	for _, v := range x {
		r := v / big
		s += r * r
	}
	return big * math.Sqrt(s)
}
