package batchlas

import (
	"math"

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

// Householder reflectors for the complex host kernels (LAPACK's zlarfg and zlarf), shared by
// geqrf, orgqr and ormqr. A reflector is H = I - tau v v^H with v = [1; v1]; the leading one
// is implicit, so that the kernels never write into the matrix that stores v1.

// larfgSafmin is LAPACK's dlamch('S')/dlamch('E') for float64: below it larfg rescales.
const larfgSafmin = 0x1p-1022 / 0x1p-53

// larfg generates the reflector H with H^H [alpha; x] = [beta; 0] and beta real, as LAPACK's
// zlarfg: x is overwritten by v1. tau is 0 (H = I) when x is zero and alpha real; otherwise
// 1 <= re(tau) <= 2 and |tau - 1| <= 1. The scalars are computed in complex128: exact for
// complex64 data (whose norms cannot reach larfgSafmin, so it is never rescaled) and, with
// LAPACK's rescaling when |beta| is tiny, safe from underflow for complex128. A NaN in the
// input gives NaN beta, tau and v1.
func larfg[T Complex](alpha T, x []T) (beta float64, tau T) {
	ar, ai := real(complex128(alpha)), imag(complex128(alpha))
	xnorm := nrm2(x)
	if xnorm == 0 && ai == 0 {
		return ar, 0
	}
	beta = -math.Copysign(math.Hypot(math.Hypot(ar, ai), xnorm), ar)
	knt := 0
	for ; math.Abs(beta) < larfgSafmin && knt < 20; knt++ {
		// xnorm and beta may be inaccurate: scale x up and recompute them.
		scal(x, complex(1/larfgSafmin, 0))
		beta /= larfgSafmin
		ar /= larfgSafmin
		ai /= larfgSafmin
	}
	if knt > 0 {
		beta = -math.Copysign(math.Hypot(math.Hypot(ar, ai), nrm2(x)), ar)
	}
	tau = T(complex((beta-ar)/beta, -ai/beta))
	scal(x, 1/(complex(ar, ai)-complex(beta, 0)))
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

// scal overwrites x by s x, multiplying in complex128.
func scal[T Complex](x []T, s complex128) {
	for i, v := range x {
		x[i] = T(complex128(v) * s)
	}
}

// reflectLeft overwrites the column c, of length len(v1)+1, by (I - tau v v^H) c.
func reflectLeft[T Complex](tau T, v1, c []T) {
	c1 := c[1 : len(v1)+1]
	tw := tau * (c[0] + dotc(v1, c1))
	c[0] -= tw
	for i, v := range v1 {
		c1[i] -= tw * v
	}
}

// reflectRight overwrites the r-by-(len(v1)+1) column-major block c (leading dimension ldc)
// by c (I - tau v v^H); w is scratch of length at least r.
func reflectRight[T Complex](tau T, v1, c []T, ldc, r int, w []T) {
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
