package batchlas

import (
	"math"
	"math/cmplx"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
)

// gesvdFunc decomposes one column-major m-by-n matrix with k = min(m, n) >= 1 and finite
// entries, and returns LAPACK's info. u and vt are nil, with leading dimension 1, when their
// job is SVDNone.
type gesvdFunc[T Scalar, R Real] func(jobu, jobvt SVDJob, m, n int, a []T, lda int, s []R, u []T, ldu int, vt []T, ldvt int) int

// gesvdHost decomposes every matrix with gonum's Dgesvd (float64), Dgesvd on a float64 copy
// (float32: as fast as a float32 code at these sizes, and more accurate), or the project's
// complex SVD (complex64 and complex128, computed in complex128; see zgesvd); real matrices
// of at most smallMax rows and columns by gesvdSmall's one-sided Jacobi or gesvdSmallGR's
// Golub-Reinsch instead (smallOr).
func gesvdHost[T Scalar, R Real](_ *Queue, c *gesvdCall[T, R]) error {
	a, s, info := c.a, c.s.host(), c.info.host()
	m, n := a.rows, a.cols
	k := min(m, n)
	newKernel := gesvdKernel[T, R]()
	hostBatch(a.batch, func(lo, hi int) {
		kern := newKernel()
		for b := lo; b < hi; b++ {
			u, ldu := svdFactor(c.jobu, c.u, b)
			vt, ldvt := svdFactor(c.jobvt, c.vt, b)
			ab, sb := a.mat(b), s[b*k:(b+1)*k]
			switch {
			case k == 0:
				// Nothing to decompose; a full factor is still a unitary matrix.
				setIdentity(c.jobu, u, ldu, m)
				setIdentity(c.jobvt, vt, ldvt, n)
				info[b] = 0
			case !allFinite(ab, a.ld, m, n):
				setNaN(sb, 1, k, 1)
				ur, uc, vr, vc := svdShapes(c.jobu, c.jobvt, m, n)
				setNaN(u, ldu, ur, uc)
				setNaN(vt, ldvt, vr, vc)
				info[b] = int32(k)
			default:
				info[b] = int32(kern(c.jobu, c.jobvt, m, n, ab, a.ld, sb, u, ldu, vt, ldvt))
			}
		}
	})
	return nil
}

// svdFactor is matrix b of a singular vector factor and its leading dimension; nil and 1
// when the job computes none.
func svdFactor[T Scalar](job SVDJob, f *Matrix[T], b int) ([]T, int) {
	if job == SVDNone {
		return nil, 1
	}
	return f.mat(b), f.ld
}

// allFinite reports whether the r-by-c matrix a holds neither NaN nor Inf: x-x is 0 exactly
// for finite x, in every scalar type.
func allFinite[T Scalar](a []T, lda, r, c int) bool {
	for j := 0; j < c; j++ {
		for _, v := range a[j*lda : j*lda+r] {
			if v-v != 0 {
				return false
			}
		}
	}
	return true
}

// setNaN fills the r-by-c matrix a with NaN.
func setNaN[E Scalar](a []E, lda, r, c int) {
	var nan E
	switch p := any(&nan).(type) {
	case *float32:
		*p = float32(math.NaN())
	case *float64:
		*p = math.NaN()
	case *complex64:
		*p = complex64(cmplx.NaN())
	case *complex128:
		*p = cmplx.NaN()
	}
	for j := 0; j < c; j++ {
		for i := range a[j*lda : j*lda+r] {
			a[j*lda+i] = nan
		}
	}
}

// setIdentity writes the n-by-n identity to a when job is SVDAll.
func setIdentity[T Scalar](job SVDJob, a []T, lda, n int) {
	if job == SVDAll {
		identity(a, lda, n, n)
	}
}

// identity writes the first c columns of the r-by-r identity to a.
func identity[T Scalar](a []T, lda, r, c int) {
	for j := 0; j < c; j++ {
		col := a[j*lda : j*lda+r]
		clear(col)
		col[j] = 1
	}
}

