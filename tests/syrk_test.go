package tests

import (
	"fmt"
	"math/cmplx"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestSyrk(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testSyrk[float32], testSyrk[float64], testSyrk[complex64], testSyrk[complex128])
	})
}

func testSyrk[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	testRank[T](t, q, rankOp{name: "syrk"})
}

// rankOp names one of the rank-k and rank-2k updates: herm for herk and her2k, two for syr2k
// and her2k.
type rankOp struct {
	name      string
	herm, two bool
}

// runRank runs op with alpha and beta (their real parts where op takes real scalars) and
// returns the scalars as op received them, rounded to T.
func runRank[T batchlas.Scalar](op rankOp, q *batchlas.Queue, uplo batchlas.Uplo, trans batchlas.Transpose, alpha complex128, a, b *batchlas.Matrix[T], beta complex128, c *batchlas.Matrix[T]) (complex128, complex128, error) {
	at, bt := From[T](alpha), From[T](beta)
	ra, rb := real(alpha), real(beta)
	var err error
	switch {
	case !op.herm && !op.two:
		err = batchlas.Syrk(q, uplo, trans, at, a, bt, c)
	case op.herm && !op.two:
		err = batchlas.Herk(q, uplo, trans, ra, a, rb, c)
		at = From[T](complex(ra, 0))
		bt = From[T](complex(rb, 0))
	case !op.herm:
		err = batchlas.Syr2k(q, uplo, trans, at, a, b, bt, c)
	default:
		err = batchlas.Her2k(q, uplo, trans, at, a, b, rb, c)
		bt = From[T](complex(rb, 0))
	}
	return C128(at), C128(bt), err
}

// testRank runs op over every triangle, allowed transposition, shape class and scalar case;
// a layout's rows and columns are n and k.
func testRank[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, op rankOp) {
	trans := []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans, batchlas.ConjTrans}
	if IsComplex[T]() && op.herm {
		trans = []batchlas.Transpose{batchlas.NoTrans, batchlas.ConjTrans}
	} else if IsComplex[T]() {
		trans = []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans}
	}
	shapes := l3Shapes([2]int{1, 1}, [2]int{1, 4}, [2]int{5, 3}, [2]int{7, 7}, [2]int{4, 17}, [2]int{16, 5})
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		for _, tr := range trans {
			for _, l := range shapes {
				for _, s := range l3Scalars {
					t.Run(fmt.Sprintf("%v%v_n%d_k%d_%v_%s", uplo, tr, l.Rows, l.Cols, l, s.name), func(t *testing.T) {
						checkRank[T](t, q, op, uplo, tr, l, s)
					})
				}
			}
			// Orders past the native families' tiles: gram's 32, 64 and 128 (its limit; 64 for
			// complex types) and triangular's 64.
			for _, n := range []int{33, 65, 129} {
				for _, s := range l3Edges {
					l := Layout{Rows: n, Cols: 9, LDPad: 1, StridePad: 2, Batch: 2}
					t.Run(fmt.Sprintf("%v%v_n%d_k%d_%v_%s", uplo, tr, l.Rows, l.Cols, l, s.name), func(t *testing.T) {
						checkRank[T](t, q, op, uplo, tr, l, s)
					})
				}
			}
		}
	}
}

// checkRank runs op on random data with C's other triangle and every gap poisoned, and
// compares C's triangle with the complex128 reference. l.Rows is n and l.Cols is k; C takes
// l's padding and A and B l3Operand's.
func checkRank[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, op rankOp, uplo batchlas.Uplo, trans batchlas.Transpose, l Layout, s l3Scalar) {
	rng := NewRand(t)
	lower := uplo == batchlas.Lower
	n, k := l.Rows, l.Cols
	ar, ac := n, k
	if trans != batchlas.NoTrans {
		ar, ac = k, n
	}
	lc := l3Operand(l, n, n, 0)
	sa, sb, sc := NewStored[T](l3Operand(l, ar, ac, 1)), NewStored[T](l3Operand(l, ar, ac, 2)), NewStored[T](lc)
	ma, mb, c0 := make([]Dense, l.Batch), make([]Dense, l.Batch), make([]Dense, l.Batch)
	for b := 0; b < l.Batch; b++ {
		ma[b] = RandDense[T](rng, ar, ac)
		if !s.nanA {
			sa.SetDense(b, ma[b])
		}
		mb[b] = ma[b]
		if op.two {
			mb[b] = RandDense[T](rng, ar, ac)
			if !s.nanA {
				sb.SetDense(b, mb[b])
			}
		}
		c0[b] = NewDense(n, n)
		if !s.nanC {
			// The diagonal keeps its imaginary parts, which herk and her2k take as zero.
			x := RandDense[T](rng, n, n)
			setTriangle(sc, b, x, lower)
			c0[b] = symmetric(x, lower)
			if op.herm {
				c0[b] = Hermitian(x, lower)
			}
		}
	}
	a, bm, c := Upload(t, q, sa), Upload(t, q, sb), Upload(t, q, sc)
	if !op.two {
		bm = a
	}
	alpha, beta, err := runRank(op, q, uplo, trans, s.alpha, a, bm, s.beta, c)
	if routeRefused(err) {
		t.Skipf("pinned family refuses n=%d: %v", n, err) // only under a pin
	} else if err != nil {
		t.Fatalf("%s: %v", op.name, err)
	}
	out := Download(t, q, c, lc)
	Untouched(t, sa, Download(t, q, a, sa.Layout), nothing)
	if op.two {
		Untouched(t, sb, Download(t, q, bm, sb.Layout), nothing)
	}
	Untouched(t, sc, out, func(b, i, j int) bool { return InTriangle(lower, i, j) })

	// C = alpha P(A, B) + alpha2 P(B, A) + beta C with P(X, Y) = X Y^T or X^T Y (^H for
	// herk and her2k); syrk and herk have alpha2 = 0 and B = A.
	tp := Transpose
	alpha2 := complex128(0)
	if op.herm {
		tp = Adjoint
	}
	if op.two {
		alpha2 = alpha
		if op.herm {
			alpha2 = cmplx.Conj(alpha)
		}
	}
	prod := func(x, y Dense) Dense {
		if trans == batchlas.NoTrans {
			return Mul(x, tp(y))
		}
		return Mul(tp(x), y)
	}
	for _, b := range Sample(l.Batch) {
		want := lincomb(alpha, prod(ma[b], mb[b]), beta, c0[b])
		want = lincomb(1, want, alpha2, prod(mb[b], ma[b]))
		got := out.Dense(b)
		diff := NewDense(n, n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				if InTriangle(lower, i, j) {
					diff.Set(i, j, got.At(i, j)-want.At(i, j))
				}
			}
			if op.herm && imag(got.At(j, j)) != 0 {
				t.Fatalf("matrix %d: C(%d, %d) = %v is not real", b, j, j, got.At(j, j))
			}
		}
		norm := (cmplx.Abs(alpha)+cmplx.Abs(alpha2))*NormF(ma[b])*NormF(mb[b]) + cmplx.Abs(beta)*NormF(c0[b])
		if r := Scaled(diff, norm, max(n, k), Eps[T]()); r > Tol {
			t.Fatalf("matrix %d: ||C - C_ref|| / (n eps (|alpha| ||A|| ||B|| + |beta| ||C||)) = %.3g > %d", b, r, Tol)
		}
	}
}
