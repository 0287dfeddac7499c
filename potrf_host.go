package batchlas

import (
	"math"

	"gonum.org/v1/gonum/blas"

	"github.com/batchlas/batchlas/internal/hostgemm"
	"github.com/batchlas/batchlas/internal/hostkern"
)

// potrfHost factors every matrix with potrfKernel's kernel for its order and dtype (real:
// straight-line code up to smallMax, two matrices at a time from order 5 (potrfPairUnrolled),
// a leaf kernel up to potrfRecMin, the recursive factorization on the packed gemm above it;
// complex: the project's complex Cholesky).
func potrfHost[T Scalar](_ *Queue, c *potrfCall[T]) error {
	a, info := c.a, c.info.host()
	n, lower := a.rows, c.uplo == Lower
	newKernel := potrfKernel[T](n)
	var pair func(lower bool, a0, a1 []T, lda int) (int, int)
	switch any(*new(T)).(type) {
	case float64:
		if f := potrfPairUnrolled[float64](n); f != nil {
			pair = any(f).(func(bool, []T, []T, int) (int, int))
		}
	case float32:
		if f := potrfPairUnrolled[float32](n); f != nil {
			pair = any(f).(func(bool, []T, []T, int) (int, int))
		}
	}
	hostBatch(a.batch, func(lo, hi int) {
		b := lo
		if pair != nil {
			for ; b+1 < hi; b += 2 {
				i0, i1 := pair(lower, a.mat(b), a.mat(b+1), a.ld)
				info[b], info[b+1] = int32(i0), int32(i1)
			}
		}
		k := newKernel()
		for ; b < hi; b++ {
			info[b] = int32(k(lower, n, a.mat(b), a.ld))
		}
	})
	return nil
}

// potrfKernel returns a constructor of single-matrix Cholesky kernels for order n; each
// goroutine makes its own, since a kernel may keep scratch space. Real matrices of orders 1
// to smallMax run potrfUnrolled's straight-line kernels, larger ones newPotrf's. complex64
// runs in double precision on a copy: Go's complex64 arithmetic is slower than complex128,
// and the copy costs O(n^2) against the O(n^3) factorization.
func potrfKernel[T Scalar](n int) func() func(lower bool, n int, a []T, lda int) int {
	var k any
	switch any(*new(T)).(type) {
	case float64:
		if 1 <= n && n <= smallMax {
			k = unrolledPotrf[float64](n)
			break
		}
		k = newPotrf[float64]
	case complex128:
		k = func() func(bool, int, []complex128, int) int { return zpotrf[complex128] }
	case float32:
		if 1 <= n && n <= smallMax {
			k = unrolledPotrf[float32](n)
			break
		}
		k = newPotrf[float32]
	case complex64:
		z := func() func(bool, int, []complex128, int) int { return zpotrf[complex128] }
		k = widenedPotrf(z, widenCplx[complex128, complex64], widenCplx[complex64, complex128])
	}
	return k.(func() func(bool, int, []T, int) int)
}

// unrolledPotrf adapts potrfUnrolled's kernel of order n to potrfKernel's form.
func unrolledPotrf[F float32 | float64](n int) func() func(bool, int, []F, int) int {
	f := potrfUnrolled[F](n)
	return func() func(bool, int, []F, int) int {
		return func(lower bool, _ int, a []F, lda int) int { return f(lower, a, lda) }
	}
}

// widenedPotrf runs a double-precision kernel on a single-precision matrix through scratch.
// Only the uplo triangle goes to the scratch and back: the other triangle is the caller's,
// and may be another call's triangle of the same storage.
func widenedPotrf[T, W any](newKern func() func(bool, int, []W, int) int,
	up func([]W, int, []T, int, int, int), down func([]T, int, []W, int, int, int)) func() func(bool, int, []T, int) int {
	return func() func(bool, int, []T, int) int {
		var w []W
		kern := newKern()
		return func(lower bool, n int, a []T, lda int) int {
			ldw := max(1, n)
			w = grow(w, ldw*n)
			eachTriColumn(lower, n, func(j, i0, i1 int) { up(w[j*ldw+i0:], ldw, a[j*lda+i0:], lda, i1-i0, 1) })
			info := kern(lower, n, w, ldw)
			eachTriColumn(lower, n, func(j, i0, i1 int) { down(a[j*lda+i0:], lda, w[j*ldw+i0:], ldw, i1-i0, 1) })
			return info
		}
	}
}

