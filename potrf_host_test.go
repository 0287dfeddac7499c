package batchlas

import "testing"

// The host kernels stop at a NaN pivot with LAPACK's info (the conformance suite also
// accepts a NaN factor with info 0, which is what cuSOLVER gives).
func TestPotrfHostNaNInfo(t *testing.T) {
	t.Run("f32", potrfNaNInfo[float32])
	t.Run("f64", potrfNaNInfo[float64])
	t.Run("c64", potrfNaNInfo[complex64])
	t.Run("c128", potrfNaNInfo[complex128])
}

func potrfNaNInfo[T Scalar](t *testing.T) {
	for _, n := range []int{5, smallMax, 12, 100} {
		potrfNaNInfoN[T](t, n)
	}
}

func potrfNaNInfoN[T Scalar](t *testing.T, n int) {
	for _, lower := range []bool{true, false} {
		a := make([]T, n*n)
		for i := 0; i < n; i++ {
			a[i*n+i] = scalarOf[T](float64(n), 0)
			for j := 0; j < i; j++ {
				a[j*n+i], a[i*n+j] = 1, 1
			}
		}
		i, j := n/2, n/2-1 // a NaN in row n/2 of the stored triangle reaches pivot n/2
		if !lower {
			i, j = j, i
		}
		var zero T
		a[j*n+i] = zero / zero // NaN in every type
		if got := potrfKernel[T](n)()(lower, n, a, n); got != n/2+1 {
			t.Errorf("n=%d lower=%v: info %d, want %d", n, lower, got, n/2+1)
		}
	}
}
