package batchlas

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"

	"github.com/batchlas/batchlas/internal/hostgemm"
)

// syevHost solves every matrix of the batch with gonum's symmetric eigensolver steps
// (float64; float32 on a float64 copy) or the project's complex Hermitian solver (complex64,
// complex128).
func syevHost[T Scalar, R Real](_ *Queue, c *syevCall[T, R]) error {
	a, n := c.a, c.a.rows
	w, info := c.w.host(), c.info.host()
	vectors, lower := c.jobz == Vectors, c.uplo == Lower
	newKernel := syevKernel[T, R](n)
	pair := syevPairKernel[T, R](n)
	hostBatch(a.batch, func(lo, hi int) {
		k := newKernel()
		b := lo
		if pair != nil {
			// Two finite matrices at a time (syevSmallQLPair): their QL chains overlap.
			for ; b+1 < hi; b += 2 {
				a0, a1 := a.mat(b), a.mat(b+1)
				if !finiteTriangle(lower, n, a0, a.ld) || !finiteTriangle(lower, n, a1, a.ld) {
					break // this pair and the rest one at a time
				}
				i0, i1 := pair(vectors, lower, n, a0, a1, a.ld, w[b*n:(b+1)*n], w[(b+1)*n:(b+2)*n])
				info[b], info[b+1] = int32(i0), int32(i1)
			}
		}
		for ; b < hi; b++ {
			ab, wb := a.mat(b), w[b*n:(b+1)*n]
			switch {
			case n == 0:
				info[b] = 0
			case !finiteTriangle(lower, n, ab, a.ld):
				// Not iterated: NaN and Inf defeat scaling and convergence tests, and
				// no result would be meaningful anyway.
				info[b] = int32(nanEigen(vectors, n, ab, a.ld, wb))
			default:
				info[b] = int32(k(vectors, lower, n, ab, a.ld, wb))
			}
		}
	})
	return nil
}

// syevKernel returns a constructor of single-matrix eigensolvers of order n >= 1 for finite
// input; each goroutine makes its own, since a kernel keeps scratch space. A kernel returns
// LAPACK's info. Real matrices up to syevHostJacobiMax run syevSmall, those from syevQLMin
// to smallMax syevSmallQL.
func syevKernel[T Scalar, R Real](n int) func() func(vectors, lower bool, n int, a []T, lda int, w []R) int {
	var k any
	switch any(*new(T)).(type) {
	case float64:
		if 1 <= n && n <= syevHostJacobiMax {
			k = func() func(bool, bool, int, []float64, int, []float64) int { return syevSmall[float64](n) }
			break
		}
		if syevQLMin <= n && n <= smallMax {
			k = func() func(bool, bool, int, []float64, int, []float64) int { return syevSmallQL[float64] }
			break
		}
		k = func() func(bool, bool, int, []float64, int, []float64) int {
			var s dsyevWork
			return func(vectors, lower bool, n int, a []float64, lda int, w []float64) int {
				return s.dsyev(vectors, lower, n, a, lda, w)
			}
		}
	case float32:
		if 1 <= n && n <= syevHostJacobiMax {
			k = func() func(bool, bool, int, []float32, int, []float32) int { return syevSmall[float32](n) }
			break
		}
		if syevQLMin <= n && n <= smallMax {
			k = func() func(bool, bool, int, []float32, int, []float32) int { return syevSmallQL[float32] }
			break
		}
		k = func() func(bool, bool, int, []float32, int, []float32) int {
			var s dsyevWork
			var t, wt []float64
			return func(vectors, lower bool, n int, a []float32, lda int, w []float32) int {
				t, wt = grow(t, n*n), grow(wt, n)
				// Only the uplo triangle is read: the other is not the call's to touch.
				eachTriColumn(lower, n, func(j, i0, i1 int) { widenReal(t[j*n+i0:], n, a[j*lda+i0:], lda, i1-i0, 1) })
				info := s.dsyev(vectors, lower, n, t, n, wt)
				widenReal(w, n, wt, n, n, 1)
				if vectors {
					widenReal(a, lda, t, n, n, n) // narrowing
				}
				return info
			}
		}
	case complex64:
		k = func() func(bool, bool, int, []complex64, int, []float32) int {
			var s zheevWork[complex128]
			var t []complex128
			var wt []float64
			return func(vectors, lower bool, n int, a []complex64, lda int, w []float32) int {
				// On a complex128 copy, as float32 runs on a float64 one: Go's complex64
				// arithmetic is no faster than complex128's (c64 took twice c128's time at
				// n = 256), and the result is as accurate as complex128's.
				t, wt = grow(t, n*n), grow(wt, n)
				eachTriColumn(lower, n, func(j, i0, i1 int) { widenCplx(t[j*n+i0:], n, a[j*lda+i0:], lda, i1-i0, 1) })
				info := zheev(&s, vectors, lower, n, t, n, wt)
				widenReal(w, n, wt, n, n, 1)
				if vectors {
					widenCplx(a, lda, t, n, n, n) // narrowing
				}
				return info
			}
		}
	case complex128:
		k = func() func(bool, bool, int, []complex128, int, []float64) int {
			var s zheevWork[complex128]
			return func(vectors, lower bool, n int, a []complex128, lda int, w []float64) int {
				return zheev(&s, vectors, lower, n, a, lda, w)
			}
		}
	}
	return k.(func() func(bool, bool, int, []T, int, []R) int)
}