// eachTriColumn calls f(j, i0, i1) for each column j of the uplo triangle, diagonal
// included, of an n-by-n matrix: rows i0 <= i < i1 of column j are in the triangle.
func eachTriColumn(lower bool, n int, f func(j, i0, i1 int)) {
	for j := 0; j < n; j++ {
		if lower {
			f(j, j, n)
		} else {
			f(j, 0, j+1)
		}
	}
}

// smallMax is the largest order that the host's small-matrix kernels take: the straight-line
// ones that internal/smallgen writes (potrfUnrolled, getrfUnrolled, geqrfUnrolled) and the
// loops for rectangular matrices (getrfSmall, geqrfSmall), with no allocation and no
// library call per matrix.
const smallMax = 8

// potrfRecMin is the order up to which gonum's Dpotrf (unblocked at these orders), or
// newSpotrf's kernel, is faster than the recursion, so that newPotrf and the recursion hand it
// such diagonal blocks; potrfLeaf the order up to which the recursion's trsm hands its blocks
// to gonum's trsm. BenchmarkPotrfRecursive, one core: at n = 64 Dpotrf takes 9-11 us, the recursion 12-30;
// trsm leaves of 16 against 64 took 0.059 against 0.089 ms at n = 128 (lower), 0.30 against
// 0.48 at 256, 1.8 against 2.1 at 512. With syrk's one packed call (load 1-2), diagonal
// blocks of 32 or 16 rather than 64 were slower at n = 128: 0.031-0.037 ms against
// 0.033-0.035 in float64 and float32.
const potrfLeaf, potrfRecMin = 16, 64

// newPotrf returns a real Cholesky kernel with its own scratch: up to potrfRecMin gonum's
// Dpotrf (dpotrf) or newSpotrf's float32 kernel, above it the recursive factorization of
// Gustavson (potrfRec) in F, whose triangular solves are recursive too and whose symmetric
// updates are one triangular packed gemm (hostgemm.Syrk), so that nearly all flops run in the
// packed gemm of F (float32 at twice float64's rate).
func newPotrf[F float32 | float64]() func(lower bool, n int, a []F, lda int) int {
	var leaf any = dpotrf
	if _, ok := any(F(0)).(float32); ok {
		leaf = newSpotrf()
	}
	r := potrfRec[F]{gemm: gemmKernel[F](), leaf: leaf.(func(bool, int, []F, int) int)}
	return func(lower bool, n int, a []F, lda int) int {
		r.lower = lower
		return r.potrf(n, a, lda)
	}
}

// potrfRec is the recursive Cholesky A = L L^T of one real matrix, in place. Blocks are
// named and addressed in L's coordinates: block (r, c) of L lies at a[r + c*lda] in the
// lower triangle, and transposed, at a[c + r*lda], in the upper one (there U = L^T), so that
// one code serves both triangles with the transposes of its gemms swapped.
type potrfRec[F float32 | float64] struct {
	lower bool
	gemm  gemmFunc[F]
	leaf  func(lower bool, n int, a []F, lda int) int // the diagonal blocks up to potrfRecMin
}

// at is the offset of element (r, c) of L.
func (p *potrfRec[F]) at(r, c, ld int) int {
	if p.lower {
		return r + c*ld
	}
	return c + r*ld
}

// half splits an order n > 16 of the recursive factorizations (potrfRec, getrfRec): the
// first part is a multiple of 8, for the gemm tiles, and at least 8 less than n.
func half(n int) int { return (n/2 + 7) &^ 7 }

