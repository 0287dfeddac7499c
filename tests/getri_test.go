package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGetri(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testGetri[float32], testGetri[float64], testGetri[complex64], testGetri[complex128])
	})
}

func testGetri[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	layouts := append(Empty(), SquareLayouts(3, 1, 2, 3, 7, 16, 33)...)
	layouts = append(layouts, luLimits()...)
	for _, l := range append(layouts, Layout{Rows: 8, Cols: 8, Batch: 1024}) {
		t.Run(l.String(), func(t *testing.T) { checkGetri[T](t, q, l, nil) })
	}
	// Singular matrices in the middle of a saturating batch keep their LU factors.
	t.Run("planted", func(t *testing.T) {
		checkGetri[T](t, q, Layout{Rows: 9, Cols: 9, LDPad: 2, Batch: 1024}, map[int]int{400: 0, 401: 8, 600: 5})
	})
	// The same past every dtype's cta limit (luLimits), where the blocked family solves.
	t.Run("planted241", func(t *testing.T) {
		checkGetri[T](t, q, Layout{Rows: 241, Cols: 241, LDPad: 1, Batch: 3}, map[int]int{1: 120})
	})
}

// checkGetri factors random matrices of layout l with Getrf and inverts them with Getri.
func checkGetri[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, l Layout, plant map[int]int) {
	rng := NewRand(t)
	n := l.Rows
	full := randGeneral[T](rng, l, plant)
	a, ipiv, lu := factorLU[T](t, q, l, full, plant)
	info := PoisonedInfo(t, q, l.Batch)
	if err := batchlas.Getri(q, a, ipiv, info); routeRefused(err) {
		t.Skipf("pinned family refuses %v: %v", l, err) // only under a pin, as in checkPotrf
	} else if err != nil {
		t.Fatalf("Getri: %v", err)
	}
	inv := Download(t, q, a, l)
	checkInfo(t, DownloadVector(t, q, info), plant)
	Untouched(t, lu, inv, func(k, _, _ int) bool { _, planted := plant[k]; return !planted })
	for _, k := range checked(l.Batch, plant) {
		if _, planted := plant[k]; planted {
			continue
		}
		ai := inv.Dense(k)
		r := Scaled(Sub(Mul(full[k], ai), Identity(n)), NormF(full[k])*NormF(ai), n, Eps[T]())
		if r > Tol {
			t.Errorf("matrix %d: ||A inv(A) - I|| / (n eps ||A|| ||inv(A)||) = %.3g > %d", k, r, Tol)
		}
	}
}
