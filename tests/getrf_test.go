package tests

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"slices"
	"strings"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGetrf(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testGetrf[float32], testGetrf[float64], testGetrf[complex64], testGetrf[complex128])
	})
}

func testGetrf[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	layouts := append(Empty(), SquareLayouts(5, 1, 2, 3, 4, 5, 7, 16, 33)...)
	layouts = append(layouts, luLimits()...)
	layouts = append(layouts,
		Layout{Rows: 4, Cols: 4, LDPad: 1, StridePad: 2, Batch: 300}, Layout{Rows: 3, Cols: 3, Batch: 70000},
		Layout{Rows: 256, Cols: 3, LDPad: 1, Batch: 2}, Layout{Rows: 257, Cols: 3, Batch: 2},
		Layout{Rows: 65, Cols: 64, Batch: 2}, Layout{Rows: 64, Cols: 65, StridePad: 1, Batch: 2},
		Layout{Rows: 7, Cols: 3, Batch: 4}, Layout{Rows: 3, Cols: 7, Batch: 4},
		Layout{Rows: 9, Cols: 4, LDPad: 2, StridePad: 3, Batch: 5},
		Layout{Rows: 4, Cols: 9, LDPad: 1, StridePad: 2, Batch: 5},
		Layout{Rows: 1, Cols: 5, Batch: 3}, Layout{Rows: 5, Cols: 1, Batch: 3},
		Layout{Rows: 0, Cols: 4, Batch: 2}, Layout{Rows: 4, Cols: 0, Batch: 2},
		Layout{Rows: 64, Cols: 64, Batch: 2}, Layout{Rows: 8, Cols: 8, Batch: 1024})
	for _, l := range layouts {
		t.Run(l.String(), func(t *testing.T) { checkGetrf[T](t, q, l, nil) })
	}
	// Exactly zero columns planted in the middle of a saturating batch, rectangular too:
	// U(k,k) = 0 for the first zero column k, and every other matrix must still be right.
	t.Run("planted", func(t *testing.T) {
		checkGetrf[T](t, q, Layout{Rows: 12, Cols: 12, LDPad: 1, Batch: 1024}, map[int]int{511: 0, 512: 6, 513: 11, 1023: 3})
	})
	t.Run("planted_recursive", func(t *testing.T) {
		checkGetrf[T](t, q, Layout{Rows: 70, Cols: 66, LDPad: 1, Batch: 4}, map[int]int{1: 0, 2: 40})
	})
	t.Run("planted_small", func(t *testing.T) {
		checkGetrf[T](t, q, Layout{Rows: 8, Cols: 8, LDPad: 2, Batch: 64}, map[int]int{5: 0, 6: 7, 63: 3})
		checkGetrf[T](t, q, Layout{Rows: 8, Cols: 5, Batch: 7}, map[int]int{3: 4})
	})
	t.Run("planted_rect", func(t *testing.T) {
		checkGetrf[T](t, q, Layout{Rows: 9, Cols: 5, StridePad: 2, Batch: 7}, map[int]int{3: 4})
		checkGetrf[T](t, q, Layout{Rows: 5, Cols: 9, StridePad: 2, Batch: 7}, map[int]int{3: 2})
	})
	// LAPACK's pivot rule on ties, NaN and Inf, in the register and shared-memory paths.
	for _, m := range []int{4, 70} {
		t.Run(fmt.Sprintf("pivot_rule_m%d", m), func(t *testing.T) { checkPivotRule[T](t, q, m) })
	}
	// A first column of subnormal numbers: the pivot's inverse overflows, so the column must
	// be divided by the pivot, as LAPACK's getf2 does below the safe minimum.
	t.Run("subnormal_pivot", func(t *testing.T) {
		tiny := 0x1p-1060
		if Eps[T]() > 0x1p-30 {
			tiny = 0x1p-140
		}
		l := Layout{Rows: 6, Cols: 6, Batch: 3}
		full := randGeneral[T](NewRand(t), l, nil)
		for _, a := range full {
			for i := 0; i < l.Rows; i++ {
				a.Set(i, 0, C128(From[T](a.At(i, 0)*complex(tiny, 0))))
			}
		}
		checkGetrfOf[T](t, q, l, full, nil)
	})
}

