package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestHemmArgs(t *testing.T) {
	testMultiplyArgs(t, "hemm", batchlas.Hemm[complex128], batchlas.HemmBufferSize[complex128])
}

func FuzzHemm(f *testing.F) { fuzzMultiply(f, batchlas.Hemm[complex64]) }
