package tests

import (
	"fmt"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestPotrs(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testPotrs[float32], testPotrs[float64], testPotrs[complex64], testPotrs[complex128])
	})
}

func testPotrs[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	layouts := append(Empty(), SquareLayouts(3, 1, 2, 7, 16)...)
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		for _, l := range layouts {
			for _, nrhs := range nrhsList(l.Rows) {
				t.Run(fmt.Sprintf("%v_nrhs%d_%v", uplo, nrhs, l), func(t *testing.T) { checkPotrs[T](t, q, uplo, l, nrhs) })
			}
		}
		t.Run(fmt.Sprintf("%v_saturating", uplo), func(t *testing.T) {
			checkPotrs[T](t, q, uplo, Layout{Rows: 8, Cols: 8, StridePad: 2, Batch: 1024}, 3)
		})
	}
}

// checkPotrs factors random SPD matrices of layout l with Potrf and solves A X = B for random
// B with poisoned gaps; a must not change.
func checkPotrs[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, uplo batchlas.Uplo, l Layout, nrhs int) {
	rng := NewRand(t)
	full, in := randSPDStored[T](rng, uplo, l, nil)
	a := Upload(t, q, in)
	info := PoisonedInfo(t, q, l.Batch)
	if err := batchlas.Potrf(q, uplo, a, info); err != nil {
		t.Fatalf("Potrf: %v", err)
	}
	checkInfo(t, DownloadVector(t, q, info), nil)
	factor := Download(t, q, a, l)
	lb := rhsLayout(l, nrhs)
	rhs := randGeneral[T](rng, lb, nil)
	inB := storeAll[T](lb, rhs)
	b := Upload(t, q, inB)
	if err := batchlas.Potrs(q, uplo, a, b); err != nil {
		t.Fatalf("Potrs: %v", err)
	}
	x := Download(t, q, b, lb)
	Untouched(t, factor, Download(t, q, a, l), func(int, int, int) bool { return false })
	Untouched(t, inB, x, nil)
	for _, k := range Sample(l.Batch) {
		if r := solveResidual[T](batchlas.NoTrans, full[k], x.Dense(k), rhs[k]); r > Tol {
			t.Errorf("matrix %d: ||A X - B|| / (n eps ||A|| ||X||) = %.3g > %d", k, r, Tol)
		}
	}
}
