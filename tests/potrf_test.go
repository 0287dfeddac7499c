package tests

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/batchlas/batchlas"
)

func TestPotrf(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testPotrf[float32], testPotrf[float64], testPotrf[complex64], testPotrf[complex128])
	})
}

func testPotrf[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	// 4, 5, 8, 9, 16, 17, 32, 33, 64, 65: the kernels of the tiny family change at n = 4, 8,
	// 16 and 32 and end at 64 (at 32 for complex128).
	layouts := append(Empty(), SquareLayouts(5, 1, 2, 3, 4, 5, 7, 9, 16, 17, 32, 33, 64, 65)...)
	layouts = append(layouts, Layout{Rows: 8, Cols: 8, Batch: 1024}, Layout{Rows: 2, Cols: 2, Batch: 70000})
	// The cta family's kernels change at n = 112; its limit with 227 KB of shared memory per
	// block (an H200); one above is the blocked family's (planted below).
	lim := map[int]int{4: 336, 8: 232, 16: 168}[int(unsafe.Sizeof(*new(T)))]
	for _, n := range []int{112, 113, lim} {
		layouts = append(layouts, Layout{Rows: n, Cols: n, LDPad: 1, StridePad: 3, Batch: 2})
	}
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
		// The same one past the cta family's limit, where the blocked family factors in
		// blocks of 64: the negative pivot in its last diagonal block, whose info is offset by
		// the columns before it.
		t.Run(fmt.Sprintf("%v_planted%d", uplo, lim+1), func(t *testing.T) {
			checkPotrf[T](t, q, uplo, Layout{Rows: lim + 1, Cols: lim + 1, LDPad: 1, StridePad: 3, Batch: 3}, map[int]int{1: lim - 3})
		})
		// The same at an order of the host's fixed-size kernels.
		t.Run(fmt.Sprintf("%v_planted7", uplo), func(t *testing.T) {
			checkPotrf[T](t, q, uplo, Layout{Rows: 7, Cols: 7, LDPad: 2, Batch: 64}, map[int]int{
				5: 3, 6: -1, 63: 0,
			})
		})
		// The same at an order of the tiny family's 64-lane kernel (one matrix a block).
		t.Run(fmt.Sprintf("%v_planted48", uplo), func(t *testing.T) {
			checkPotrf[T](t, q, uplo, Layout{Rows: 48, Cols: 48, LDPad: 1, Batch: 16}, map[int]int{
				5: 30, 6: -1, 15: 0,
			})
		})
	}
}

// checkPotrf factors random SPD matrices of layout l with the other triangle and every gap
// poisoned. plant is randSPDStored's: a planted negative pivot at k gives info k+1, a NaN
// planted at (n/2, n/2-1) gives info n/2+1 (the NaN reaches that pivot, and a NaN pivot is
// not positive).
func checkPotrf[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, uplo batchlas.Uplo, l Layout, plant map[int]int) {
	rng := NewRand(t)
	lower := uplo == batchlas.Lower
	n := l.Rows
	full, in := randSPDStored[T](rng, uplo, l, plant)
	a := Upload(t, q, in)
	info := PoisonedInfo(t, q, l.Batch)
	if err := batchlas.Potrf(q, uplo, a, info); routeRefused(err) {
		// Only under a pin (TestRouteEveryFamilyPinned): a family limited in n, such as
		// "tiny" (n <= 64), refuses the larger shapes.
		t.Skipf("pinned family refuses %v: %v", l, err)
	} else if err != nil {
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
		case planted && k < 0 && v != int32(n/2+1) && !(v == 0 && hasNaN(out, b)):
			// LAPACK's info, or a NaN factor with info 0 as cuSOLVER's potrfBatched gives
			// (the cross-backend rule for NaN input; the host kernels' exact info is
			// tested in the root package).
			t.Errorf("matrix %d holds NaN in row %d: info %d, want %d or a NaN factor", b, n/2, v, n/2+1)
		case !planted && v != 0:
			t.Errorf("matrix %d: info %d, want 0", b, v)
		}
	}
	// A sample, and the matrices beside the planted ones, must be right.
	for _, b := range checked(l.Batch, plant) {
		if _, planted := plant[b]; planted {
			continue
		}
		if r := cholResidual(full[b], out, b, lower); r > Tol {
			t.Errorf("matrix %d: ||A - LL^H|| / (n eps ||A||) = %.3g > %d", b, r, Tol)
		}
	}
}

// cholResidual is ||A - L L^H|| / (n eps ||A||) (or U^H U) for the Cholesky factor held in the
// named triangle of matrix b of out.
func cholResidual[T batchlas.Scalar](a Dense, out Stored[T], b int, lower bool) float64 {
	f := Triangle(out.Dense(b), lower, false)
	llh := Mul(f, Adjoint(f))
	if !lower {
		llh = Mul(Adjoint(f), f)
	}
	return Scaled(Sub(a, llh), NormF(a), a.R, Eps[T]())
}

// randSPDStored returns random Hermitian positive definite matrices for layout l and their
// span holding only the uplo triangle (the other one and every gap NaN). plant maps a matrix
// to the 0-based diagonal position made negative, so that info must be that plus one, or to
// -1 for a NaN at (n/2, n/2-1) and (n/2-1, n/2).
func randSPDStored[T batchlas.Scalar](rng *rand.Rand, uplo batchlas.Uplo, l Layout, plant map[int]int) ([]Dense, Stored[T]) {
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
		for j := 0; j < l.Cols; j++ {
			for i := 0; i < n; i++ {
				if InTriangle(lower, i, j) {
					in.Set(b, i, j, From[T](full[b].At(i, j)))
				}
			}
		}
	}
	return full, in
}

// hasNaN reports whether matrix b of s holds a NaN.
func hasNaN[T batchlas.Scalar](s Stored[T], b int) bool {
	for j := 0; j < s.Cols; j++ {
		for i := 0; i < s.Rows; i++ {
			if IsNaN(s.At(b, i, j)) {
				return true
			}
		}
	}
	return false
}
