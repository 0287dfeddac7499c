package tests

import (
	"fmt"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestPosv(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testPosv[float32], testPosv[float64], testPosv[complex64], testPosv[complex128])
	})
}

func testPosv[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		for _, l := range append(Empty(), SquareLayouts(3, 1, 2, 7, 16, 33)...) {
			for _, nrhs := range nrhsList(l.Rows) {
				t.Run(fmt.Sprintf("%v_nrhs%d_%v", uplo, nrhs, l), func(t *testing.T) { checkPosv[T](t, q, uplo, l, nrhs, nil) })
			}
		}
		// More right-hand sides than the 64 threads of the "cta" kernel's block.
		l := Layout{Rows: 20, Cols: 20, LDPad: 1, StridePad: 2, Batch: 2}
		t.Run(fmt.Sprintf("%v_nrhs70_%v", uplo, l), func(t *testing.T) { checkPosv[T](t, q, uplo, l, 70, nil) })
		// Matrices that are not positive definite in the middle of a saturating batch: info
		// names the failing minor and their B is left unsolved; all others are solved.
		t.Run(fmt.Sprintf("%v_planted", uplo), func(t *testing.T) {
			checkPosv[T](t, q, uplo, Layout{Rows: 10, Cols: 10, LDPad: 1, Batch: 1024}, 2, map[int]int{511: 0, 512: 5, 513: 9})
		})
	}
}

func checkPosv[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, uplo batchlas.Uplo, l Layout, nrhs int, plant map[int]int) {
	rng := NewRand(t)
	lower := uplo == batchlas.Lower
	full, in := randSPDStored[T](rng, uplo, l, plant)
	lb := rhsLayout(l, nrhs)
	rhs := randGeneral[T](rng, lb, nil)
	inB := storeAll[T](lb, rhs)
	a, b := Upload(t, q, in), Upload(t, q, inB)
	info := PoisonedInfo(t, q, l.Batch)
	if err := batchlas.Posv(q, uplo, a, b, info); routeRefused(err) {
		// Only under a pin: a family limited in n (posv "cta" by potrf's native families)
		// refuses the larger shapes.
		t.Skipf("pinned family refuses %v: %v", l, err)
	} else if err != nil {
		t.Fatalf("Posv: %v", err)
	}
	out, x := Download(t, q, a, l), Download(t, q, b, lb)
	checkInfo(t, DownloadVector(t, q, info), plant)
	Untouched(t, in, out, func(_, i, j int) bool { return InTriangle(lower, i, j) })
	Untouched(t, inB, x, func(k, _, _ int) bool { _, planted := plant[k]; return !planted })
	for _, k := range checked(l.Batch, plant) {
		if _, planted := plant[k]; planted {
			continue
		}
		if r := cholResidual(full[k], out, k, lower); r > Tol {
			t.Errorf("matrix %d: ||A - LL^H|| / (n eps ||A||) = %.3g > %d", k, r, Tol)
		}
		if r := solveResidual[T](batchlas.NoTrans, full[k], x.Dense(k), rhs[k]); r > Tol {
			t.Errorf("matrix %d: ||A X - B|| / (n eps ||A|| ||X||) = %.3g > %d", k, r, Tol)
		}
	}
}
