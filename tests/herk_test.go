package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestHerk(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testHerk[float32], testHerk[float64], testHerk[complex64], testHerk[complex128])
	})
}

func testHerk[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	testRank[T](t, q, rankOp{name: "herk", herm: true})
}
