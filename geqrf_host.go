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
// smallMax rows and columns run smallGeqrf's kernels, those of order min(m, n) >=
// geqrfBlockedMin geqrfBlocked.
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
		if min(m, n) >= geqrfBlockedMin {
			k = newGeqrfBlocked[float64]
			break
		}
		k = newDgeqrf
	case float32:
		if small {
			k = smallGeqrf[float32](m, n)
			break
		}
		if min(m, n) >= geqrfBlockedMin {
			k = newGeqrfBlocked[float32]
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

// geqrfSmall is dgeqr2 on one real matrix of at most smallMax rows and columns, in float64
// on a local copy; k = len(tau) = min(m, n).
func geqrfSmall[F float32 | float64](m, n int, a []F, lda int, tau []F) {
	const ld = smallMax
	var w [ld * ld]float64
	var t [ld]float64
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			w[j*ld+i] = float64(a[j*lda+i])
		}
	}
	dgeqr2(m, n, w[:], ld, t[:len(tau)])
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			a[j*lda+i] = F(w[j*ld+i])
		}
	}
	for i := range tau {
		tau[i] = F(t[i])
	}
}

// dgeqr2 is LAPACK's unblocked Householder QR (with dlarfg's reflectors) of the m-by-n
// column-major float64 a, in place; k = len(tau) = min(m, n).
func dgeqr2(m, n int, a []float64, lda int, tau []float64) {
	for i := range tau {
		col := a[i*lda+i : i*lda+m]
		beta, t := dlarfg(col[0], col[1:])
		col[0], tau[i] = beta, t
		if t == 0 {
			continue
		}
		// Columns j > i: c -= t v (v^T c) with v = [1; col[1:]].
		v := col[1:]
		for j := i + 1; j < n; j++ {
			c := a[j*lda+i : j*lda+m]
			c0, c := c[0], c[1:]
			v := v[:len(c)]
			s := c0
			for r, x := range c {
				s += v[r] * x
			}
			s *= t
			a[j*lda+i] = c0 - s
			for r := range c {
				c[r] -= s * v[r]
			}
		}
	}
}

// geqrfBlock is the panel width of geqrfBlocked, geqrfInner the width of the panels inside
// each panel (factored by dgeqr2, their reflectors applied to the rest of the panel by the
// same blocked update), and geqrfBlockedMin the order min(m, n) from which it replaces
// gonum's Dgelqf. BenchmarkGeqrfBlocked, one core, loaded machine (load average 6):
// the inner panels took n = 512 from 4.9 to 4.1 ms (float64) and float32, with its updates
// in float32, from 5.1 to 2.8-3.8 ms; at n = 128 blocked and Dgelqf are level in float64
// (0.18-0.21 ms) and blocked is faster in float32 (0.14-0.21 against 0.20), at 96 Dgelqf is
// faster (0.10 against 0.12).
const geqrfBlock, geqrfInner, geqrfBlockedMin = 32, 8, 128

// geqrfBlocked is LAPACK's blocked dgeqrf (sgeqrf) on one real matrix, with its block
// reflectors applied by gemmKernel's packed gemm in F: each panel of geqrfBlock columns is
// factored by dgeqr2 (for float32 on a float64 copy of the panel, which costs O(m kb)
// against its O(m kb^2) flops), and the trailing columns are multiplied by Q^T = I - V T^T
// V^T (dlarft's T, dlarfb as three gemms: W = V^T A2, W = T^T W, A2 -= V W), so that float32
// runs its updates at twice float64's rate. v, t, w and the panel copy p, pt are scratch.
type geqrfBlocked[F float32 | float64] struct {
	gemm    gemmFunc[F]
	v, t, w []F
	p, pt   []float64
}

func newGeqrfBlocked[F float32 | float64]() func(m, n int, a []F, lda int, tau []F) {
	g := &geqrfBlocked[F]{gemm: gemmKernel[F]()}
	return g.factor
}

