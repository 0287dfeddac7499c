package tests

import (
	"fmt"
	"math/cmplx"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGemm(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testGemm[float32], testGemm[float64], testGemm[complex64], testGemm[complex128])
	})
}

// gemmShape is C m-by-n, inner size k, every operand with the same padding and batch.
type gemmShape struct{ m, n, k, ldPad, stridePad, batch int }

var gemmShapes = []gemmShape{
	{0, 0, 0, 0, 0, 3}, {0, 4, 3, 0, 0, 2}, {4, 0, 3, 0, 0, 2}, {0, 4, 0, 0, 0, 2}, {4, 3, 0, 1, 2, 2},
	{3, 3, 3, 0, 0, 0}, {1, 1, 1, 0, 0, 1}, {5, 3, 7, 0, 0, 3}, {4, 6, 1, 2, 3, 3}, {7, 2, 5, 1, 4, 2},
	{17, 9, 12, 3, 1, 2}, {3, 4, 2, 0, 0, 1024}, {65, 66, 33, 1, 2, 2}, {64, 64, 16, 0, 0, 1},
}

// gemmLimitShapes straddle the shared memory of the CUDA small family (op(A) and op(B) of
// 1x1x14000 fit 227 KB in float64, of 1x1x15000 not) and hold more than 65535 tiny matrices
// (float32 only: the CPU emulator takes seconds for a grid that large).
var gemmLimitShapes = []gemmShape{{1, 1, 14000, 0, 0, 1}, {1, 1, 15000, 0, 0, 1}, {2, 2, 2, 0, 0, 65537}}

func testGemm[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	for _, tA := range Transposes {
		for _, tB := range Transposes {
			for _, beta := range []complex128{Beta, 0} {
				for _, s := range gemmShapes {
					t.Run(fmt.Sprintf("%v%v_beta%v_%dx%dx%d_ld+%d_st+%d_b%d", tA, tB, beta, s.m, s.n, s.k, s.ldPad, s.stridePad, s.batch), func(t *testing.T) {
						checkGemm[T](t, q, tA, tB, beta, s)
					})
				}
			}
			for _, zero := range []bool{false, true} {
				t.Run(fmt.Sprintf("%v%v_alpha0_beta0=%v", tA, tB, zero), func(t *testing.T) { checkGemmAlphaZero[T](t, q, tA, tB, zero) })
			}
		}
	}
	for _, s := range gemmLimitShapes {
		if _, f32 := any(*new(T)).(float32); s.batch > 1<<16 && !f32 {
			continue
		}
		t.Run(fmt.Sprintf("NN_%dx%dx%d_b%d", s.m, s.n, s.k, s.batch), func(t *testing.T) {
			checkGemm[T](t, q, batchlas.NoTrans, batchlas.NoTrans, Beta, s)
		})
	}
}

// checkGemmAlphaZero checks that alpha = 0 reads neither A nor B, both all NaN (NewStored): C = beta C,
// or with beta = 0 (zero) C = 0 from a C of NaN.
func checkGemmAlphaZero[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, tA, tB batchlas.Transpose, zero bool) {
	const m, n, k, batch = 5, 4, 3, 3
	rng := NewRand(t)
	la, lb := opLayout(tA, m, k, 1, 2, batch), opLayout(tB, k, n, 0, 1, batch)
	lc := Layout{Rows: m, Cols: n, LDPad: 2, StridePad: 1, Batch: batch}
	inC, beta := RandStored[T](rng, lc), From[T](Beta)
	if zero {
		inC, beta = NewStored[T](lc), From[T](0)
	}
	a, b := Upload(t, q, NewStored[T](la)), Upload(t, q, NewStored[T](lb))
	c := Upload(t, q, inC)
	if err := batchlas.Gemm(q, tA, tB, From[T](0), a, b, beta, c); err != nil {
		t.Fatalf("Gemm: %v", err)
	}
	out := Download(t, q, c, lc)
	Untouched(t, inC, out, nil)
	for i := 0; i < batch; i++ {
		want := Axpby(0, NewDense(m, n), C128(beta), inC.Dense(i))
		if zero {
			want = NewDense(m, n)
		}
		if r := Scaled(Sub(out.Dense(i), want), NormF(want)+1, 1, Eps[T]()); r > Tol {
			t.Fatalf("matrix %d: ||C - beta C|| = %.3g (scaled) with alpha = 0", i, r)
		}
	}
}

// opLayout is the layout of a matrix x whose op(x) is r-by-c.
func opLayout(t batchlas.Transpose, r, c, ldPad, stridePad, batch int) Layout {
	if t != batchlas.NoTrans {
		r, c = c, r
	}
	return Layout{Rows: r, Cols: c, LDPad: ldPad, StridePad: stridePad, Batch: batch}
}

// checkGemm multiplies random matrices with every gap poisoned; with beta = 0, C holds NaN
// before the call, which must not reach the result.
func checkGemm[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, tA, tB batchlas.Transpose, beta complex128, s gemmShape) {
	t.Helper()
	rng := NewRand(t)
	inA := RandStored[T](rng, opLayout(tA, s.m, s.k, s.ldPad, s.stridePad, s.batch))
	inB := RandStored[T](rng, opLayout(tB, s.k, s.n, s.ldPad+1, s.stridePad, s.batch))
	lc := Layout{Rows: s.m, Cols: s.n, LDPad: s.ldPad, StridePad: s.stridePad, Batch: s.batch}
	inC := NewStored[T](lc)
	if beta != 0 {
		inC = RandStored[T](rng, lc)
	}
	alphaT, betaT := From[T](Alpha), From[T](beta)
	a, b, c := Upload(t, q, inA), Upload(t, q, inB), Upload(t, q, inC)
	if err := batchlas.Gemm(q, tA, tB, alphaT, a, b, betaT, c); routeRefused(err) {
		t.Skipf("pinned family refuses %dx%dx%d: %v", s.m, s.n, s.k, err) // only under a pin
	} else if err != nil {
		t.Fatalf("Gemm: %v", err)
	}
	Untouched(t, inA, Download(t, q, a, inA.Layout), ReadOnly)
	Untouched(t, inB, Download(t, q, b, inB.Layout), ReadOnly)
	out := Download(t, q, c, lc)
	Untouched(t, inC, out, nil)

	al, be := C128(alphaT), C128(betaT)
	for _, i := range Sample(s.batch) {
		A, B := inA.Dense(i), inB.Dense(i)
		want := Axpby(al, Mul(Op(tA, A), Op(tB, B)), be, inC.Dense(i))
		ref := cmplx.Abs(al) * NormF(A) * NormF(B)
		if be != 0 {
			ref += cmplx.Abs(be) * NormF(inC.Dense(i))
		}
		if r := Scaled(Sub(out.Dense(i), want), ref, s.k, Eps[T]()); r > Tol {
			t.Fatalf("matrix %d: ||C - (alpha op(A) op(B) + beta C)|| / (k eps (|alpha| ||A|| ||B|| + |beta| ||C||)) = %.3g > %d", i, r, Tol)
		}
	}
}
