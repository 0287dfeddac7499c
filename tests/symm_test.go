package tests

import (
	"fmt"
	"math/cmplx"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestSymm(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testSymm[float32], testSymm[float64], testSymm[complex64], testSymm[complex128])
	})
}

func testSymm[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) { testMultiply[T](t, q, false) }

// testMultiply runs symm (herm false) or hemm over every side, triangle, shape class and
// scalar case; C is m-by-n.
func testMultiply[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, herm bool) {
	shapes := l3Shapes([2]int{1, 1}, [2]int{3, 5}, [2]int{7, 2}, [2]int{16, 9}, [2]int{5, 12})
	for _, side := range []batchlas.Side{batchlas.Left, batchlas.Right} {
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			for _, l := range shapes {
				for _, s := range l3Scalars {
					t.Run(fmt.Sprintf("%v%v_%v_%s", side, uplo, l, s.name), func(t *testing.T) {
						checkMultiply[T](t, q, herm, side, uplo, l, s)
					})
				}
			}
			// Past one 64-by-64 tile of C and of A, in both directions.
			for _, s := range l3Edges {
				l := Layout{Rows: 70, Cols: 66, LDPad: 1, StridePad: 2, Batch: 2}
				t.Run(fmt.Sprintf("%v%v_%v_%s", side, uplo, l, s.name), func(t *testing.T) { checkMultiply[T](t, q, herm, side, uplo, l, s) })
			}
		}
	}
}

// l3Scalar is a level-3 test's alpha and beta; nanC fills C with NaN, which beta = 0 must
// ignore, and nanA leaves A and B all NaN, which alpha = 0 must not read.
type l3Scalar struct {
	name        string
	alpha, beta complex128
	nanC, nanA  bool
}

var l3Scalars = []l3Scalar{
	{name: "ab", alpha: complex(0.7, -0.4), beta: complex(-1.3, 0.6)},
	{name: "beta0", alpha: complex(0.7, -0.4), nanC: true},
	{name: "alpha0", beta: complex(-1.3, 0.6)},
}

// l3Edges are the scalar cases of the shapes that straddle the native families' tiles: a
// general case, and alpha = 0 with A and B all NaN.
var l3Edges = []l3Scalar{l3Scalars[0], {name: "alpha0nan", beta: complex(-1.3, 0.6), nanA: true}}

// l3Shapes lists layouts for C (rows, cols) of each size in the classes of SquareLayouts,
// then the empty ones and a saturating batch. l3Operand derives the other operands' layouts.
func l3Shapes(sizes ...[2]int) []Layout {
	var ls []Layout
	for _, s := range sizes {
		r, c := s[0], s[1]
		ls = append(ls,
			Layout{Rows: r, Cols: c, Batch: 5},
			Layout{Rows: r, Cols: c, LDPad: 3, Batch: 5},
			Layout{Rows: r, Cols: c, LDPad: 1, StridePad: 5, Batch: 5},
			Layout{Rows: r, Cols: c, Batch: 1})
	}
	return append(ls,
		Layout{Rows: 0, Cols: 0, Batch: 3}, Layout{Rows: 0, Cols: 3, Batch: 2},
		Layout{Rows: 3, Cols: 0, Batch: 2}, Layout{Rows: 4, Cols: 4, Batch: 0},
		Layout{Rows: 3, Cols: 2, Batch: 1024})
}

// l3Operand is the layout of an r-by-c operand stored like c: the same padding classes, with
// a leading dimension that differs from the other operands' (by k) when c's is padded.
func l3Operand(l Layout, r, c, k int) Layout {
	ld := l.LDPad
	if ld > 0 {
		ld += k
	}
	return Layout{Rows: r, Cols: c, LDPad: ld, StridePad: l.StridePad, Batch: l.Batch}
}