// syevPairKernel returns syevSmallQLPair for real types at orders syevQLMin to syevQLPairMax,
// else nil.
func syevPairKernel[T Scalar, R Real](n int) func(vectors, lower bool, n int, a0, a1 []T, lda int, w0, w1 []R) (int, int) {
	if n < syevQLMin || n > syevQLPairMax {
		return nil
	}
	var k any
	switch any(*new(T)).(type) {
	case float64:
		k = syevSmallQLPair[float64]
	case float32:
		k = syevSmallQLPair[float32]
	default:
		return nil
	}
	return k.(func(bool, bool, int, []T, []T, int, []R, []R) (int, int))
}

// syevQLPairMax is the largest order at which two interleaved QL iterations beat one at a
// time (with vectors, one core, ns per matrix: n = 3 216-234 against 299-309, 4 465-508
// against 585-620, 5 827 against 967, 6 1366 against 1403, 8 2652-2668 against 2574-2607:
// from n = 6 on the vector updates, not the chain of square roots and divisions, bound the
// time).
const syevQLPairMax = 5

// syevSweeps bounds syevSmall's sweeps, as SYEV_SWEEPS does the CUDA Jacobi kernels'.
const syevSweeps = 30

// syevHostJacobiMax is the largest order syevSmall takes: from n = 3 on Jacobi's rotations
// cost more than syevSmallQL's reduction and QL (with vectors, one loaded core, ns per
// matrix: n = 2 Jacobi 59-68, QL 85-91; n = 3 424-491 against 364-400; n = 4 1013-1095
// against 665-809). Before syevSmallQL, Jacobi ran up to n = 4, being faster than dsyev there.
const syevHostJacobiMax = 2

// syevSmall computes the eigenvalues and optionally the eigenvectors of one finite real
// symmetric matrix of order 1 <= n <= syevHostJacobiMax by cyclic Jacobi in float64, in the
// straight-line code of syevUnrolled, with the rotations and the skipping and stopping rules
// of the CUDA Jacobi families (kernels/syev/jacobi.cuh; jacobiRotation here): the pairs
// (p, q), p < q, in round-robin order (rounds of disjoint pairs, whose rotations the processor
// overlaps), until a sweep skips every pair or syevSweeps sweeps have run. No step multiplies
// two elements of A, so no scaling is needed. It returns 0, or the number of rows p < n-1
// still holding a non-negligible element right of the diagonal. a is written only with
// vectors.
func syevSmall[F float32 | float64](n int) func(vectors, lower bool, n int, a []F, lda int, w []F) int {
	f := syevUnrolled[F](n)
	return func(vectors, lower bool, _ int, a []F, lda int, w []F) int { return f(vectors, lower, a, lda, w) }
}

// jacobiUlp is the unit roundoff of float64, the precision of syevSmall.
const jacobiUlp = 0x1p-53

// jacobiNegligible reports whether a_pq is negligible beside a_pp and a_qq (Demmel and
// Veselic's relative criterion).
func jacobiNegligible(app, aqq, apq float64) bool {
	return math.Abs(apq) <= jacobiUlp*math.Sqrt(math.Abs(app))*math.Sqrt(math.Abs(aqq))
}

// jacobiRotation is the symmetric Schur rotation of a pair that is not negligible, with
// diagonal app, aqq and off-diagonal apq = u g (u = +-1): theta = (aqq - app) / (2 g),
// t = sign(theta) / (|theta| + sqrt(1 + theta^2)) (1 / (2 theta) past 2^26, where the square
// root is |theta| to working precision), c = 1/sqrt(1 + t^2), s = t c. It applies to
// x = A(k, p), y = A(k, q) as x' = c x - su y, y' = s x + cu y (su = s u, cu = c u), and the
// diagonal moves by tg = t g.
func jacobiRotation(app, aqq, apq float64) (c, s, su, cu, tg float64) {
	g := math.Abs(apq)
	theta := 0.5 * ((aqq - app) / g)
	at := math.Abs(theta)
	t := 0.5 / at
	if at <= 0x1p26 {
		t = 1 / (at + math.Sqrt(1+theta*theta))
	}
	t = math.Copysign(t, theta)
	c = 1 / math.Sqrt(1+t*t)
	s = t * c
	u := math.Copysign(1, apq)
	return c, s, s * u, c * u, t * g
}