// gesvdKernel returns a constructor of single-matrix SVD kernels; each goroutine makes its
// own, since a kernel keeps scratch space.
func gesvdKernel[T Scalar, R Real]() func() gesvdFunc[T, R] {
	var k any
	switch any(*new(T)).(type) {
	case float64:
		k = func() gesvdFunc[float64, float64] { return smallOr(new(dgesvdWork).run) }
	case float32:
		k = func() gesvdFunc[float32, float32] { return smallOr(new(sgesvdWork).run) }
	case complex64:
		k = func() gesvdFunc[complex64, float32] { return zgesvd[complex64, float32](new(zgesvdWork)) }
	case complex128:
		k = func() gesvdFunc[complex128, float64] { return zgesvd[complex128, float64](new(zgesvdWork)) }
	}
	return k.(func() gesvdFunc[T, R])
}

// smallOr is the real SVD kernel that runs gesvdSmall (one-sided Jacobi) on matrices of at
// most smallMax rows and columns and at most gesvdJacobiMax of the smaller dimension,
// gesvdSmallGR (Golub-Reinsch) on the other matrices of at most smallMax rows and columns,
// and big on the rest.
func smallOr[F float32 | float64](big gesvdFunc[F, F]) gesvdFunc[F, F] {
	return func(jobu, jobvt SVDJob, m, n int, a []F, lda int, s, u []F, ldu int, vt []F, ldvt int) int {
		switch {
		case m > smallMax || n > smallMax:
			return big(jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt)
		case min(m, n) <= gesvdJacobiMax:
			return gesvdSmall(jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt)
		}
		return gesvdSmallGR(jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt)
	}
}

// gesvdJacobiMax is the largest min(m, n) at which gesvdSmall's Jacobi beats gesvdSmallGR
// (square, thin U and V, one core, ns per matrix: n = 2 150 against 245, 3 571 against 727,
// 4 1225 against 1276, 5 2306 against 1832, 8 9462 against 5173).
const gesvdJacobiMax = 4

// dgesvdWork is one goroutine's workspace for gonum's Dgesvd, sized for the last shape.
type dgesvdWork struct {
	work        []float64
	x           []float64 // square's e, tauQ and tauP
	m, n        int
	jobu, jobvt SVDJob
	sized       bool
	forSquare   bool // work is sized for square, not for Dgesvd
}

// run decomposes one column-major matrix with gonum's row-major Dgesvd. Read row-major, the
// column-major m-by-n A (leading dimension lda) is the n-by-m A^T = V S U^T. Dgesvd of A^T
// returns its left factor V and its right factor U^T, each row-major; read back column-major
// they are V^T, which is our vt, and U, which is our u. So the call swaps the jobs and the
// u and vt arguments and copies nothing; the leading dimensions and lengths match exactly
// (Dgesvd's row-major n-by-k "U" is our column-major k-by-n vt, and so on).
func (w *dgesvdWork) run(jobu, jobvt SVDJob, m, n int, a []float64, lda int, s, u []float64, ldu int, vt []float64, ldvt int) int {
	if m == n && n >= gesvdSquareMin && jobu != SVDNone && jobvt != SVDNone {
		if info, ok := w.square(n, a, lda, s, u, ldu, vt, ldvt); ok {
			return info
		}
	}
	ju, jvt := lapackSVDJob(jobvt), lapackSVDJob(jobu)
	if n == 1 {
		// A single column's leading dimension is never used; gonum's 1x1 path slices
		// a[lda:], which would reach past the last matrix of a batch with lda > 1.
		lda = m
	}
	if !w.sized || w.forSquare || w.m != m || w.n != n || w.jobu != jobu || w.jobvt != jobvt {
		var opt [1]float64
		lapackImpl.Dgesvd(ju, jvt, n, m, a, lda, s, vt, ldvt, u, ldu, opt[:], -1)
		w.work = grow(w.work, max(1, int(opt[0])))
		w.m, w.n, w.jobu, w.jobvt, w.sized, w.forSquare = m, n, jobu, jobvt, true, false
	}
	if lapackImpl.Dgesvd(ju, jvt, n, m, a, lda, s, vt, ldvt, u, ldu, w.work, len(w.work)) {
		return 0
	}
	// On failure work[1:k] holds the superdiagonal that did not converge.
	return unconverged(w.work[1:min(m, n)])
}

