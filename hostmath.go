package batchlas

import (
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	lapack "gonum.org/v1/gonum/lapack/gonum"
)

// The host backend calls gonum, which is row-major. A column-major matrix read row-major is
// its transpose, so calls swap the triangle (and, for BLAS, the operand order or side)
// instead of copying data.
var (
	blasImpl   gonum.Implementation
	lapackImpl lapack.Implementation
)

// Complex is the type set of the complex scalars; the project's own host kernels for complex
// data are written once over it.
type Complex interface {
	complex64 | complex128
}

// conj is the complex conjugate. Go has no real/imag for type parameters, so the value goes
// through complex128, which is exact for both types.
func conj[T Complex](x T) T {
	c := complex128(x)
	return T(complex(real(c), -imag(c)))
}

// re is the real part of x as float64.
func re[T Complex](x T) float64 { return real(complex128(x)) }

// abs2 is |x|^2.
func abs2[T Complex](x T) float64 {
	c := complex128(x)
	return real(c)*real(c) + imag(c)*imag(c)
}

// rowMajorUplo is the gonum triangle that holds a column-major triangle.
func rowMajorUplo(u Uplo) blas.Uplo {
	if u == Lower {
		return blas.Upper
	}
	return blas.Lower
}

// widenReal copies the r-by-c column-major matrix src (leading dimension lds) into dst
// (leading dimension ldd), converting between the two real types.
func widenReal[D, S float32 | float64](dst []D, ldd int, src []S, lds, r, c int) {
	for j := 0; j < c; j++ {
		d, s := dst[j*ldd:j*ldd+r], src[j*lds:j*lds+r]
		for i, v := range s {
			d[i] = D(v)
		}
	}
}

// widenCplx is widenReal for the complex types.
func widenCplx[D, S Complex](dst []D, ldd int, src []S, lds, r, c int) {
	for j := 0; j < c; j++ {
		d, s := dst[j*ldd:j*ldd+r], src[j*lds:j*lds+r]
		for i, v := range s {
			d[i] = D(v)
		}
	}
}

// grow returns s with length n, reusing its storage when it is large enough.
func grow[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n)
	}
	return s[:n]
}

// Column-major BLAS on gonum, for the four scalar types. A column-major matrix read
// row-major is its transpose, so each call swaps sides, triangles or operands while the
// transpose flag stays: op(A)^T of a column-major A is op of its row-major view.

// blasTrans is gonum's flag for t.
func blasTrans(t Transpose) blas.Transpose {
	switch t {
	case Trans:
		return blas.Trans
	case ConjTrans:
		return blas.ConjTrans
	}
	return blas.NoTrans
}

func blasDiag(unit bool) blas.Diag {
	if unit {
		return blas.Unit
	}
	return blas.NonUnit
}

// cmTrsm overwrites the m-by-n column-major B with op(A)^-1 B for the m-by-m triangular A
// (unit: its diagonal is taken as one). As B^T op(A)^T = X^T, gonum solves from the right.
func cmTrsm[T Scalar](uplo Uplo, trans Transpose, unit bool, m, n int, a []T, lda int, b []T, ldb int) {
	if m == 0 || n == 0 {
		return
	}
	s, ul, tr, dg := blas.Right, rowMajorUplo(uplo), blasTrans(trans), blasDiag(unit)
	switch a := any(a).(type) {
	case []float64:
		blasImpl.Dtrsm(s, ul, tr, dg, n, m, 1, a, lda, any(b).([]float64), ldb)
	case []float32:
		blasImpl.Strsm(s, ul, tr, dg, n, m, 1, a, lda, any(b).([]float32), ldb)
	case []complex128:
		blasImpl.Ztrsm(s, ul, tr, dg, n, m, 1, a, lda, any(b).([]complex128), ldb)
	case []complex64:
		blasImpl.Ctrsm(s, ul, tr, dg, n, m, 1, a, lda, any(b).([]complex64), ldb)
	}
}

// cmGeru is the rank-one update A += alpha x y^T of the m-by-n column-major A (no
// conjugation); x and y have strides incx and incy. Row-major, it is A^T += alpha y x^T.
func cmGeru[T Scalar](m, n int, alpha T, x []T, incx int, y []T, incy int, a []T, lda int) {
	if m == 0 || n == 0 {
		return
	}
	switch a := any(a).(type) {
	case []float64:
		blasImpl.Dger(n, m, any(alpha).(float64), any(y).([]float64), incy, any(x).([]float64), incx, a, lda)
	case []float32:
		blasImpl.Sger(n, m, any(alpha).(float32), any(y).([]float32), incy, any(x).([]float32), incx, a, lda)
	case []complex128:
		blasImpl.Zgeru(n, m, any(alpha).(complex128), any(y).([]complex128), incy, any(x).([]complex128), incx, a, lda)
	case []complex64:
		blasImpl.Cgeru(n, m, any(alpha).(complex64), any(y).([]complex64), incy, any(x).([]complex64), incx, a, lda)
	}
}