// syevStore sorts the eigenvalues d[:n] ascending (ties in index order) and writes them to w
// and, with vectors, the columns vec[j*smallMax : j*smallMax+n] with them over a.
func syevStore[F float32 | float64](vectors bool, n int, d *[smallMax]float64, vec *[smallMax * smallMax]float64, a []F, lda int, w []F) {
	var perm [smallMax]int
	for i := 0; i < n; i++ {
		j := i
		for ; j > 0 && d[i] < d[perm[j-1]]; j-- {
			perm[j] = perm[j-1]
		}
		perm[j] = i
	}
	for j := 0; j < n; j++ {
		w[j] = F(d[perm[j]])
		if vectors {
			src, dst := vec[perm[j]*smallMax:perm[j]*smallMax+n], a[j*lda:j*lda+n]
			for i, x := range src {
				dst[i] = F(x)
			}
		}
	}
}

// finiteTriangle reports whether the named triangle of the n-by-n matrix a holds only
// finite numbers, not counting the imaginary parts of the diagonal, which are taken as zero:
// x-x is zero exactly for finite x, real or complex.
func finiteTriangle[T Scalar](lower bool, n int, a []T, lda int) bool {
	for j := 0; j < n; j++ {
		lo, hi := 0, j+1
		if lower {
			lo, hi = j, n
		}
		for i, x := range a[j*lda+lo : j*lda+hi] {
			if lo+i == j {
				x = scalarOf[T](reS(x), 0)
			}
			if x-x != 0 {
				return false
			}
		}
	}
	return true
}

// nanEigen sets the eigenvalues (and, with vectors, the eigenvectors) of a matrix that holds
// NaN or Inf to NaN, and returns its info: no off-diagonal element converged.
func nanEigen[T Scalar, R Real](vectors bool, n int, a []T, lda int, w []R) int {
	for i := range w {
		w[i] = R(math.NaN())
	}
	if vectors {
		nan := nanOf[T]()
		for j := 0; j < n; j++ {
			col := a[j*lda : j*lda+n]
			for i := range col {
				col[i] = nan
			}
		}
	}
	return n - 1
}

// nanOf is a NaN of type T (both parts NaN for complex types).
func nanOf[T Scalar]() T { return scalarOf[T](math.NaN(), math.NaN()) }

// transposeSquare transposes the n-by-n matrix a in place.
func transposeSquare[T Scalar](n int, a []T, lda int) {
	for j := 1; j < n; j++ {
		for i := 0; i < j; i++ {
			a[j*lda+i], a[i*lda+j] = a[i*lda+j], a[j*lda+i]
		}
	}
}

// dsyevWork is one goroutine's workspace for dsyev.
type dsyevWork struct {
	n     int // the order work was sized for
	work  []float64
	z, v  []float64 // the tridiagonal matrix's eigenvectors; A's before they go to a
	stein steinWork
	pw    []float64 // dsytrd's panel of W (dlatrd)
	x, y  []float64 // dlatrd's vectors
	p, q  []float64 // syr2kLower's stacked operands; applyQ's V and products
	tile  []float64 // syr2kLower's diagonal block; applyQ's T
}

