package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

// TestTrmm runs the trsm test's cases through Trmm; see checkTri.
func TestTrmm(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testTri[float32](true), testTri[float64](true), testTri[complex64](true), testTri[complex128](true))
	})
}
