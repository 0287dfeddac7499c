package tests

// Helpers for the tests on batches of general matrices and their solves, shared by the LU,
// Cholesky and QR tests.

import (
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas"
)

// randGeneral returns a random rows-by-cols matrix per matrix of l, with the column plant[b]
// of matrix b exactly zero, and column plant[b]+2 too where there is one: info must name the
// first zero pivot, U(plant[b]+1, plant[b]+1) in LAPACK's 1-based terms.
func randGeneral[T batchlas.Scalar](rng *rand.Rand, l Layout, plant map[int]int) []Dense {
	full := make([]Dense, l.Batch)
	for b := range full {
		full[b] = RandDense[T](rng, l.Rows, l.Cols)
		if j, ok := plant[b]; ok {
			for i := 0; i < l.Rows; i++ {
				full[b].Set(i, j, 0)
				if j+2 < min(l.Rows, l.Cols) {
					full[b].Set(i, j+2, 0)
				}
			}
		}
	}
	return full
}

// storeAll stores full[b] as matrix b of a span of layout l whose gaps are NaN.
func storeAll[T batchlas.Scalar](l Layout, full []Dense) Stored[T] {
	s := NewStored[T](l)
	for b, d := range full {
		s.SetDense(b, d)
	}
	return s
}

// checkInfo fails t unless info[b] is plant[b]+1 for planted matrices and 0 for the others.
func checkInfo(t *testing.T, info []int32, plant map[int]int) {
	t.Helper()
	bad := 0
	for b, v := range info {
		want := int32(0)
		if j, ok := plant[b]; ok {
			want = int32(j + 1)
		}
		if v != want && bad < 5 {
			t.Errorf("matrix %d: info %d, want %d", b, v, want)
			bad++
		}
	}
}

// checked lists the matrices whose results get a residual check: a sample of the batch, the
// planted matrices and their neighbours.
func checked(batch int, plant map[int]int) []int {
	s := Sample(batch)
	for b := range plant {
		for _, c := range []int{b - 1, b, b + 1} {
			if c >= 0 && c < batch {
				s = append(s, c)
			}
		}
	}
	return s
}

// rhsLayout is the layout of n-by-nrhs right-hand sides padded as l.
func rhsLayout(l Layout, nrhs int) Layout {
	return Layout{Rows: l.Rows, Cols: nrhs, LDPad: l.LDPad, StridePad: l.StridePad, Batch: l.Batch}
}

// nrhsList is the right-hand side counts each solve is tested with.
func nrhsList(n int) []int {
	if n == 1 || n == 3 {
		return []int{1, 3}
	}
	return []int{1, 3, n}
}

// solveResidual is ||op(A) X - B|| / (n eps ||A|| ||X||).
func solveResidual[T batchlas.Scalar](trans batchlas.Transpose, a, x, b Dense) float64 {
	switch trans {
	case batchlas.Trans:
		a = Transpose(a)
	case batchlas.ConjTrans:
		a = Adjoint(a)
	}
	return Scaled(Sub(Mul(a, x), b), NormF(a)*NormF(x), a.R, Eps[T]())
}

// checkFactoredSolve solves op(A) X = B with solve for random B of nrhs columns, padded as a
// and with poisoned gaps, where a holds the factors stored in factor of the matrices full:
// a must not change, and every sampled X must be right.
func checkFactoredSolve[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, rng *rand.Rand, trans batchlas.Transpose, full []Dense, a *batchlas.Matrix[T], factor Stored[T], nrhs int, solve func(b *batchlas.Matrix[T]) error) {
	t.Helper()
	l := factor.Layout
	lb := rhsLayout(l, nrhs)
	rhs := randGeneral[T](rng, lb, nil)
	inB := storeAll[T](lb, rhs)
	b := Upload(t, q, inB)
	if err := solve(b); routeRefused(err) {
		t.Skipf("pinned family refuses %v with %d right-hand sides: %v", l, nrhs, err) // a family limited in n
	} else if err != nil {
		t.Fatalf("solve: %v", err)
	}
	x := Download(t, q, b, lb)
	Untouched(t, factor, Download(t, q, a, l), func(int, int, int) bool { return false })
	Untouched(t, inB, x, nil)
	for _, k := range Sample(l.Batch) {
		if r := solveResidual[T](trans, full[k], x.Dense(k), rhs[k]); r > Tol {
			t.Errorf("matrix %d: ||op(A) X - B|| / (n eps ||A|| ||X||) = %.3g > %d", k, r, Tol)
		}
	}
}