// dsyev computes the eigenvalues and optionally the eigenvectors of one finite column-major
// symmetric matrix (n >= 1), and returns LAPACK's info, the eigenvectors column-major over
// a. It scales as scaleExp says and reduces A to tridiagonal form T = Q^T A Q: by dsytrd
// (blocked, on hostgemm) where hostgemm is Enabled, n > dsytrdBlock and the triangle is the
// lower one (with vectors an upper one is mirrored first), else by gonum's Dsytrd. Without
// vectors it solves T as tridiagEigen says (gonum's Dsterf), which keeps clear of two gonum
// bugs. With vectors it solves T = Z diag(w) Z^T by tridiagVectors (Dsterf and inverse
// iteration) and writes V = Q Z by applyQ after dsytrd, or by gonum's Dorgtr and one gemm
// after Dsytrd; below syevSteinMin it forms Q by Dorgtr and solves by Dsteqr on it, as
// gonum's Dsyev. Read row-major the matrix is itself with the triangles swapped, so gonum's
// Q is the transpose of the column-major a.
func (s *dsyevWork) dsyev(vectors, lower bool, n int, a []float64, lda int, w []float64) int {
	blocked := hostgemm.Enabled() && n > dsytrdBlock
	if blocked && vectors && !lower {
		// All of a is overwritten: mirror the upper triangle into the lower one, which the
		// blocked reduction takes.
		for j := 0; j < n; j++ {
			for i := j + 1; i < n; i++ {
				a[j*lda+i] = a[i*lda+j]
			}
		}
		lower = true
	}
	uplo := rowMajorUplo(Upper)
	if lower {
		uplo = rowMajorUplo(Lower)
	}
	if s.n != n || s.work == nil {
		// Dsyev's own need: e, tau, and the blocked reduction's workspace.
		var q [1]float64
		lapackImpl.Dsyev(lapack.EVCompute, uplo, n, a, lda, w, q[:], -1)
		s.work, s.n = grow(s.work, int(q[0])), n
	}
	e, tau, work := s.work[:n], s.work[n:2*n], s.work[2*n:]
	k := scaleExp(lapackImpl.Dlansy(lapack.MaxAbs, uplo, n, a, lda, nil))
	if k != 0 {
		for j := 0; j < n; j++ {
			lo, hi := 0, j+1
			if lower {
				lo, hi = j, n
			}
			col := a[j*lda+lo : j*lda+hi]
			for i, v := range col {
				col[i] = math.Ldexp(v, k)
			}
		}
	}
	blocked = blocked && lower
	if blocked {
		s.dsytrd(n, a, lda, w, e, tau)
	} else {
		lapackImpl.Dsytrd(uplo, n, a, lda, w, e, tau, work, len(work))
	}
	var info int
	switch {
	case vectors && n < syevSteinMin:
		lapackImpl.Dorgtr(uplo, n, a, lda, tau, work, len(work))
		info = tridiagEigen(lapack.EVOrig, w, e, a, lda, s.work[n:])
		transposeSquare(n, a, lda)
	case vectors:
		s.z = grow(s.z, n*n)
		info = tridiagVectors(w, e, s.z, n, &s.stein)
		if blocked {
			s.applyQ(n, a, lda, tau, s.z)
		} else {
			lapackImpl.Dorgtr(uplo, n, a, lda, tau, work, len(work))
			s.v = grow(s.v, n*n)
			gemmKernel[float64]()(Trans, NoTrans, n, n, n, 1, a, lda, s.z, n, 0, s.v, n)
			s.z, s.v = s.v, s.z
		}
		for j := 0; j < n; j++ {
			copy(a[j*lda:j*lda+n], s.z[j*n:j*n+n])
		}
	default:
		info = tridiagEigen(lapack.EVCompNone, w, e, nil, 1, nil)
	}
	for i, v := range w {
		w[i] = math.Ldexp(v, -k)
	}
	return info
}

// syevSteinMin is the order from which the host's solvers with vectors take the tridiagonal
// eigenvectors from tridiagVectors and back-transform by blocks; below it gonum's Dsteqr
// (QL/QR with rotations) and one reflector at a time are faster (one matrix, one core,
// float64: 18 against 25 us at n = 16, even at 32, 462 against 593 us at 64; complex128
// alike).
const syevSteinMin = 32

// dsytrdBlock is the panel width of dsytrd and applyQ, gonum's Dsytrd's (Ilaenv); it and
// applyQ run from the next order on.
const dsytrdBlock = 32

// dsytrd is gonum's Dsytrd for the lower triangle of the column-major a (the upper one of
// gonum's row-major view), with dlatrd for each panel of dsytrdBlock columns and the
// trailing update A22 -= V W^T + W V^T on hostgemm (syr2kLower) instead of gonum's Dsyr2k,
// 20 times faster at n = 512. The reflectors, d, e and tau are gonum's: read row-major, H(i)
// = I - tau[i] v v^T with v[i] = 1, v[r] = a[r*lda+i+1] for r < i and v[r] = 0 for r > i,
// and Q = H(n-2) ... H(1) H(0). Only Enabled callers may call it.
func (s *dsyevWork) dsytrd(n int, a []float64, lda int, d, e, tau []float64) {
	const nb = dsytrdBlock
	s.pw = grow(s.pw, n*nb)
	kk := n - ((n-nb+nb-1)/nb)*nb
	for i := n - nb; i >= kk; i -= nb {
		s.dlatrd(i+nb, nb, a, lda, e, tau, s.pw, nb)
		// Row-major, C = a's leading i-by-i block, X = a[i:] and W = pw, both i-by-nb:
		// C -= X W^T + W X^T on C's upper triangle. Column-major, X and W are nb-by-i.
		s.syr2kLower(i, nb, a[i:], lda, s.pw, nb, a, lda)
		for j := i; j < i+nb; j++ {
			a[(j-1)*lda+j] = e[j-1]
			d[j] = a[j*lda+j]
		}
	}
	lapackImpl.Dsytd2(blas.Upper, kk, a, lda, d, e, tau)
}

