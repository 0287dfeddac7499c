package tests

import (
	"fmt"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestPotrf(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testPotrf[float32], testPotrf[float64], testPotrf[complex64], testPotrf[complex128])
	})
}

func testPotrf[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	layouts := append(Empty(), SquareLayouts(5, 1, 2, 3, 7, 16, 33, 64)...)
	layouts = append(layouts, Layout{Rows: 8, Cols: 8, Batch: 1024}, Layout{Rows: 2, Cols: 2, Batch: 70000})
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		for _, l := range layouts {
			t.Run(fmt.Sprintf("%v_%v", uplo, l), func(t *testing.T) {
				checkPotrf[T](t, q, uplo, l, nil)
			})
		}
		// Planted failures in the middle of a saturating batch: a negative pivot at order
		// k+1 and a NaN; every other matrix must still be right.
		t.Run(fmt.Sprintf("%v_planted", uplo), func(t *testing.T) {
			checkPotrf[T](t, q, uplo, Layout{Rows: 12, Cols: 12, LDPad: 1, Batch: 1024}, map[int]int{
				517: 6, 518: -1, 1023: 0,
			})
		})
	}
}

// checkPotrf factors random SPD matrices of layout l with the other triangle and every gap
// poisoned. plant maps a matrix to the 0-based diagonal position made negative (info must be
// that plus one), or -1 for a matrix holding a NaN at (n/2, n/2-1) and (n/2-1, n/2) (info
// must be n/2+1: the NaN reaches that pivot, and a NaN pivot is not positive).
func checkPotrf[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, uplo batchlas.Uplo, l Layout, plant map[int]int) {
	rng := NewRand(t)
	lower := uplo == batchlas.Lower
	n := l.Rows
	in := NewStored[T](l)
	full := make([]Dense, l.Batch)
	for b := range full {
		full[b] = RandSPD[T](rng, n)
		if k, ok := plant[b]; ok {
			if k >= 0 {
				full[b].Set(k, k, complex(-float64(4*n), 0))
			} else {
				full[b].Set(n/2, n/2-1, complex(nan(), 0))
				full[b].Set(n/2-1, n/2, complex(nan(), 0))
			}
		}
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				if InTriangle(lower, i, j) {
					in.Set(b, i, j, From[T](full[b].At(i, j)))
				}
			}
		}
	}
	a := Upload(t, q, in)
	info := PoisonedInfo(t, q, l.Batch)
	if err := batchlas.Potrf(q, uplo, a, info); err != nil {
		t.Fatalf("Potrf: %v", err)
	}
	out := Download(t, q, a, l)
	got := DownloadVector(t, q, info)
	Untouched(t, in, out, func(b, i, j int) bool { return InTriangle(lower, i, j) })

	for b, v := range got {
		k, planted := plant[b]
		switch {
		case planted && k >= 0 && v != int32(k+1):
			t.Errorf("matrix %d: info %d, want %d (planted negative pivot)", b, v, k+1)
		case planted && k < 0 && v != int32(n/2+1):
			t.Errorf("matrix %d holds NaN in row %d: info %d, want %d", b, n/2, v, n/2+1)
		case !planted && v != 0:
			t.Errorf("matrix %d: info %d, want 0", b, v)
		}
	}
	for _, b := range append(Sample(l.Batch), keys(plant)...) {
		if _, planted := plant[b]; planted || b >= l.Batch {
			continue
		}
		f := Triangle(out.Dense(b), lower, false)
		var llh Dense
		if lower {
			llh = Mul(f, Adjoint(f))
		} else {
			llh = Mul(Adjoint(f), f)
		}
		if r := Scaled(Sub(full[b], llh), NormF(full[b]), n, Eps[T]()); r > Tol {
			t.Fatalf("matrix %d: ||A - LL^H|| / (n eps ||A||) = %.3g > %d", b, r, Tol)
		}
	}
	// Matrices beside the planted ones must be right too.
	for b := range plant {
		for _, nb := range []int{b - 1, b + 1} {
			if _, planted := plant[nb]; planted || nb < 0 || nb >= l.Batch {
				continue
			}
			f := Triangle(out.Dense(nb), lower, false)
			llh := Mul(f, Adjoint(f))
			if !lower {
				llh = Mul(Adjoint(f), f)
			}
			if r := Scaled(Sub(full[nb], llh), NormF(full[nb]), n, Eps[T]()); r > Tol {
				t.Errorf("matrix %d next to a planted failure: residual %.3g", nb, r)
			}
		}
	}
}