// gesvdSquareMin is the order from which square, both-factor decompositions take
// dgesvdWork.square rather than Dgesvd: below it the matrix stays in cache either way and
// square's transposes make it 1-2% slower (one core, n = 16 to 64).
const gesvdSquareMin = 128

// square is Dgesvd's path for a square A with both factors, by its own steps (gonum's
// Dgebrd, Dorgbr twice, Dbdsqr), so that every plane rotation of the bidiagonal QR iteration
// runs along rows. Dgesvd hands Dbdsqr its left factor as "U", to be multiplied from the
// right: each rotation then walks down two columns of a row-major matrix, a cache line a
// row, and with a power-of-two leading dimension all those lines fall in the same few cache
// sets. Here the left factor goes in transposed as Dbdsqr's "C", which it multiplies from the
// left, row pair by row pair, as it does the right factor; the transposes cost O(n^2). One
// core, ms a matrix: n = 512 1283 against 369-397 (Dlasr's column rotations were 85% of
// Dgesvd's time), n = 256 90-94 against 48-49, n = 384 (no aliasing) 153-165 against 148,
// n = 128 6.2-6.4 against 6.0-6.2. In the row-major view G = A^T = Q B P^T (Dgebrd) and
// B = Q' S P'^T (Dbdsqr): vt receives G's left factor Q Q', row-major (the transpose of
// Dbdsqr's C = (Q Q')^T), and u G's right factor P'^T P^T, as in run. It reports false, with
// a untouched, where the max norm of A is outside the range in which Dgesvd would not scale
// it; the caller then runs Dgesvd.
func (w *dgesvdWork) square(n int, a []float64, lda int, s, u []float64, ldu int, vt []float64, ldvt int) (int, bool) {
	const eps = 0x1p-53
	smlnum := math.Sqrt(0x1p-1022) / eps
	if anrm := lapackImpl.Dlange(lapack.MaxAbs, n, n, a, lda, nil); anrm < smlnum || anrm > 1/smlnum {
		return 0, false
	}
	if !w.sized || w.m != n || w.n != n || !w.forSquare {
		var opt [1]float64
		lapackImpl.Dgebrd(n, n, a, lda, s, nil, nil, nil, opt[:], -1)
		lwork := int(opt[0])
		lapackImpl.Dorgbr(lapack.GenerateQ, n, n, n, a, lda, nil, opt[:], -1)
		lwork = max(lwork, int(opt[0]), 4*(n-1))
		w.work = grow(w.work, lwork)
		w.x = grow(w.x, 3*n)
		w.m, w.n, w.sized, w.forSquare = n, n, true, true
	}
	e, tauQ, tauP := w.x[:n], w.x[n:2*n], w.x[2*n:]
	lapackImpl.Dgebrd(n, n, a, lda, s, e, tauQ, tauP, w.work, len(w.work))
	for i := 0; i < n; i++ {
		copy(vt[i*ldvt:i*ldvt+n], a[i*lda:i*lda+n])
		copy(u[i*ldu:i*ldu+n], a[i*lda:i*lda+n])
	}
	lapackImpl.Dorgbr(lapack.GenerateQ, n, n, n, vt, ldvt, tauQ, w.work, len(w.work))
	lapackImpl.Dorgbr(lapack.GeneratePT, n, n, n, u, ldu, tauP, w.work, len(w.work))
	transposeSquare(n, vt, ldvt) // C = Q^T
	ok := lapackImpl.Dbdsqr(blas.Upper, n, n, 0, n, s, e, u, ldu, nil, 1, vt, ldvt, w.work)
	transposeSquare(n, vt, ldvt)
	if ok {
		return 0, true
	}
	return unconverged(e[:n-1]), true
}

// unconverged is LAPACK's info for a failed bidiagonal or tridiagonal QR iteration: the
// number of nonzero off-diagonal elements left, and at least 1.
func unconverged(e []float64) int {
	info := 0
	for _, v := range e {
		if v != 0 {
			info++
		}
	}
	return max(1, info)
}

func lapackSVDJob(j SVDJob) lapack.SVDJob {
	switch j {
	case SVDAll:
		return lapack.SVDAll
	case SVDThin:
		return lapack.SVDStore
	}
	return lapack.SVDNone
}