func (g *geqrfBlocked[F]) factor(m, n int, a []F, lda int, tau []F) {
	g.blocked(m, n, a, lda, tau, geqrfBlock)
}

// blocked factors a in panels of nb columns: those of geqrfBlock by this algorithm in
// panels of geqrfInner, those of geqrfInner by dgeqr2.
func (g *geqrfBlocked[F]) blocked(m, n int, a []F, lda int, tau []F, nb int) {
	k := len(tau)
	for j := 0; j < k; j += nb {
		kb, mp := min(nb, k-j), m-j
		panel := a[j*lda+j:]
		if nb > geqrfInner {
			g.blocked(mp, kb, panel, lda, tau[j:j+kb], geqrfInner)
		} else {
			g.panel(mp, kb, panel, lda, tau[j:j+kb])
		}
		n2 := n - j - kb
		if n2 == 0 {
			continue
		}
		// V, explicit: unit diagonal, zeros above it.
		g.v = grow(g.v, mp*kb)
		for c := 0; c < kb; c++ {
			vc := g.v[c*mp : (c+1)*mp]
			clear(vc[:c])
			vc[c] = 1
			copy(vc[c+1:], panel[c*lda+c+1:c*lda+mp])
		}
		g.larft(mp, kb, tau[j:j+kb])
		g.w = grow(g.w, 2*kb*n2)
		w, tw := g.w[:kb*n2], g.w[kb*n2:]
		a2 := a[(j+kb)*lda+j:]
		g.gemm(Trans, NoTrans, kb, n2, mp, 1, g.v, mp, a2, lda, 0, w, kb)
		g.gemm(Trans, NoTrans, kb, n2, kb, 1, g.t, kb, w, kb, 0, tw, kb)
		g.gemm(NoTrans, NoTrans, mp, n2, kb, -1, g.v, mp, tw, kb, 1, a2, lda)
	}
}

// panel is dgeqr2 on the mp-by-kb panel, in float64.
func (g *geqrfBlocked[F]) panel(mp, kb int, panel []F, lda int, tau []F) {
	if p, ok := any(panel).([]float64); ok {
		dgeqr2(mp, kb, p, lda, any(tau).([]float64))
		return
	}
	g.p, g.pt = grow(g.p, mp*kb), grow(g.pt, kb)
	convert(g.p, mp, panel, lda, mp, kb)
	dgeqr2(mp, kb, g.p, mp, g.pt)
	convert(panel, lda, g.p, mp, mp, kb)
	convert(tau, kb, g.pt, kb, kb, 1)
}

// larft forms the kb-by-kb upper triangular T of H_1 ... H_kb = I - V T V^T from the explicit
// mp-by-kb V (dlarft, forward and columnwise): T[j,j] = tau_j, T[0:j, j] = -tau_j T[0:j, 0:j]
// V[:, 0:j]^T V[:, j].
func (g *geqrfBlocked[F]) larft(mp, kb int, tau []F) {
	g.t = grow(g.t, kb*kb)
	clear(g.t)
	t := g.t
	// The Gram matrix V^T V into t's upper triangle, then the triangular products in place.
	g.gemm(Trans, NoTrans, kb, kb, mp, 1, g.v, mp, g.v, mp, 0, t, kb)
	for j := 0; j < kb; j++ {
		tj := t[j*kb : j*kb+j+1]
		for i := j + 1; i < kb; i++ {
			t[j*kb+i] = 0 // below the diagonal
		}
		for i := range tj[:j] {
			tj[i] *= -tau[j]
		}
		// tj[0:j] = T[0:j, 0:j] tj[0:j], T upper triangular: row i uses rows i.. only.
		for i := 0; i < j; i++ {
			var s F
			for l := i; l < j; l++ {
				s += t[l*kb+i] * tj[l]
			}
			tj[i] = s
		}
		tj[j] = tau[j]
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
