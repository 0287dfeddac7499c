package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestHemm(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testHemm[float32], testHemm[float64], testHemm[complex64], testHemm[complex128])
	})
}

// testHemm runs hemm like symm. A's diagonal is stored with nonzero imaginary parts (for
// complex types), which the reference, like hemm, takes as zero.
func testHemm[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) { testMultiply[T](t, q, true) }