// potrf factors the order-n matrix a and returns LAPACK's info.
func (p *potrfRec[F]) potrf(n int, a []F, lda int) int {
	if n <= potrfRecMin {
		return p.leaf(p.lower, n, a, lda)
	}
	n1 := half(n)
	n2 := n - n1
	if info := p.potrf(n1, a, lda); info != 0 {
		return info
	}
	a21, a22 := a[p.at(n1, 0, lda):], a[p.at(n1, n1, lda):]
	p.trsm(n2, n1, a, lda, a21, lda)
	p.syrk(n2, n1, a21, lda, a22, lda)
	if info := p.potrf(n2, a22, lda); info != 0 {
		return n1 + info
	}
	return 0
}

// gemmT is C = beta C - X Y^T for C m-by-n, X m-by-k and Y n-by-k, in L's coordinates (the
// upper triangle stores each block transposed, so there C^T = beta C^T - Y X^T).
func (p *potrfRec[F]) gemmT(m, n, k int, x []F, ldx int, y []F, ldy int, beta F, c []F, ldc int) {
	if p.lower {
		p.gemm(NoTrans, Trans, m, n, k, -1, x, ldx, y, ldy, beta, c, ldc)
		return
	}
	p.gemm(Trans, NoTrans, n, m, k, -1, y, ldy, x, ldx, beta, c, ldc)
}

// trsm overwrites the m-by-k b by b L^-T for the order-k lower triangular l.
func (p *potrfRec[F]) trsm(m, k int, l []F, ldl int, b []F, ldb int) {
	if k <= potrfLeaf {
		if p.lower {
			// Row-major, b is B^T and l is L^T: B^T := L^-1 B^T, L^-1 = (L^T)^-T.
			switch b := any(b).(type) {
			case []float64:
				blasImpl.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, k, m, 1, any(l).([]float64), ldl, b, ldb)
			case []float32:
				blasImpl.Strsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, k, m, 1, any(l).([]float32), ldl, b, ldb)
			}
		} else {
			// Column-major, b holds B^T and l holds U = L^T: B^T := U^-T B^T, each column
			// of B^T by forward substitution with dots down the columns of U (gonum's
			// right-side row-major trsm, the equivalent call, is slower at these sizes).
			for c := 0; c < m; c++ {
				x := b[c*ldb : c*ldb+k]
				for i := range x {
					ui := l[i*ldl : i*ldl+i+1]
					s := x[i]
					for j, u := range ui[:i] {
						s -= u * x[j]
					}
					x[i] = s / ui[i]
				}
			}
		}
		return
	}
	k1 := half(k)
	k2 := k - k1
	p.trsm(m, k1, l, ldl, b, ldb)
	b2 := b[p.at(0, k1, ldb):]
	p.gemmT(m, k2, k1, b, ldb, l[p.at(k1, 0, ldl):], ldl, 1, b2, ldb)
	p.trsm(m, k2, l[p.at(k1, k1, ldl):], ldl, b2, ldb)
}

// syrk subtracts x x^T from the order-n c, x n-by-k, in c's triangle only: internal/hostgemm's
// Syrk, which packs x once and computes only the tiles that meet the triangle, or gonum's
// Ssyrk and Dsyrk where the CPU has no gemm kernel. Row-major, gonum sees the transposed
// blocks, so the triangle and the transposition swap.
func (p *potrfRec[F]) syrk(n, k int, x []F, ldx int, c []F, ldc int) {
	tr, ul, rowTr := blas.NoTrans, blas.Upper, blas.Trans
	if !p.lower {
		tr, ul, rowTr = blas.Trans, blas.Lower, blas.NoTrans
	}
	if hostgemm.Enabled() {
		hostgemm.Syrk(p.lower, tr, n, k, -1, x, ldx, c, ldc)
		return
	}
	switch x := any(x).(type) {
	case []float64:
		blasImpl.Dsyrk(ul, rowTr, n, k, -1, x, ldx, 1, any(c).([]float64), ldc)
	case []float32:
		blasImpl.Ssyrk(ul, rowTr, n, k, -1, x, ldx, 1, any(c).([]float32), ldc)
	}
}

