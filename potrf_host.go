package batchlas

import (
	"math"
)

// potrfHost factors every matrix with gonum's Dpotrf (float64), the project's complex
// Cholesky (complex64, complex128), or Dpotrf on a float64 copy (float32: as fast as a
// float32 kernel at these sizes, and more accurate).
func potrfHost[T Scalar](_ *Queue, c *potrfCall[T]) error {
	a, info := c.a, c.info.host()
	n, lower := a.rows, c.uplo == Lower
	newKernel := potrfKernel[T](n)
	hostBatch(a.batch, func(lo, hi int) {
		k := newKernel()
		for b := lo; b < hi; b++ {
			info[b] = int32(k(lower, n, a.mat(b), a.ld))
		}
	})
	return nil
}

// potrfKernel returns a constructor of single-matrix Cholesky kernels for order n; each
// goroutine makes its own, since a kernel may keep scratch space. float32 and complex64 run
// in double precision on a copy: Go's complex64 arithmetic is slower than complex128, and the
// copy costs O(n^2) against the O(n^3) factorization. Real matrices of orders 1 to smallMax
// run potrfUnrolled's straight-line kernels.
func potrfKernel[T Scalar](n int) func() func(lower bool, n int, a []T, lda int) int {
	var k any
	switch any(*new(T)).(type) {
	case float64:
		if 1 <= n && n <= smallMax {
			k = unrolledPotrf[float64](n)
			break
		}
		k = func() func(bool, int, []float64, int) int { return dpotrf }
	case complex128:
		k = func() func(bool, int, []complex128, int) int { return zpotrf[complex128] }
	case float32:
		if 1 <= n && n <= smallMax {
			k = unrolledPotrf[float32](n)
			break
		}
		k = widenedPotrf(dpotrf, widenReal[float64, float32], widenReal[float32, float64])
	case complex64:
		k = widenedPotrf(zpotrf[complex128], widenCplx[complex128, complex64], widenCplx[complex64, complex128])
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
func widenedPotrf[T, W any](kern func(bool, int, []W, int) int,
	up func([]W, int, []T, int, int, int), down func([]T, int, []W, int, int, int)) func() func(bool, int, []T, int) int {
	return func() func(bool, int, []T, int) int {
		var w []W
		return func(lower bool, n int, a []T, lda int) int {
			ldw := max(1, n)
			w = grow(w, ldw*n)
			up(w, ldw, a, lda, n, n)
			info := kern(lower, n, w, ldw)
			down(a, lda, w, ldw, n, n)
			return info
		}
	}
}

// smallMax is the largest order that the host's small-matrix kernels take: the straight-line
// ones that internal/smallgen writes (potrfUnrolled, getrfUnrolled, geqrfUnrolled) and the
// loops for rectangular matrices (getrfSmall, geqrfSmall), with no allocation and no
// library call per matrix.
const smallMax = 8

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
