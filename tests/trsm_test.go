package tests

import (
	"fmt"
	"math/cmplx"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestTrsm(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testTri[float32](false), testTri[float64](false), testTri[complex64](false), testTri[complex128](false))
	})
}

// triCase is one trsm or trmm call: its flags and B's layout (A takes B's batch and stride
// padding, with ld padding of its own).
type triCase struct {
	side  batchlas.Side
	uplo  batchlas.Uplo
	trans batchlas.Transpose
	diag  batchlas.Diag
	b     Layout
	aPad  int
}

func (c triCase) String() string {
	return fmt.Sprintf("%v%v%v%v_%v_a+%d", c.side, c.uplo, c.trans, c.diag, c.b, c.aPad)
}

// order is the order of A.
func (c triCase) order() int {
	if c.side == batchlas.Left {
		return c.b.Rows
	}
	return c.b.Cols
}

var triLayouts = []struct {
	b    Layout
	aPad int
}{
	{Layout{Rows: 0, Cols: 3, Batch: 2}, 0}, {Layout{Rows: 3, Cols: 0, Batch: 2}, 1}, {Layout{Rows: 3, Cols: 3, Batch: 0}, 0},
	{Layout{Rows: 1, Cols: 1, Batch: 1}, 0}, {Layout{Rows: 5, Cols: 3, Batch: 3}, 0},
	{Layout{Rows: 3, Cols: 7, LDPad: 2, StridePad: 3, Batch: 3}, 1}, {Layout{Rows: 4, Cols: 3, LDPad: 1, Batch: 1024}, 2},
	// Orders and right-hand-side counts past the "cta" kernels' steps: A's order over the 16
	// or 32 elements solved at a time in registers, more vectors than the 64 threads of a
	// block, teams of 24 threads two to a block with a batch that leaves one team idle; and a
	// packed batch of n = 64 with 64 right-hand sides, as the benchmarks run.
	{Layout{Rows: 37, Cols: 70, LDPad: 1, StridePad: 2, Batch: 2}, 3}, {Layout{Rows: 20, Cols: 20, LDPad: 3, Batch: 5}, 1},
	{Layout{Rows: 64, Cols: 64, Batch: 2}, 0},
	// Orders and strips past the 64-by-64 tiles of trmm "triangular", each way.
	{Layout{Rows: 130, Cols: 5, LDPad: 1, Batch: 1}, 1}, {Layout{Rows: 5, Cols: 130, StridePad: 1, Batch: 1}, 2},
}

// testTri returns the test of trsm (mul false) or trmm (mul true) over every side, triangle,
// transpose and diagonal.
func testTri[T batchlas.Scalar](mul bool) func(*testing.T, *batchlas.Queue) {
	return func(t *testing.T, q *batchlas.Queue) {
		for _, side := range []batchlas.Side{batchlas.Left, batchlas.Right} {
			for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
				for _, trans := range Transposes {
					for _, diag := range []batchlas.Diag{batchlas.NonUnit, batchlas.Unit} {
						for _, l := range triLayouts {
							c := triCase{side, uplo, trans, diag, l.b, l.aPad}
							t.Run(c.String(), func(t *testing.T) { checkTri[T](t, q, mul, c) })
						}
						if !mul {
							c := triCase{side, uplo, trans, diag, Layout{Rows: 5, Cols: 3, LDPad: 1, Batch: 3}, 1}
							t.Run(c.String()+"_alpha0", func(t *testing.T) { checkTrsmAlphaZero[T](t, q, c) })
						} else {
							c := triCase{side, uplo, trans, diag, Layout{Rows: 5, Cols: 3, LDPad: 1, Batch: 3}, 1}
							t.Run(c.String()+"_alpha0nan", func(t *testing.T) { checkTrmmAlphaZero[T](t, q, c) })
						}
					}
				}
			}
		}
	}
}

