package tests

import (
	"fmt"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGesv(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testGesv[float32], testGesv[float64], testGesv[complex64], testGesv[complex128])
	})
}

func testGesv[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	for _, l := range append(Empty(), SquareLayouts(3, 1, 2, 7, 16, 33)...) {
		for _, nrhs := range nrhsList(l.Rows) {
			t.Run(fmt.Sprintf("nrhs%d_%v", nrhs, l), func(t *testing.T) { checkGesv[T](t, q, l, nrhs, nil) })
		}
	}
	for _, l := range luLimits() {
		t.Run(fmt.Sprintf("limit_%v", l), func(t *testing.T) { checkGesv[T](t, q, l, 2, nil) })
	}
	// Singular matrices (an exactly zero column) in the middle of a saturating batch: their
	// info is the column plus one and their B is left unsolved; all others are solved.
	t.Run("planted", func(t *testing.T) {
		checkGesv[T](t, q, Layout{Rows: 10, Cols: 10, StridePad: 3, Batch: 1024}, 2, map[int]int{300: 0, 301: 9, 700: 4})
	})
	// The same past every dtype's cta limit (luLimits), where the blocked family solves.
	t.Run("planted241", func(t *testing.T) {
		checkGesv[T](t, q, Layout{Rows: 241, Cols: 241, LDPad: 1, Batch: 3}, 2, map[int]int{1: 120})
	})
}

func checkGesv[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, l Layout, nrhs int, plant map[int]int) {
	rng := NewRand(t)
	n := l.Rows
	full := randGeneral[T](rng, l, plant)
	in := storeAll[T](l, full)
	lb := rhsLayout(l, nrhs)
	rhs := randGeneral[T](rng, lb, nil)
	inB := storeAll[T](lb, rhs)
	a, b := Upload(t, q, in), Upload(t, q, inB)
	ipiv := PoisonedInfo(t, q, n*l.Batch)
	info := PoisonedInfo(t, q, l.Batch)
	if err := batchlas.Gesv(q, a, ipiv, b, info); routeRefused(err) {
		t.Skipf("pinned family refuses %v: %v", l, err) // only under a pin, as in checkPotrf
	} else if err != nil {
		t.Fatalf("Gesv: %v", err)
	}
	out, x := Download(t, q, a, l), Download(t, q, b, lb)
	piv := DownloadVector(t, q, ipiv)
	checkInfo(t, DownloadVector(t, q, info), plant)
	wantPivots(t, piv, l.Batch, n, n)
	Untouched(t, in, out, nil)
	Untouched(t, inB, x, func(k, _, _ int) bool { _, planted := plant[k]; return !planted })
	for _, k := range checked(l.Batch, plant) {
		if r := luResidual(full[k], out, k, piv[k*n:(k+1)*n]); r > Tol {
			t.Errorf("matrix %d: ||PA - LU|| / (n eps ||A||) = %.3g > %d", k, r, Tol)
		}
		if _, planted := plant[k]; planted {
			continue
		}
		if r := solveResidual[T](batchlas.NoTrans, full[k], x.Dense(k), rhs[k]); r > Tol {
			t.Errorf("matrix %d: ||A X - B|| / (n eps ||A|| ||X||) = %.3g > %d", k, r, Tol)
		}
	}
}