// cmGemv is y = alpha A x + beta y for the m-by-n column-major A and unit strides; row-major,
// it is the transposed product.
func cmGemv[T Scalar](m, n int, alpha T, a []T, lda int, x []T, beta T, y []T) {
	if m == 0 {
		return
	}
	tr := blas.Trans
	switch a := any(a).(type) {
	case []float64:
		blasImpl.Dgemv(tr, n, m, any(alpha).(float64), a, lda, any(x).([]float64), 1, any(beta).(float64), any(y).([]float64), 1)
	case []float32:
		blasImpl.Sgemv(tr, n, m, any(alpha).(float32), a, lda, any(x).([]float32), 1, any(beta).(float32), any(y).([]float32), 1)
	case []complex128:
		blasImpl.Zgemv(tr, n, m, any(alpha).(complex128), a, lda, any(x).([]complex128), 1, any(beta).(complex128), any(y).([]complex128), 1)
	case []complex64:
		blasImpl.Cgemv(tr, n, m, any(alpha).(complex64), a, lda, any(x).([]complex64), 1, any(beta).(complex64), any(y).([]complex64), 1)
	}
}

// cmTrmv is x = A x for the n-by-n column-major triangular A (unit: its diagonal is taken as
// one) and a unit-stride x; row-major, it is the transposed product.
func cmTrmv[T Scalar](uplo Uplo, unit bool, n int, a []T, lda int, x []T) {
	if n == 0 {
		return
	}
	ul, tr, dg := rowMajorUplo(uplo), blas.Trans, blasDiag(unit)
	switch a := any(a).(type) {
	case []float64:
		blasImpl.Dtrmv(ul, tr, dg, n, a, lda, any(x).([]float64), 1)
	case []float32:
		blasImpl.Strmv(ul, tr, dg, n, a, lda, any(x).([]float32), 1)
	case []complex128:
		blasImpl.Ztrmv(ul, tr, dg, n, a, lda, any(x).([]complex128), 1)
	case []complex64:
		blasImpl.Ctrmv(ul, tr, dg, n, a, lda, any(x).([]complex64), 1)
	}
}

// iamax is the index of the first element of the nonempty x of largest |x| (|Re x| + |Im x|
// for complex types), as BLAS's i?amax; NaN is never larger, as there.
func iamax[T Scalar](x []T) int {
	switch x := any(x).(type) {
	case []float64:
		return iamaxReal(x)
	case []float32:
		// gonum's Isamax takes |x| through its float32 bits: in a profile of getrfRec at
		// n = 512 (BenchmarkGetrfRecursive, recursive-f32) it took 23% of the time, this
		// loop 4%.
		return iamaxReal(x)
	case []complex128:
		return blasImpl.Izamax(len(x), x, 1)
	case []complex64:
		return blasImpl.Icamax(len(x), x, 1)
	}
	return 0
}

// iamaxReal is iamax for real x, in float64 (exact for float32).
func iamaxReal[F float32 | float64](x []F) int {
	idx, big := 0, math.Abs(float64(x[0]))
	for i, v := range x {
		if a := math.Abs(float64(v)); a > big {
			idx, big = i, a
		}
	}
	return idx
}

// absS is |x| for any scalar type.
func absS[T Scalar](x T) float64 {
	switch x := any(x).(type) {
	case float64:
		return math.Abs(x)
	case float32:
		return math.Abs(float64(x))
	case complex128:
		return cmplx.Abs(x)
	case complex64:
		return cmplx.Abs(complex128(x))
	}
	return 0
}

// reS is the real part of x for any scalar type, as float64.
func reS[T Scalar](x T) float64 {
	switch x := any(x).(type) {
	case float64:
		return x
	case float32:
		return float64(x)
	case complex128:
		return real(x)
	case complex64:
		return float64(real(x))
	}
	return 0
}

// conjS is the complex conjugate of x for any scalar type (x itself for real types).
func conjS[T Scalar](x T) T {
	switch v := any(x).(type) {
	case complex128:
		return any(conj(v)).(T)
	case complex64:
		return any(conj(v)).(T)
	}
	return x
}

// scal is x *= s.
func scal[T Scalar](x []T, s T) {
	for i := range x {
		x[i] *= s
	}
}

// Householder reflectors for the complex host kernels (LAPACK's zlarfg and zlarf), shared by
// geqrf, orgqr and ormqr. A reflector is H = I - tau v v^H with v = [1; v1]; the leading one
// is implicit, so that the kernels never write into the matrix that stores v1.