// sgesvdWork runs the float64 code on a widened copy of a float32 matrix.
type sgesvdWork struct {
	d           dgesvdWork
	a, s, u, vt []float64
}

func (w *sgesvdWork) run(jobu, jobvt SVDJob, m, n int, a []float32, lda int, s, u []float32, ldu int, vt []float32, ldvt int) int {
	k := min(m, n)
	ur, uc, vr, vc := svdShapes(jobu, jobvt, m, n)
	w.a = grow(w.a, m*n)
	w.s = grow(w.s, k)
	w.u = grow(w.u, ur*uc)
	w.vt = grow(w.vt, vr*vc)
	widenReal(w.a, m, a, lda, m, n)
	info := w.d.run(jobu, jobvt, m, n, w.a, m, w.s, w.u, max(1, ur), w.vt, max(1, vr))
	widenReal(s, k, w.s, k, k, 1)
	widenReal(u, ldu, w.u, max(1, ur), ur, uc)
	widenReal(vt, ldvt, w.vt, max(1, vr), vr, vc)
	return info
}

// zgesvdWork is one goroutine's scratch for the complex SVD.
type zgesvdWork struct {
	w, q, p, x, y []complex128
	tauq, taup    []complex128
	d, e, bdwork  []float64
}

// zgesvd returns the complex SVD kernel over w's scratch.
//
// Method: the matrix, or its conjugate transpose when it is wide, is copied in complex128
// into W (M-by-N, M >= N) and scaled by a power of two so that its largest entry is near 1.
// Householder reflections reduce it to a real upper bidiagonal B = Q^H W P (LAPACK's zlarfg
// makes every diagonal and superdiagonal entry real, so no phase removal is needed); Q and P
// are formed, and gonum's Dbdsqr, the bidiagonal QR iteration with its sweep limit, rotates
// them into the singular vectors. This is LAPACK's zgesvd path: backward stable (residuals
// of order eps ||A||), with a bounded iteration count, and O(M N^2) with a small constant.
// One-sided Jacobi would be as accurate but needs some ten sweeps for n in the hundreds,
// each costing about as much as this whole reduction. (Measured on one core at n = 256 with
// all vectors: about 1.5x the time of gonum's real Dgesvd, for 4x the arithmetic.)
//
// Dbdsqr's rotations have real coefficients, so they act on a complex matrix viewed as
// float64 pairs: its "C" rows (Q^T C) are the columns of Q, and its "VT" rows are the rows of
// P^H, which are the columns of conj(P); both are contiguous in column-major complex storage.
// complex64 is computed in complex128: the widening copy is needed anyway (for the transpose
// and the scaling) and makes the result more accurate at the same speed.
func zgesvd[T Complex, R Real](ws *zgesvdWork) gesvdFunc[T, R] {
	return func(jobu, jobvt SVDJob, m, n int, a []T, lda int, s []R, u []T, ldu int, vt []T, ldvt int) int {
		wide := m < n
		M, N := m, n
		jobl, jobr := jobu, jobvt // the jobs for W's left and right factors
		if wide {
			M, N = n, m
			jobl, jobr = jobvt, jobu
		}
		ws.w = grow(ws.w, M*N)
		loadC(ws.w, M, a, lda, M, N, wide)
		e := scalePow2(ws.w)
		info := ws.decompose(M, N, jobl, jobr)
		for i, v := range ws.d[:N] {
			s[i] = R(math.Ldexp(v, e))
		}
		// ws.q holds W's left factor U_w (M-by-ncq), ws.p holds conj(V_w) (N-by-N).
		_, ncq, _, _ := svdShapes(jobl, SVDNone, M, N)
		if !wide {
			if jobu != SVDNone {
				storeC(u, ldu, m, ncq, ws.q, M, false, false)
			}
			if jobvt != SVDNone {
				storeC(vt, ldvt, n, n, ws.p, N, true, false) // V^H = conj(V)^T
			}
			return info
		}
		// A = W^H = V_w S U_w^H: our U is V_w, our V^H is U_w^H.
		if jobu != SVDNone {
			storeC(u, ldu, m, m, ws.p, N, false, true)
		}
		if jobvt != SVDNone {
			storeC(vt, ldvt, ncq, n, ws.q, M, true, true)
		}
		return info
	}
}

