package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

// Trmm shares Trsm's argument rules; see testTriArgs and fuzzTri.

func TestTrmmArgs(t *testing.T) {
	testTriArgs(t, batchlas.Trmm[complex128], batchlas.TrmmBufferSize[complex128])
}

func FuzzTrmm(f *testing.F) { fuzzTri(f, batchlas.Trmm[complex128]) }