// luLimits are square layouts that straddle the shared-memory limit of the CUDA "cta" LU
// families on a device with 227 KB per block: order 120 and 121 for complex128, 170 and 171
// for float64 and complex64, 240 and 241 for float32.
func luLimits() []Layout {
	var ls []Layout
	for _, n := range []int{120, 121, 170, 171, 240, 241} {
		ls = append(ls, Layout{Rows: n, Cols: n, LDPad: 1, Batch: 2})
	}
	return ls
}

// checkPivotRule factors m-by-4 matrices whose first column starts with the entries of a
// case below (zeros under them) and checks the first pivot: BLAS's i?amax measure (|re| +
// |im| for complex), the first of equal candidates, a NaN never chosen unless it comes first.
// A column holding NaN is only checked to give a pivot row in range: the host vendor family
// calls OpenBLAS's i?amax, which may choose the NaN or pass over an Inf (seen: pivot 2 for the
// column 0, NaN, 3, -3; pivot 1 for -0.5, Inf, -Inf, NaN), and the factor is NaN whichever row
// is chosen.
func checkPivotRule[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, m int) {
	nan, inf := math.NaN(), math.Inf(1)
	complexT := IsComplex[T]()
	cases := []struct {
		col  []complex128
		want int32
	}{
		{[]complex128{1, -1, 1, -1}, 1},
		{[]complex128{0, complex(nan, 0), 3, -3}, 3},
		{[]complex128{complex(nan, 0), 5, 7, 0}, 1},
		{[]complex128{0, complex(nan, 0), 0, 0}, 1},
		{[]complex128{-0.5, complex(inf, 0), complex(-inf, 0), complex(nan, 0)}, 2},
		{[]complex128{1 + 1i, 2, -2i, 0}, map[bool]int32{true: 1, false: 2}[complexT]},
	}
	l := Layout{Rows: m, Cols: 4, Batch: len(cases)}
	full := randGeneral[T](NewRand(t), l, nil)
	for b, c := range cases {
		for i := 0; i < m; i++ {
			full[b].Set(i, 0, 0)
		}
		for i, x := range c.col {
			full[b].Set(i, 0, x)
		}
	}
	a := Upload(t, q, storeAll[T](l, full))
	ipiv, info := PoisonedInfo(t, q, 4*l.Batch), PoisonedInfo(t, q, l.Batch)
	chosen, err := traced(t, func() error { return batchlas.Getrf(q, a, ipiv, info) })
	if routeRefused(err) {
		t.Skipf("pinned family refuses %v: %v", l, err)
	} else if err != nil {
		t.Fatalf("Getrf: %v", err)
	}
	if complexT && m == l.Cols && q.Device().Backend == batchlas.CUDA && strings.Contains(chosen, "-> vendor ") {
		cases[len(cases)-1].want = 2 // cuBLAS's getrfBatched: the largest |z|, Getrf's documented exception
	}
	piv := DownloadVector(t, q, ipiv)
	for b, c := range cases {
		if slices.ContainsFunc(c.col, cmplx.IsNaN) {
			if piv[4*b] < 1 || int(piv[4*b]) > m {
				t.Errorf("m=%d, first column %v: first pivot %d out of range", m, c.col, piv[4*b])
			}
			continue
		}
		if piv[4*b] != c.want {
			t.Errorf("m=%d, first column %v: first pivot %d, want %d", m, c.col, piv[4*b], c.want)
		}
	}
}

// checkGetrf factors random matrices of layout l, every gap and output poisoned. plant maps a
// matrix to the column made exactly zero; info must be that column plus one.
func checkGetrf[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, l Layout, plant map[int]int) {
	checkGetrfOf[T](t, q, l, randGeneral[T](NewRand(t), l, plant), plant)
}