// checkMultiply runs symm or hemm on random data with A's other triangle and every gap
// poisoned, and compares C with the complex128 reference.
func checkMultiply[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, herm bool, side batchlas.Side, uplo batchlas.Uplo, l Layout, s l3Scalar) {
	rng := NewRand(t)
	lower := uplo == batchlas.Lower
	m, n := l.Rows, l.Cols
	order := m
	if side == batchlas.Right {
		order = n
	}
	alpha, beta := From[T](s.alpha), From[T](s.beta)
	sa, sb, sc := NewStored[T](l3Operand(l, order, order, 1)), NewStored[T](l3Operand(l, m, n, 2)), NewStored[T](l)
	fullA, mb, c0 := make([]Dense, l.Batch), make([]Dense, l.Batch), make([]Dense, l.Batch)
	for b := 0; b < l.Batch; b++ {
		x := RandDense[T](rng, order, order)
		if !s.nanA {
			setTriangle(sa, b, x, lower)
		}
		if herm {
			fullA[b] = Hermitian(x, lower)
		} else {
			fullA[b] = symmetric(x, lower)
		}
		mb[b] = RandDense[T](rng, m, n)
		if !s.nanA {
			sb.SetDense(b, mb[b])
		}
		c0[b] = NewDense(m, n)
		if !s.nanC {
			c0[b] = RandDense[T](rng, m, n)
			sc.SetDense(b, c0[b])
		}
	}
	a, bm, c := Upload(t, q, sa), Upload(t, q, sb), Upload(t, q, sc)
	call := batchlas.Symm[T]
	if herm {
		call = batchlas.Hemm[T]
	}
	if err := call(q, side, uplo, alpha, a, bm, beta, c); routeRefused(err) {
		t.Skipf("pinned family refuses %v: %v", l, err) // only under a pin
	} else if err != nil {
		t.Fatalf("call: %v", err)
	}
	out := Download(t, q, c, l)
	Untouched(t, sa, Download(t, q, a, sa.Layout), nothing)
	Untouched(t, sb, Download(t, q, bm, sb.Layout), nothing)
	Untouched(t, sc, out, func(b, i, j int) bool { return true })

	ca, cb := C128(alpha), C128(beta)
	for _, b := range Sample(l.Batch) {
		var ab Dense
		if side == batchlas.Left {
			ab = Mul(fullA[b], mb[b])
		} else {
			ab = Mul(mb[b], fullA[b])
		}
		want := lincomb(ca, ab, cb, c0[b])
		norm := cmplx.Abs(ca)*NormF(fullA[b])*NormF(mb[b]) + cmplx.Abs(cb)*NormF(c0[b])
		if r := Scaled(Sub(out.Dense(b), want), norm, order, Eps[T]()); r > Tol {
			t.Fatalf("matrix %d: ||C - C_ref|| / (n eps (|alpha| ||A|| ||B|| + |beta| ||C||)) = %.3g > %d", b, r, Tol)
		}
	}
}

// nothing is a writable set for Untouched that checks every element of the matrices.
func nothing(b, i, j int) bool { return false }

// setTriangle stores the named triangle of x, diagonal included, as matrix b of s.
func setTriangle[T batchlas.Scalar](s Stored[T], b int, x Dense, lower bool) {
	for j := 0; j < x.C; j++ {
		for i := 0; i < x.R; i++ {
			if InTriangle(lower, i, j) {
				s.Set(b, i, j, From[T](x.At(i, j)))
			}
		}
	}
}

// symmetric fills the other triangle of a from the named one, without conjugation.
func symmetric(a Dense, lower bool) Dense {
	s := NewDense(a.R, a.C)
	for j := 0; j < a.C; j++ {
		for i := 0; i < a.R; i++ {
			if InTriangle(lower, i, j) {
				s.Set(i, j, a.At(i, j))
			} else {
				s.Set(i, j, a.At(j, i))
			}
		}
	}
	return s
}

// lincomb is alpha x + beta y.
func lincomb(alpha complex128, x Dense, beta complex128, y Dense) Dense {
	z := NewDense(x.R, x.C)
	for i := range z.D {
		z.D[i] = alpha*x.D[i] + beta*y.D[i]
	}
	return z
}