// decompose computes the SVD of the M-by-N W in ws.w (M >= N >= 1): singular values in
// ws.d, the left factor's first M (SVDAll) or N (SVDThin) columns in ws.q and, unless jobr is
// SVDNone, conj(V) in ws.p. It returns LAPACK's info.
func (ws *zgesvdWork) decompose(M, N int, jobl, jobr SVDJob) int {
	ws.d = grow(ws.d, N)
	ws.e = grow(ws.e, N)
	ws.tauq = grow(ws.tauq, N)
	ws.taup = grow(ws.taup, N)
	ws.x = grow(ws.x, N)
	ws.y = grow(ws.y, M)
	ws.bidiagonalize(M, N)

	var ncc, ncvt int
	var c, vtv []float64
	if jobl != SVDNone {
		_, ncq, _, _ := svdShapes(jobl, SVDNone, M, N)
		ws.q = grow(ws.q, M*ncq)
		ws.formQ(M, N, ncq)
		ncc, c = 2*M, floats(ws.q)
	}
	if jobr != SVDNone {
		ws.p = grow(ws.p, N*N)
		ws.formP(M, N)
		ncvt, vtv = 2*N, floats(ws.p)
	}
	ws.bdwork = grow(ws.bdwork, 4*N)
	if lapackImpl.Dbdsqr(blas.Upper, N, ncvt, 0, ncc, ws.d, ws.e, vtv, max(1, ncvt), nil, 1, c, max(1, ncc), ws.bdwork) {
		return 0
	}
	return unconverged(ws.e[:N-1])
}

// bidiagonalize reduces W to the real upper bidiagonal B = Q^H W P: B's diagonal goes to d,
// its superdiagonal to e; the reflector H_i = I - tauq_i v v^H of Q = H_0 ... H_{N-1} is kept
// in column i of W from row i (v_0 = 1), and G_i = I - taup_i x x^H of P = G_0 ... G_{N-2}
// in row i of W from column i+1 (x_0 = 1).
func (ws *zgesvdWork) bidiagonalize(M, N int) {
	w, d, e := ws.w, ws.d, ws.e
	for i := 0; i < N; i++ {
		v := w[i*M+i : (i+1)*M]
		t, beta := householder(v)
		ws.tauq[i], d[i] = t, beta
		for j := i + 1; j < N; j++ {
			reflect(conj(t), v, w[j*M+i:(j+1)*M]) // H_i^H from the left
		}
		if i == N-1 {
			break
		}
		// Row i right of the diagonal times G_i must be (e_i, 0, ...): G_i^H applied to its
		// conjugate gives (e_i, 0, ...)^T.
		x := ws.x[:N-i-1]
		for j := range x {
			x[j] = conj(w[(i+1+j)*M+i])
		}
		t, beta = householder(x)
		ws.taup[i], e[i] = t, beta
		reflectRight(t, x, w[(i+1)*M:], M, i+1, M, ws.y)
		for j, xj := range x {
			w[(i+1+j)*M+i] = xj
		}
	}
}

// formQ writes the first ncq columns of Q = H_0 ... H_{N-1} to ws.q (leading dimension M),
// applying the reflectors to the identity from the last.
func (ws *zgesvdWork) formQ(M, N, ncq int) {
	q := ws.q
	identity(q, M, M, ncq)
	for i := N - 1; i >= 0; i-- {
		v := ws.w[i*M+i : (i+1)*M]
		for j := i; j < ncq; j++ {
			reflect(ws.tauq[i], v, q[j*M+i:(j+1)*M])
		}
	}
}

// formP writes conj(P), P = G_0 ... G_{N-2}, to ws.p (leading dimension N).
func (ws *zgesvdWork) formP(M, N int) {
	p := ws.p
	identity(p, N, N, N)
	for i := N - 2; i >= 0; i-- {
		x := ws.x[:N-i-1]
		for j := range x {
			x[j] = ws.w[(i+1+j)*M+i]
		}
		for j := i + 1; j < N; j++ {
			reflect(ws.taup[i], x, p[j*N+i+1:(j+1)*N])
		}
	}
	for i, v := range p {
		p[i] = conj(v)
	}
}