// larfgSafmin is LAPACK's dlamch('S')/dlamch('E') for float64: below it larfg rescales.
const larfgSafmin = 0x1p-1022 / 0x1p-53

// larfg generates the reflector H with H^H [alpha; x] = [beta; 0] and beta real, as LAPACK's
// zlarfg: x is overwritten by v1. tau is 0 (H = I) when x is zero and alpha real; otherwise
// 1 <= re(tau) <= 2 and |tau - 1| <= 1. The scalars are computed in complex128, and x is
// rescaled as in LAPACK when |beta| is so small that 1/(alpha - beta) could overflow; norms
// of complex64 data never come that low. A NaN or Inf in the input gives NaN tau and v1.
func larfg[T Complex](alpha T, x []T) (beta float64, tau T) {
	ar, ai := real(complex128(alpha)), imag(complex128(alpha))
	xnorm := nrm2(x)
	if xnorm == 0 && ai == 0 {
		return ar, 0
	}
	beta = -math.Copysign(math.Hypot(math.Hypot(ar, ai), xnorm), ar)
	knt, up := 0, complex(1/larfgSafmin, 0)
	for ; math.Abs(beta) < larfgSafmin && knt < 20; knt++ {
		// Scale x up, and later beta down, so that 1/(alpha - beta) stays finite.
		scal(x, T(up))
		beta /= larfgSafmin
		ar /= larfgSafmin
		ai /= larfgSafmin
	}
	if knt > 0 {
		beta = -math.Copysign(math.Hypot(math.Hypot(ar, ai), nrm2(x)), ar)
	}
	tau = T(complex((beta-ar)/beta, -ai/beta))
	scal(x, T(1/(complex(ar, ai)-complex(beta, 0))))
	for ; knt > 0; knt-- {
		beta *= larfgSafmin
	}
	return beta, tau
}

// nrm2 is the Euclidean norm of x, accumulated with scaling (as LAPACK's dznrm2) so that it
// neither overflows nor underflows.
func nrm2[T Complex](x []T) float64 {
	scale, ssq := 0.0, 1.0
	for _, v := range x {
		c := complex128(v)
		for _, p := range [2]float64{real(c), imag(c)} {
			if p == 0 {
				continue
			}
			if a := math.Abs(p); scale < a {
				r := scale / a
				ssq = 1 + ssq*r*r
				scale = a
			} else {
				r := a / scale
				ssq += r * r
			}
		}
	}
	return scale * math.Sqrt(ssq)
}

// larfLeft overwrites the column c, of length len(v1)+1, by (I - tau v v^H) c.
func larfLeft[T Complex](tau T, v1, c []T) {
	c1 := c[1 : len(v1)+1]
	tw := tau * (c[0] + dotc(v1, c1))
	c[0] -= tw
	for i, v := range v1 {
		c1[i] -= tw * v
	}
}

// larfRight overwrites the r-by-(len(v1)+1) column-major block c (leading dimension ldc)
// by c (I - tau v v^H); w is scratch of length at least r.
func larfRight[T Complex](tau T, v1, c []T, ldc, r int, w []T) {
	w = w[:r]
	copy(w, c[:r])
	for j, v := range v1 {
		cj := c[(j+1)*ldc : (j+1)*ldc+r]
		for i := range w {
			w[i] += cj[i] * v
		}
	}
	for i := range w {
		w[i] *= tau
	}
	c0 := c[:r]
	for i := range c0 {
		c0[i] -= w[i]
	}
	for j, v := range v1 {
		cj, cv := c[(j+1)*ldc:(j+1)*ldc+r], conj(v)
		for i := range cj {
			cj[i] -= w[i] * cv
		}
	}
}

// convert copies the r-by-c column-major src (leading dimension lds) into dst (leading
// dimension ldd), between a narrow type and its wide partner: float32 and float64, or
// complex64 and complex128. Host kernels use it to run narrow data through wide code.
func convert[D, S Scalar](dst []D, ldd int, src []S, lds, r, c int) {
	switch d := any(dst).(type) {
	case []float64:
		widenReal(d, ldd, any(src).([]float32), lds, r, c)
	case []float32:
		widenReal(d, ldd, any(src).([]float64), lds, r, c)
	case []complex128:
		widenCplx(d, ldd, any(src).([]complex64), lds, r, c)
	case []complex64:
		widenCplx(d, ldd, any(src).([]complex128), lds, r, c)
	}
}

// scalarOf is re + i*im in T (im dropped for real types).
func scalarOf[T Scalar](re, im float64) T {
	var v any
	switch any(*new(T)).(type) {
	case float32:
		v = float32(re)
	case float64:
		v = re
	case complex64:
		v = complex64(complex(re, im))
	case complex128:
		v = complex(re, im)
	}
	return v.(T)
}
