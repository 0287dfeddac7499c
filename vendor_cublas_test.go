//go:build cuda && !novendor

package batchlas

import (
	"fmt"
	"math"
	"testing"
	"unsafe"
)

// TestBLASQuick runs blasQuick and scaleMat, the quick return of every cuBLAS and cuSPARSE
// wrapper, on a CUDA queue (a GPU or the CPU emulator; no vendor library is called): a padded
// batch of 5-by-5 matrices, some of whose elements (imaginary parts of the diagonal among
// them) are NaN. Each element of the part must come back as BLAS's beta c (zero for beta 0
// whatever it held; a real diagonal for the Hermitian parts, its imaginary part never read),
// and every other element, the padding included, bit for bit.
func TestBLASQuick(t *testing.T) {
	q, err := NewQueue(CUDA)
	if err != nil {
		t.Skipf("no CUDA queue: %v", err)
	}
	defer q.Close()
	t.Run("f32", func(t *testing.T) { testBLASQuick[float32](t, q) })
	t.Run("f64", func(t *testing.T) { testBLASQuick[float64](t, q) })
	t.Run("c64", func(t *testing.T) { testBLASQuick[complex64](t, q) })
	t.Run("c128", func(t *testing.T) { testBLASQuick[complex128](t, q) })
}

func testBLASQuick[T Scalar](t *testing.T, q *Queue) {
	const n, ld, stride, batch = 5, 7, 38, 3
	c, err := NewMatrixStrided[T](q, n, n, ld, stride, batch)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	// Dyadic values and betas: every product is exact, so the device's result is known bit
	// for bit whatever its rounding and contraction.
	in := make([]T, c.extent())
	for k := range in {
		in[k] = scalarOf[T](float64(k%9)-4+0.25*float64(k%3), 0.5*float64(k%5)-1)
	}
	nan := math.NaN()
	for b := range batch {
		for j := range n {
			at := b*stride + j*ld
			in[at+j] = scalarOf[T](float64(j)-1.5, nan) // a Hermitian diagonal's imaginary part: not read
			in[at+(j+2)%n] = nanOf[T]()                 // read unless beta = 0
		}
	}
	cases := []struct {
		noProduct bool
		part      int
		beta      complex128
	}{
		{false, scaleAll, 0},    // a product to form: nothing is done here
		{true, scaleAll, 1},     // the quick return of beta 1: nothing
		{true, scaleAll, 0},     // zeros, NaN gone
		{true, scaleAll, -0.75}, // beta c, NaN kept
		{true, scaleAll, complex(0.5, -1.5)},
		{true, scaleLower, 0},
		{true, scaleUpper, complex(-2, 0.25)},
		{true, scaleLower | scaleHerm, 0},
		{true, scaleUpper | scaleHerm, complex(1.5, 3)}, // herk's beta is real: 3 unused
		{true, scaleLower | scaleUpper | scaleHerm, 1},  // the pre-step of the Hermitian updates
	}
	for _, tc := range cases {
		if !isComplex[T]() && imag(tc.beta) != 0 && tc.part&scaleHerm == 0 {
			continue
		}
		t.Run(fmt.Sprintf("quick%v_part%d_beta%v", tc.noProduct, tc.part, tc.beta), func(t *testing.T) {
			if err := c.UploadRaw(in); err != nil {
				t.Fatal(err)
			}
			beta := scalarOf[T](real(tc.beta), imag(tc.beta))
			var done bool
			var err error
			if tc.beta == 1 && tc.part&scaleHerm != 0 {
				err = scaleMat(q, c, tc.part, beta) // blasQuick would skip beta 1; the pre-step is this call
				done = true
			} else {
				done, err = blasQuick(q, tc.noProduct, c, tc.part, beta)
			}
			if err != nil {
				t.Fatal(err)
			}
			if done != tc.noProduct {
				t.Fatalf("done = %v, want %v", done, tc.noProduct)
			}
			got, err := c.DownloadRaw(nil)
			if err != nil {
				t.Fatal(err)
			}
			bad := 0
			for k := range in {
				b, j, i := k/stride, k%stride/ld, k%stride%ld
				ok := bitsEqual(got[k], in[k]) // outside the part, and where nothing is done: bit for bit
				if b < batch && j < n && i < n && done && (tc.beta != 1 || tc.part&scaleHerm != 0) && quickPart(tc.part, i, j) {
					ok = sameValue(got[k], quickWant(in[k], tc.part, i == j, tc.beta))
				}
				if !ok {
					if bad++; bad <= 4 {
						t.Errorf("matrix %d, element (%d, %d): %v, was %v", b, i, j, got[k], in[k])
					}
				}
			}
			if bad > 4 {
				t.Errorf("%d elements wrong", bad)
			}
		})
	}
}

// quickPart says whether element (i, j) is in the part.
func quickPart(part, i, j int) bool {
	return !(part&scaleLower != 0 && i < j || part&scaleUpper != 0 && i > j)
}

// quickWant is what scale_mat makes of x: BLAS's beta x, read as the reference BLAS reads it.
func quickWant[T Scalar](x T, part int, diag bool, beta complex128) T {
	v := complex128FromT(x)
	switch {
	case beta == 0:
		return scalarOf[T](0, 0)
	case part&scaleHerm == 0:
		v *= beta
	case diag:
		v = complex(real(beta)*real(v), 0)
	default:
		v = complex(real(beta)*real(v), real(beta)*imag(v))
	}
	return scalarOf[T](real(v), imag(v))
}

// complex128FromT is x widened.
func complex128FromT[T Scalar](x T) complex128 {
	switch v := any(x).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	}
	return any(x).(complex128)
}

// bitsEqual says whether x and y are the same bit pattern.
func bitsEqual[T Scalar](x, y T) bool {
	bx := unsafe.Slice((*byte)(unsafe.Pointer(&x)), unsafe.Sizeof(x))
	by := unsafe.Slice((*byte)(unsafe.Pointer(&y)), unsafe.Sizeof(y))
	return string(bx) == string(by)
}

// sameValue says whether each part of x and y is the same number (zeros of the same sign) or
// NaN in both.
func sameValue[T Scalar](x, y T) bool {
	a, b := complex128FromT(x), complex128FromT(y)
	same := func(u, v float64) bool {
		return u == v && math.Signbit(u) == math.Signbit(v) || math.IsNaN(u) && math.IsNaN(v)
	}
	return same(real(a), real(b)) && same(imag(a), imag(b))
}