// dlatrd is gonum's Dlatrd with uplo Upper (row-major), its symmetric matrix-vector
// products by symvLower on contiguous copies of the strided vectors instead of gonum's Dsymv
// (which took 90% of dsytrd at n = 512, most of it in its strided loops).
func (s *dsyevWork) dlatrd(n, nb int, a []float64, lda int, e, tau, w []float64, ldw int) {
	bi := blasImpl
	s.x, s.y = grow(s.x, n), grow(s.y, n)
	for i := n - 1; i >= n-nb; i-- {
		iw := i - n + nb
		if i < n-1 {
			bi.Dgemv(blas.NoTrans, i+1, n-i-1, -1, a[i+1:], lda, w[i*ldw+iw+1:], 1, 1, a[i:], lda)
			bi.Dgemv(blas.NoTrans, i+1, n-i-1, -1, w[iw+1:], ldw, a[i*lda+i+1:], 1, 1, a[i:], lda)
		}
		if i == 0 {
			continue
		}
		e[i-1], tau[i-1] = lapackImpl.Dlarfg(i, a[(i-1)*lda+i], a[i:], lda)
		a[(i-1)*lda+i] = 1
		x, y := s.x[:i], s.y[:i]
		for r := range x {
			x[r] = a[r*lda+i]
		}
		symvLower(i, a, lda, x, y)
		for r, v := range y {
			w[r*ldw+iw] = v
		}
		if i < n-1 {
			bi.Dgemv(blas.Trans, i, n-i-1, 1, w[iw+1:], ldw, a[i:], lda, 0, w[(i+1)*ldw+iw:], ldw)
			bi.Dgemv(blas.NoTrans, i, n-i-1, -1, a[i+1:], lda, w[(i+1)*ldw+iw:], ldw, 1, w[iw:], ldw)
			bi.Dgemv(blas.Trans, i, n-i-1, 1, a[i+1:], lda, a[i:], lda, 0, w[(i+1)*ldw+iw:], ldw)
			bi.Dgemv(blas.NoTrans, i, n-i-1, -1, w[iw+1:], ldw, w[(i+1)*ldw+iw:], ldw, 1, w[iw:], ldw)
		}
		bi.Dscal(i, tau[i-1], w[iw:], ldw)
		alpha := -0.5 * tau[i-1] * bi.Ddot(i, w[iw:], ldw, a[i:], lda)
		bi.Daxpy(i, alpha, a[i:], lda, w[iw:], ldw)
	}
}

// symvLower sets y = A x for the m-by-m symmetric A whose lower triangle is in the
// column-major a, each column read once for both of its products, four at a time.
func symvLower(m int, a []float64, lda int, x, y []float64) {
	x, y = x[:m], y[:m]
	clear(y)
	c := 0
	for ; c+4 <= m; c += 4 {
		c0 := a[c*lda+c : c*lda+m]
		c1 := a[(c+1)*lda+c : (c+1)*lda+m]
		c2 := a[(c+2)*lda+c : (c+2)*lda+m]
		c3 := a[(c+3)*lda+c : (c+3)*lda+m]
		x0, x1, x2, x3 := x[c], x[c+1], x[c+2], x[c+3]
		// The 4-by-4 diagonal block, its lower triangle.
		a10, a20, a30 := c0[1], c0[2], c0[3]
		a21, a31, a32 := c1[2], c1[3], c2[3]
		y[c] += c0[0]*x0 + a10*x1 + a20*x2 + a30*x3
		y[c+1] += a10*x0 + c1[1]*x1 + a21*x2 + a31*x3
		y[c+2] += a20*x0 + a21*x1 + c2[2]*x2 + a32*x3
		y[c+3] += a30*x0 + a31*x1 + a32*x2 + c3[3]*x3
		var d0, d1, d2, d3 float64
		xs, ys := x[c+4:], y[c+4:]
		c0, c1, c2, c3 = c0[4:][:len(xs)], c1[4:][:len(xs)], c2[4:][:len(xs)], c3[4:][:len(xs)]
		ys = ys[:len(xs)]
		for r, xr := range xs {
			t0, t1, t2, t3 := c0[r], c1[r], c2[r], c3[r]
			ys[r] += t0*x0 + t1*x1 + t2*x2 + t3*x3
			d0 += t0 * xr
			d1 += t1 * xr
			d2 += t2 * xr
			d3 += t3 * xr
		}
		y[c] += d0
		y[c+1] += d1
		y[c+2] += d2
		y[c+3] += d3
	}
	for ; c < m; c++ {
		xc, xs, ys := x[c], x[c+1:], y[c+1:]
		col := a[c*lda+c+1 : c*lda+m]
		col, ys = col[:len(xs)], ys[:len(xs)]
		var d float64
		for r, v := range col {
			ys[r] += v * xc
			d += v * xs[r]
		}
		y[c] += a[c*lda+c]*xc + d
	}
}

// syr2kBlock is the width of syr2kLower's column blocks of C (see rankBlock).
const syr2kBlock = 48

