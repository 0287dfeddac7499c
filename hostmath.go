package batchlas

import (
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

// isComplex reports whether T is a complex type.
func isComplex[T Scalar]() bool {
	switch any(*new(T)).(type) {
	case complex64, complex128:
		return true
	}
	return false
}