// checkTri runs trsm or trmm on random data with A's other triangle, A's diagonal when
// unit, and every gap poisoned, and checks the residual of each sampled matrix:
// ||op(A) X - alpha B|| (or X op(A)) for trsm, ||B' - alpha op(A) B|| (or B op(A)) for trmm.
func checkTri[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, mul bool, c triCase) {
	rng := NewRand(t)
	lower, unit := c.uplo == batchlas.Lower, c.diag == batchlas.Unit
	k := c.order()
	inA := RandTriangular[T](rng, Layout{Rows: k, Cols: k, LDPad: c.aPad, StridePad: c.b.StridePad, Batch: c.b.Batch}, lower, unit)
	inB := RandStored[T](rng, c.b)
	alphaT := From[T](Alpha)
	a, b := Upload(t, q, inA), Upload(t, q, inB)
	var err error
	if mul {
		err = batchlas.Trmm(q, c.side, c.uplo, c.trans, c.diag, alphaT, a, b)
	} else {
		err = batchlas.Trsm(q, c.side, c.uplo, c.trans, c.diag, alphaT, a, b)
	}
	if routeRefused(err) {
		t.Skipf("pinned family refuses %v: %v", c, err) // a family limited in the order of A
	} else if err != nil {
		t.Fatalf("%v", err)
	}
	Untouched(t, inA, Download(t, q, a, inA.Layout), ReadOnly)
	out := Download(t, q, b, c.b)
	Untouched(t, inB, out, nil)

	al := C128(alphaT)
	for _, i := range Sample(c.b.Batch) {
		A := Op(c.trans, Triangle(inA.Dense(i), lower, unit))
		B, got := inB.Dense(i), out.Dense(i)
		times := func(x Dense) Dense {
			if c.side == batchlas.Left {
				return Mul(A, x)
			}
			return Mul(x, A)
		}
		var r Dense
		var norm float64
		if mul {
			r = Sub(got, Axpby(al, times(B), 0, B))
			norm = cmplx.Abs(al) * NormF(A) * NormF(B)
		} else {
			r = Sub(times(got), Axpby(al, B, 0, B))
			norm = NormF(A)*NormF(got) + cmplx.Abs(al)*NormF(B)
		}
		if s := Scaled(r, norm, k, Eps[T]()); s > Tol {
			t.Fatalf("matrix %d: scaled residual %.3g > %d", i, s, Tol)
		}
	}
}

// checkTrsmAlphaZero checks that alpha = 0 sets B to zero, as the BLAS does, whatever A.
func checkTrsmAlphaZero[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, c triCase) {
	rng := NewRand(t)
	k := c.order()
	inA := RandTriangular[T](rng, Layout{Rows: k, Cols: k, LDPad: c.aPad, Batch: c.b.Batch}, c.uplo == batchlas.Lower, c.diag == batchlas.Unit)
	inB := RandStored[T](rng, c.b)
	a, b := Upload(t, q, inA), Upload(t, q, inB)
	if err := batchlas.Trsm(q, c.side, c.uplo, c.trans, c.diag, 0, a, b); routeRefused(err) {
		t.Skipf("pinned family refuses %v: %v", c, err)
	} else if err != nil {
		t.Fatal(err)
	}
	out := Download(t, q, b, c.b)
	Untouched(t, inB, out, nil)
	for i := 0; i < c.b.Batch; i++ {
		if got := out.Dense(i); NormF(got) != 0 {
			t.Fatalf("matrix %d: ||X|| = %g, want 0", i, NormF(got))
		}
	}
}

// checkTrmmAlphaZero checks that trmm with alpha = 0 sets B to zero reading neither A nor B,
// both all NaN.
func checkTrmmAlphaZero[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, c triCase) {
	k := c.order()
	inB := NewStored[T](c.b)
	a, b := Upload(t, q, NewStored[T](Layout{Rows: k, Cols: k, LDPad: c.aPad, Batch: c.b.Batch})), Upload(t, q, inB)
	if err := batchlas.Trmm(q, c.side, c.uplo, c.trans, c.diag, 0, a, b); routeRefused(err) {
		t.Skipf("pinned family refuses %v: %v", c, err)
	} else if err != nil {
		t.Fatal(err)
	}
	out := Download(t, q, b, c.b)
	Untouched(t, inB, out, nil)
	for i := 0; i < c.b.Batch; i++ {
		if got := out.Dense(i); NormF(got) != 0 {
			t.Fatalf("matrix %d: ||B|| = %g, want 0", i, NormF(got))
		}
	}
}

