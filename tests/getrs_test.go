package tests

import (
	"fmt"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGetrs(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testGetrs[float32], testGetrs[float64], testGetrs[complex64], testGetrs[complex128])
	})
}

func testGetrs[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	layouts := append(Empty(), SquareLayouts(3, 1, 2, 7, 16)...)
	for _, trans := range []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans, batchlas.ConjTrans} {
		for _, l := range layouts {
			for _, nrhs := range nrhsList(l.Rows) {
				t.Run(fmt.Sprintf("%v_nrhs%d_%v", trans, nrhs, l), func(t *testing.T) { checkGetrs[T](t, q, trans, l, nrhs) })
			}
		}
		t.Run(fmt.Sprintf("%v_saturating", trans), func(t *testing.T) {
			checkGetrs[T](t, q, trans, Layout{Rows: 8, Cols: 8, LDPad: 1, Batch: 1024}, 3)
		})
		for _, l := range luLimits() {
			t.Run(fmt.Sprintf("%v_limit_%v", trans, l), func(t *testing.T) { checkGetrs[T](t, q, trans, l, 2) })
		}
	}
}

// checkGetrs factors random matrices of layout l with Getrf and solves op(A) X = B for
// random B with poisoned gaps; a must not change.
func checkGetrs[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, trans batchlas.Transpose, l Layout, nrhs int) {
	rng := NewRand(t)
	full := randGeneral[T](rng, l, nil)
	a, ipiv, lu := factorLU[T](t, q, l, full, nil)
	checkFactoredSolve(t, q, rng, trans, full, a, lu, nrhs, func(b *batchlas.Matrix[T]) error {
		return batchlas.Getrs(q, trans, a, ipiv, b)
	})
}
