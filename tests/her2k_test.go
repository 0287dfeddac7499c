package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestHer2k(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testHer2k[float32], testHer2k[float64], testHer2k[complex64], testHer2k[complex128])
	})
}

func testHer2k[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	testRank[T](t, q, rankOp{name: "her2k", herm: true, two: true})
}