// syr2kLower sets the lower triangle of the column-major n-by-n c to c - X^T W - W^T X for
// the k-by-n column-major x and w, with the gemm of hostgemm: the stacked [X; W] and
// [W; X] (2k-by-n) make it one product P^T Q of inner size 2k, run a block of columns at
// a time, the diagonal block in full into scratch.
func (s *dsyevWork) syr2kLower(n, k int, x []float64, ldx int, w []float64, ldw int, c []float64, ldc int) {
	if n == 0 {
		return
	}
	k2 := 2 * k
	s.p, s.q = grow(s.p, k2*n), grow(s.q, k2*n)
	s.tile = grow(s.tile, syr2kBlock*syr2kBlock)
	p, q := s.p, s.q
	for j := 0; j < n; j++ {
		xj, wj := x[j*ldx:j*ldx+k], w[j*ldw:j*ldw+k]
		copy(p[j*k2:], xj)
		copy(p[j*k2+k:], wj)
		copy(q[j*k2:], wj)
		copy(q[j*k2+k:], xj)
	}
	for j0 := 0; j0 < n; j0 += syr2kBlock {
		jb := min(syr2kBlock, n-j0)
		t := s.tile[:jb*jb]
		hostgemm.Gemm(blas.Trans, blas.NoTrans, jb, jb, k2, 1, p[j0*k2:], k2, q[j0*k2:], k2, 0, t, jb)
		for jj := 0; jj < jb; jj++ {
			col := c[(j0+jj)*ldc+j0 : (j0+jj)*ldc+j0+jb]
			for ii := jj; ii < jb; ii++ {
				col[ii] -= t[jj*jb+ii]
			}
		}
		if r0 := j0 + jb; r0 < n {
			hostgemm.Gemm(blas.Trans, blas.NoTrans, n-r0, jb, k2, -1, p[r0*k2:], k2, q[j0*k2:], k2, 1, c[j0*ldc+r0:], ldc)
		}
	}
}

// applyQ sets z to Q z for the n-by-n column-major z (leading dimension n) and the Q that
// dsytrd left in a and tau, dsytrdBlock reflectors at a time in compact WY form on hostgemm
// (LAPACK's larft and larfb): with V the block's vectors and T upper triangular (larft,
// forward), H(i0) ... H(i1) = I - V T V^T, so the block's H(i1) ... H(i0) = I - V T^T V^T,
// and the blocks apply in increasing order, the first reflectors first. Only Enabled callers
// may call it.
func (s *dsyevWork) applyQ(n int, a []float64, lda int, tau, z []float64) {
	const nb = dsytrdBlock
	s.p, s.q = grow(s.p, n*nb), grow(s.q, 2*n*nb)
	s.tile = grow(s.tile, nb*nb)
	for i0 := 0; i0 < n-1; i0 += nb {
		kb := min(nb, n-1-i0)
		r := i0 + kb // the rows the block's vectors touch
		v, t := s.p[:r*kb], s.tile[:kb*kb]
		clear(t)
		for c := 0; c < kb; c++ {
			i := i0 + c
			col := v[c*r : c*r+r]
			for row := 0; row < i; row++ {
				col[row] = a[row*lda+i+1]
			}
			col[i] = 1
			clear(col[i+1:])
			// T[0:c, c] = -tau_i T[0:c, 0:c] (V[:, 0:c]^T v_i); T[c, c] = tau_i.
			tc := t[c*kb : c*kb+kb]
			for p := 0; p < c; p++ {
				var dot float64
				for row, x := range v[p*r : p*r+i+1] {
					dot += x * col[row]
				}
				tc[p] = -tau[i] * dot
			}
			for p := 0; p < c; p++ { // upper triangular times a vector, in place from the top
				var sum float64
				for q := p; q < c; q++ {
					sum += t[q*kb+p] * tc[q]
				}
				tc[p] = sum
			}
			tc[c] = tau[i]
		}
		w, w2 := s.q[:kb*n], s.q[kb*n:2*kb*n]
		hostgemm.Gemm(blas.Trans, blas.NoTrans, kb, n, r, 1, v, r, z, n, 0, w, kb)
		hostgemm.Gemm(blas.Trans, blas.NoTrans, kb, n, kb, 1, t, kb, w, kb, 0, w2, kb)
		hostgemm.Gemm(blas.NoTrans, blas.NoTrans, r, n, kb, -1, v, r, w2, kb, 1, z, n)
	}
}

// scaleExp is the k for which 2^k anrm lies in [0.5, 1), when anrm, the largest element of a
// matrix in magnitude, lies outside [2^-16, 2^16]; 0 otherwise. Scaling by 2^k is exact.
// In that range the reductions neither overflow nor underflow harmfully, and
// tridiagEigen's assumptions hold.
func scaleExp(anrm float64) int {
	if anrm == 0 || anrm >= 0x1p-16 && anrm <= 0x1p16 {
		return 0
	}
	_, e := math.Frexp(anrm)
	return -e
}