// TestCUDATrsmCTA runs trsm "cta" pinned at the largest order whose triangle fits the
// device's shared memory, found through TrsmBufferSize (a pinned family refuses there what it
// cannot run), and checks that one order more is refused, by potrs "cta" too, which shares
// the limit; then a batch of 70000 (beyond the 65535 grid limit); then trsm "blocked" one
// order past the limit.
func TestCUDATrsmCTA(t *testing.T) {
	q := cudaQueue(t)
	ForEachDType(t, q, trsmCTALimit[float32], trsmCTALimit[float64], trsmCTALimit[complex64], trsmCTALimit[complex128])
}

func trsmCTALimit[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	pinFor(t, "trsm", "cta")
	pinFor(t, "potrs", "cta")
	// fits asks whether order n with one right-hand side is accepted.
	fits := func(op string, n int) bool {
		a, b := probeMatrix[T](q, n, n, 1), probeMatrix[T](q, n, 1, 1)
		defer a.Free()
		defer b.Free()
		var err error
		if op == "trsm" {
			_, err = batchlas.TrsmBufferSize(q, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, a, b)
		} else {
			_, err = batchlas.PotrsBufferSize(q, batchlas.Lower, a, b)
		}
		if routeRefused(err) {
			return false
		} else if err != nil {
			t.Fatal(err)
		}
		return true
	}
	lo, hi := 1, 1024 // fits(lo), !fits(hi)
	if !fits("trsm", lo) || fits("trsm", hi) {
		t.Fatalf("cta: order %d refused or %d accepted", lo, hi)
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; fits("trsm", mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	t.Logf("largest order: %d", lo)
	if lo < 64 {
		t.Errorf("cta takes orders up to %d only, below 64", lo)
	}
	if !fits("potrs", lo) || fits("potrs", lo+1) {
		t.Errorf("potrs cta's largest order is not %d", lo)
	}
	for _, c := range []triCase{
		{batchlas.Left, batchlas.Upper, batchlas.ConjTrans, batchlas.NonUnit, Layout{Rows: lo, Cols: 5, LDPad: 1, Batch: 2}, 2},
		{batchlas.Right, batchlas.Lower, batchlas.NoTrans, batchlas.Unit, Layout{Rows: 3, Cols: lo, StridePad: 1, Batch: 2}, 0},
		{batchlas.Left, batchlas.Lower, batchlas.Trans, batchlas.NonUnit, Layout{Rows: 4, Cols: 4, Batch: 70000}, 0},
	} {
		t.Run(c.String(), func(t *testing.T) { checkTri[T](t, q, false, c) })
	}
	// One past that limit, the blocked family: each side, its blocks solved first to last
	// and last to first, op(A) as A and transposed.
	t.Run("blocked", func(t *testing.T) {
		pinFor(t, "trsm", "blocked")
		for _, c := range []triCase{
			{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.Unit, Layout{Rows: lo + 1, Cols: 5, LDPad: 1, Batch: 2}, 1},
			{batchlas.Left, batchlas.Lower, batchlas.Trans, batchlas.NonUnit, Layout{Rows: lo + 1, Cols: 3, Batch: 2}, 0},
			{batchlas.Right, batchlas.Upper, batchlas.ConjTrans, batchlas.NonUnit, Layout{Rows: 3, Cols: lo + 1, StridePad: 1, Batch: 2}, 2},
			{batchlas.Right, batchlas.Upper, batchlas.NoTrans, batchlas.Unit, Layout{Rows: 4, Cols: lo + 1, Batch: 2}, 0},
		} {
			t.Run(c.String(), func(t *testing.T) { checkTri[T](t, q, false, c) })
		}
	})
}
