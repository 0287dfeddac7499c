package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestSyr2k(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testSyr2k[float32], testSyr2k[float64], testSyr2k[complex64], testSyr2k[complex128])
	})
}

func testSyr2k[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	testRank[T](t, q, rankOp{name: "syr2k", two: true})
}