// tridiagEigen solves the real symmetric tridiagonal eigenproblem (d on the diagonal, e
// beside it) with gonum's Dsteqr, compz and the rest as for Dsteqr, and returns LAPACK's
// info. The tridiagonal matrix must come from a matrix scaled as scaleExp says.
//
// It never lets gonum scale a block. gonum's Dsterf panics when it scales a block (it passes
// Dlascl a bad leading dimension), and its Dsteqr does not reset its scaling flag between
// unreduced blocks, so a block it scales followed by one it does not comes back wrongly
// scaled. In the range scaleExp ensures no block is large enough to be scaled down; a block
// small enough to be scaled up has every element below sqrt(safmin)/eps^2, about 1e-122,
// so it is set to zero, a perturbation far below eps ||A||.
func tridiagEigen(compz lapack.EVComp, d, e, z []float64, ldz int, work []float64) int {
	n := len(d)
	clearTinyBlocks(d, e[:n-1])
	if lapackImpl.Dsteqr(compz, n, d, e, z, ldz, work) {
		return 0
	}
	return unconverged(e[:n-1])
}

// zheevWork is one goroutine's workspace for zheev.
type zheevWork[T Complex] struct {
	h    []T // the Hermitian matrix (lower triangle), then the reflectors
	tau  []T
	y    []T
	d, e []float64 // the real tridiagonal matrix
	z    []float64 // its eigenvectors, column-major
	work []float64 // Dsteqr's
	// backTransform's block of vectors, its T and the products.
	v, t, w1, w2 []T
	stein        steinWork
}

// zheev computes the eigenvalues and optionally the eigenvectors of one finite Hermitian
// column-major matrix (n >= 1), as LAPACK's zheev: scale (scaleExp), reduce to a
// real tridiagonal matrix T = Q^H A Q, solve T = Z diag(w) Z^T in float64, and form V = Q Z
// in a. It returns LAPACK's info.
func zheev[T Complex, R Real](s *zheevWork[T], vectors, lower bool, n int, a []T, lda int, w []R) int {
	s.h, s.tau, s.y = grow(s.h, n*n), grow(s.tau, n), grow(s.y, n)
	s.d, s.e = grow(s.d, n), grow(s.e, n)
	hermitianLower(lower, n, a, lda, s.h)
	k := scaleExp(maxAbsLower(n, s.h))
	if k != 0 {
		for j := 0; j < n; j++ {
			col := s.h[j*n+j : j*n+n]
			for i, x := range col {
				c := complex128(x)
				col[i] = T(complex(math.Ldexp(real(c), k), math.Ldexp(imag(c), k)))
			}
		}
	}
	hetrd(n, s.h, s.d, s.e, s.tau, s.y)
	var info int
	if vectors {
		s.z = grow(s.z, n*n)
		if n < syevSteinMin {
			s.work = grow(s.work, max(1, 2*n-2))
			info = tridiagEigen(lapack.EVTridiag, s.d, s.e, s.z, n, s.work)
			transposeSquare(n, s.z, n)
		} else {
			info = tridiagVectors(s.d, s.e, s.z, n, &s.stein)
		}
		backTransform(s, n, s.z, a, lda)
	} else {
		info = tridiagEigen(lapack.EVCompNone, s.d, s.e, nil, 1, nil)
	}
	for i, v := range s.d {
		w[i] = R(math.Ldexp(v, -k))
	}
	return info
}

// hermitianLower copies the uplo triangle of a into the lower triangle of the packed h,
// conjugating an upper triangle and making the diagonal real.
func hermitianLower[T Complex](lower bool, n int, a []T, lda int, h []T) {
	for j := 0; j < n; j++ {
		col := h[j*n : j*n+n]
		if lower {
			copy(col[j:], a[j*lda+j:j*lda+n])
		} else {
			for i := j; i < n; i++ {
				col[i] = conj(a[i*lda+j])
			}
		}
		col[j] = T(complex(re(col[j]), 0))
	}
}

// maxAbsLower is the largest real or imaginary part in magnitude in the lower triangle of
// the packed n-by-n h.
func maxAbsLower[T Complex](n int, h []T) float64 {
	var m float64
	for j := 0; j < n; j++ {
		for _, x := range h[j*n+j : j*n+n] {
			c := complex128(x)
			m = max(m, math.Abs(real(c)), math.Abs(imag(c)))
		}
	}
	return m
}

// hetrd reduces the Hermitian matrix whose lower triangle is in the packed n-by-n h to real
// symmetric tridiagonal form T = Q^H A Q, as LAPACK's zhetd2 with uplo Lower: the diagonal
// goes to d, the subdiagonal to e, and Q = H(0) H(1) ... H(n-2) with H(i) = I - tau[i] v v^H,
// where v[0:i+1] = 0, v[i+1] = 1 and v[i+2:n] is stored in column i of h below the
// subdiagonal (h[i+1, i] holds the 1). y is scratch of length n.
func hetrd[T Complex](n int, h []T, d, e []float64, tau, y []T) {
	for i := 0; i < n-1; i++ {
		m := n - i - 1
		v := h[i*n+i+1 : i*n+n]
		beta, t := larfg(v[0], v[1:])
		e[i], tau[i] = beta, t
		v[0] = 1
		if t != 0 {
			// With y = tau A22 v - (tau/2)(y^H v) v, H^H A22 H = A22 - v y^H - y v^H.
			a22 := h[(i+1)*n+i+1:]
			y := y[:m]
			hemvLower(m, t, a22, n, v, y)
			alpha := -0.5 * t * dotc(y, v)
			for k := range y {
				y[k] += alpha * v[k]
			}
			her2Lower(m, a22, n, v, y)
		}
		d[i] = re(h[i*n+i])
	}
	d[n-1] = re(h[n*n-1])
}