// checkGetrfOf is checkGetrf for the given matrices.
func checkGetrfOf[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, l Layout, full []Dense, plant map[int]int) {
	in := storeAll[T](l, full)
	k := min(l.Rows, l.Cols)
	a := Upload(t, q, in)
	ipiv := PoisonedInfo(t, q, k*l.Batch)
	info := PoisonedInfo(t, q, l.Batch)
	if err := batchlas.Getrf(q, a, ipiv, info); routeRefused(err) {
		// Only under a pin (TestRouteEveryFamilyPinned): a family limited in shape, such as
		// "tiny" (square, n <= 8), refuses the others.
		t.Skipf("pinned family refuses %v: %v", l, err)
	} else if err != nil {
		t.Fatalf("Getrf: %v", err)
	}
	out := Download(t, q, a, l)
	piv := DownloadVector(t, q, ipiv)
	got := DownloadVector(t, q, info)
	Untouched(t, in, out, nil)
	checkInfo(t, got, plant)
	wantPivots(t, piv, l.Batch, k, l.Rows)
	for _, b := range checked(l.Batch, plant) {
		if r := luResidual(full[b], out, b, piv[b*k:(b+1)*k]); r > Tol {
			t.Errorf("matrix %d: ||PA - LU|| / (n eps ||A||) = %.3g > %d", b, r, Tol)
		}
	}
}

// wantPivots fails t unless the k pivots of each of the batch matrices are LAPACK's: pivot
// j (0-based) in [j+1, m].
func wantPivots(t *testing.T, piv []int32, batch, k, m int) {
	t.Helper()
	for b := 0; b < batch; b++ {
		for j, p := range piv[b*k : (b+1)*k] {
			if p < int32(j+1) || p > int32(m) {
				t.Fatalf("matrix %d: pivot %d is %d, outside [%d, %d]", b, j+1, p, j+1, m)
			}
		}
	}
}

// swapRows applies LAPACK's 1-based row interchanges piv to a copy of a, in order: P^T A.
func swapRows(a Dense, piv []int32) Dense {
	p := Dense{R: a.R, C: a.C, D: append([]complex128(nil), a.D...)}
	for j, r := range piv {
		for c := 0; c < a.C; c++ {
			x, y := p.At(j, c), p.At(int(r)-1, c)
			p.Set(j, c, y)
			p.Set(int(r)-1, c, x)
		}
	}
	return p
}

// luResidual is ||P^T A - L U|| / (max(m,n) eps ||A||) for matrix b of the factored span.
func luResidual[T batchlas.Scalar](a Dense, out Stored[T], b int, piv []int32) float64 {
	m, n := a.R, a.C
	k := min(m, n)
	f := out.Dense(b)
	l, u := NewDense(m, k), NewDense(k, n)
	for j := 0; j < k; j++ {
		l.Set(j, j, 1)
		for i := j + 1; i < m; i++ {
			l.Set(i, j, f.At(i, j))
		}
	}
	for j := 0; j < n; j++ {
		for i := 0; i <= min(j, k-1); i++ {
			u.Set(i, j, f.At(i, j))
		}
	}
	return Scaled(Sub(swapRows(a, piv), Mul(l, u)), NormF(a), max(m, n), Eps[T]())
}

// factorLU uploads full in layout l and factors it with Getrf, which must succeed with the
// given plants; it returns the matrix, the pivots on q and the factored span.
func factorLU[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, l Layout, full []Dense, plant map[int]int) (*batchlas.Matrix[T], *batchlas.Vector[int32], Stored[T]) {
	t.Helper()
	a := Upload(t, q, storeAll[T](l, full))
	ipiv := PoisonedInfo(t, q, l.Rows*l.Batch)
	info := PoisonedInfo(t, q, l.Batch)
	var noRoute *batchlas.NoRouteError
	if err := batchlas.Getrf(q, a, ipiv, info); errors.As(err, &noRoute) {
		// A queue without a vendor library (the CPU emulator) factors only what the native
		// families take.
		t.Skipf("no family factors %v here: %v", l, err)
	} else if err != nil {
		t.Fatalf("Getrf: %v", err)
	}
	checkInfo(t, DownloadVector(t, q, info), plant)
	return a, ipiv, Download(t, q, a, l)
}