// dpotrf factors one column-major matrix with gonum and returns LAPACK's info.
func dpotrf(lower bool, n int, a []float64, lda int) int {
	u := Upper
	if lower {
		u = Lower
	}
	if lapackImpl.Dpotrf(rowMajorUplo(u), n, a, lda) {
		return 0
	}
	// Dpotrf stops at the first non-positive pivot and leaves it on the diagonal, after
	// pivots that are square roots of positive numbers.
	for j := 0; j < n; j++ {
		if !(a[j*lda+j] > 0) {
			return j + 1
		}
	}
	return n
}

// newSpotrf returns the float32 kernel of the diagonal blocks up to potrfRecMin, with its own
// scratch: hostkern's AVX2 kernel, the upper triangle through a transposed copy (U = L^T,
// an O(n^2) copy against the O(n^3) factorization), or where the CPU has no AVX2 gonum's
// Dpotrf on a float64 copy of the triangle. At n = 128 (one core) the float64 leaves took
// half of float32 potrf's time, a quarter of it in the copies.
func newSpotrf() func(lower bool, n int, a []float32, lda int) int {
	if !hostkern.Enabled() {
		d := func() func(bool, int, []float64, int) int { return dpotrf }
		return widenedPotrf(d, widenReal[float64, float32], widenReal[float32, float64])()
	}
	var w []float32
	return func(lower bool, n int, a []float32, lda int) int {
		if lower || n == 0 {
			return hostkern.Lower32(n, a, lda)
		}
		w = grow(w, n*n)
		for j := 0; j < n; j++ {
			for i, v := range a[j*lda : j*lda+j+1] {
				w[j+i*n] = v
			}
		}
		info := hostkern.Lower32(n, w, n)
		for j := 0; j < n; j++ {
			col := a[j*lda : j*lda+j+1]
			for i := range col {
				col[i] = w[j+i*n]
			}
		}
		return info
	}
}

// zpotrf is an unblocked left-looking complex Cholesky of one column-major matrix; it
// returns LAPACK's info.
func zpotrf[T Complex](lower bool, n int, a []T, lda int) int {
	for j := 0; j < n; j++ {
		col := a[j*lda : j*lda+n]
		d := re(col[j])
		if lower {
			// Column j of L: a[j:n, j] -= L[j:n, 0:j] * conj(L[j, 0:j])^T.
			for k := 0; k < j; k++ {
				lk := a[k*lda : k*lda+n]
				d -= abs2(lk[j])
				ljk := conj(lk[j])
				for i := j + 1; i < n; i++ {
					col[i] -= lk[i] * ljk
				}
			}
		} else {
			// Row j of U, read down column i: a[j, i] -= U[0:j, j]^H U[0:j, i].
			d -= sumAbs2(col[:j])
			for i := j + 1; i < n; i++ {
				ci := a[i*lda : i*lda+j+1]
				ci[j] -= dotc(col[:j], ci[:j])
			}
		}
		if !(d > 0) {
			col[j] = T(complex(d, 0))
			return j + 1
		}
		d = math.Sqrt(d)
		col[j] = T(complex(d, 0))
		r := T(complex(1/d, 0))
		if lower {
			for i := j + 1; i < n; i++ {
				col[i] *= r
			}
		} else {
			for i := j + 1; i < n; i++ {
				a[i*lda+j] *= r
			}
		}
	}
	return 0
}

// dotc is x^H y.
func dotc[T Complex](x, y []T) T {
	var s T
	for i, v := range x {
		s += conj(v) * y[i]
	}
	return s
}

func sumAbs2[T Complex](x []T) float64 {
	var s float64
	for _, v := range x {
		s += abs2(v)
	}
	return s
}