// householder is LAPACK's zlarfg on x = (alpha, x_1, ...): it returns tau and the real beta
// with H^H x = (beta, 0, ...)^T for H = I - tau v v^H, and overwrites x with v (v_0 = 1).
// W is scaled so that its entries are at most 1, which keeps the sums of squares in range.
func householder(x []complex128) (tau complex128, beta float64) {
	alpha := x[0]
	var xn2 float64
	for _, v := range x[1:] {
		xn2 += abs2(v)
	}
	x[0] = 1
	ar, ai := real(alpha), imag(alpha)
	if xn2 == 0 && ai == 0 {
		return 0, ar
	}
	beta = -math.Copysign(math.Sqrt(ar*ar+ai*ai+xn2), ar)
	tau = complex((beta-ar)/beta, -ai/beta)
	r := 1 / (alpha - complex(beta, 0))
	for i := range x[1:] {
		x[i+1] *= r
	}
	return tau, beta
}

// reflect applies I - tau v v^H to the vector c from the left.
func reflect(tau complex128, v, c []complex128) {
	if tau == 0 {
		return
	}
	var s complex128
	for i, vi := range v {
		s += conj(vi) * c[i]
	}
	s *= tau
	for i, vi := range v {
		c[i] -= s * vi
	}
}

// reflectRight applies I - tau x x^H from the right to rows [r0, r1) of the columns of c,
// whose column j starts at c[j*ldc], for j < len(x); y is scratch of at least r1-r0.
func reflectRight(tau complex128, x, c []complex128, ldc, r0, r1 int, y []complex128) {
	if tau == 0 || r0 >= r1 {
		return
	}
	// y = C x; C -= tau y x^H.
	y = y[:r1-r0]
	clear(y)
	for j, xj := range x {
		for i, cij := range c[j*ldc+r0 : j*ldc+r1] {
			y[i] += cij * xj
		}
	}
	for j, xj := range x {
		f := tau * conj(xj)
		col := c[j*ldc+r0 : j*ldc+r1]
		for i := range col {
			col[i] -= y[i] * f
		}
	}
}

// loadC copies the r-by-c matrix A (or, when adjoint, the c-by-r A^H read from a as the
// transposed shape) into w as an r-by-c matrix with leading dimension ldw.
func loadC[T Complex](w []complex128, ldw int, a []T, lda, r, c int, adjoint bool) {
	for j := 0; j < c; j++ {
		col := w[j*ldw : j*ldw+r]
		if !adjoint {
			for i, v := range a[j*lda : j*lda+r] {
				col[i] = complex128(v)
			}
			continue
		}
		for i := range col {
			col[i] = complex128(conj(a[i*lda+j]))
		}
	}
}

// storeC writes the r-by-c matrix op(src) to dst, where op transposes src when trans and
// conjugates it when cj.
func storeC[T Complex](dst []T, ldd, r, c int, src []complex128, lds int, trans, cj bool) {
	for j := 0; j < c; j++ {
		col := dst[j*ldd : j*ldd+r]
		for i := range col {
			var v complex128
			if trans {
				v = src[i*lds+j]
			} else {
				v = src[j*lds+i]
			}
			if cj {
				v = conj(v)
			}
			col[i] = T(v)
		}
	}
}

// scalePow2 scales w by 2^-e, with e chosen so that the largest real or imaginary part
// lies in [1/2, 1), and returns e: the singular values are scaled back by 2^e. Scaling by a
// power of two is exact, and it keeps the sums of squares of the reflections in range.
func scalePow2(w []complex128) int {
	var amax float64
	for _, v := range w {
		amax = max(amax, math.Abs(real(v)), math.Abs(imag(v)))
	}
	if amax == 0 {
		return 0
	}
	_, e := math.Frexp(amax)
	for i, v := range w {
		w[i] = complex(math.Ldexp(real(v), -e), math.Ldexp(imag(v), -e))
	}
	return e
}

// floats views complex128 storage as interleaved float64 pairs.
func floats(z []complex128) []float64 {
	if len(z) == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(&z[0])), 2*len(z))
}
