package tests

import (
	"errors"
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
		// Past the steps of the "cta" kernel: orders over the 16 or 32 elements it solves at
		// a time in registers, more right-hand sides than the 64 threads of its block.
		for _, l := range []Layout{{Rows: 20, Cols: 20, LDPad: 2, StridePad: 1, Batch: 2}, {Rows: 45, Cols: 45, LDPad: 1, Batch: 2}} {
			t.Run(fmt.Sprintf("%v_nrhs70_%v", uplo, l), func(t *testing.T) { checkPotrs[T](t, q, uplo, l, 70) })
		}
	}
}

// checkPotrs factors random SPD matrices of layout l with Potrf and solves A X = B for random
// B with poisoned gaps; a must not change.
func checkPotrs[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, uplo batchlas.Uplo, l Layout, nrhs int) {
	rng := NewRand(t)
	full, in := randSPDStored[T](rng, uplo, l, nil)
	a := Upload(t, q, in)
	info := PoisonedInfo(t, q, l.Batch)
	var noRoute *batchlas.NoRouteError
	if err := batchlas.Potrf(q, uplo, a, info); errors.As(err, &noRoute) {
		// A queue without a vendor library (the CPU emulator) factors only what the native
		// families take.
		t.Skipf("no family factors %v here: %v", l, err)
	} else if err != nil {
		t.Fatalf("Potrf: %v", err)
	}
	checkInfo(t, DownloadVector(t, q, info), nil)
	checkFactoredSolve(t, q, rng, batchlas.NoTrans, full, a, Download(t, q, a, l), nrhs, func(b *batchlas.Matrix[T]) error {
		return batchlas.Potrs(q, uplo, a, b)
	})
}