// hemvLower sets y = tau A v for the m-by-m Hermitian A whose lower triangle is in a
// (leading dimension lda, real diagonal).
func hemvLower[T Complex](m int, tau T, a []T, lda int, v, y []T) {
	clear(y[:m])
	for j := 0; j < m; j++ {
		col := a[j*lda+j : j*lda+m]
		t1 := tau * v[j]
		var t2 T
		vs, ys := v[j+1:m], y[j+1:m]
		for i, x := range col[1:] {
			ys[i] += t1 * x
			t2 += conj(x) * vs[i]
		}
		y[j] += t1*T(complex(re(col[0]), 0)) + tau*t2
	}
}

// her2Lower sets A = A - v y^H - y v^H on the lower triangle of the m-by-m Hermitian A in a
// (leading dimension lda), keeping its diagonal real.
func her2Lower[T Complex](m int, a []T, lda int, v, y []T) {
	for j := 0; j < m; j++ {
		cy, cv := conj(y[j]), conj(v[j])
		col := a[j*lda+j : j*lda+m]
		vs, ys := v[j:m], y[j:m]
		for i := range col {
			col[i] -= vs[i]*cy + ys[i]*cv
		}
		col[0] = T(complex(re(col[0]), 0))
	}
}

// backTransform writes V = Q Z into a: Z is the real column-major n-by-n z and Q the
// product of the reflectors that hetrd left in s.h and s.tau, applied (from n =
// syevSteinMin on) dsytrdBlock at a time in compact WY form with gemmKernel (LAPACK's larft and larfb): with V a block's vectors
// and T upper triangular, its H(i0) H(i0+1) ... H(i1) = I - V T V^H, and Q Z = H(0) (H(1)
// (... (H(n-2) Z))) takes the blocks from the last.
func backTransform[T Complex](s *zheevWork[T], n int, z []float64, a []T, lda int) {
	for k := 0; k < n; k++ {
		col, zk := a[k*lda:k*lda+n], z[k*n:k*n+n]
		for i := range col {
			col[i] = T(complex(zk[i], 0))
		}
	}
	h, tau := s.h, s.tau
	if n < syevSteinMin {
		// Q Z = H(0) (H(1) ( ... (H(n-2) Z))), one reflector at a time.
		for i := n - 2; i >= 0; i-- {
			if t := tau[i]; t != 0 {
				v1 := h[i*n+i+2 : i*n+n]
				for k := 0; k < n; k++ {
					larfLeft(t, v1, a[k*lda+i+1:k*lda+n])
				}
			}
		}
		return
	}
	const nb = dsytrdBlock
	gemm := gemmKernel[T]()
	for i0 := (n - 2) / nb * nb; i0 >= 0 && n > 1; i0 -= nb {
		kb := min(nb, n-1-i0)
		ro, r := i0+1, n-i0-1 // the rows the block's vectors touch
		s.v, s.t = grow(s.v, r*kb), grow(s.t, kb*kb)
		v, t := s.v, s.t
		clear(t)
		for c := 0; c < kb; c++ {
			i := i0 + c
			col := v[c*r : c*r+r]
			clear(col[:c])
			col[c] = 1
			copy(col[c+1:], h[i*n+i+2:i*n+n])
			// T[0:c, c] = -tau_i T[0:c, 0:c] (V[:, 0:c]^H v_i); T[c, c] = tau_i.
			tc := t[c*kb : c*kb+kb]
			for p := 0; p < c; p++ {
				tc[p] = -tau[i] * dotc(v[p*r+c:p*r+r], col[c:])
			}
			for p := 0; p < c; p++ { // upper triangular times a vector, in place from the top
				var sum T
				for q := p; q < c; q++ {
					sum += t[q*kb+p] * tc[q]
				}
				tc[p] = sum
			}
			tc[c] = tau[i]
		}
		s.w1, s.w2 = grow(s.w1, kb*n), grow(s.w2, kb*n)
		gemm(ConjTrans, NoTrans, kb, n, r, 1, v, r, a[ro:], lda, 0, s.w1, kb)
		gemm(NoTrans, NoTrans, kb, n, kb, 1, t, kb, s.w1, kb, 0, s.w2, kb)
		gemm(NoTrans, NoTrans, r, n, kb, -1, v, r, s.w2, kb, 1, a[ro:], lda)
	}
}
