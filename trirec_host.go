package batchlas

import (
	"gonum.org/v1/gonum/blas"

	"github.com/batchlas/batchlas/internal/hostgemm"
)

// triLeaf is the order of op(A) up to which triRec hands a diagonal block to gonum's trsm or
// trmm; above it the triangle splits in two and the off-diagonal block goes to gemmKernel's
// packed gemm. BenchmarkTriHost (one core, under load): with leaves of 16 rather than 32 the
// recursive trsm took 0.06-0.10 ms against 0.13-0.20 at n = 64 and 0.34-0.44 against
// 0.51-0.59 at n = 128; at n = 32 it is level with gonum's trsm, and trmm 1.2-1.5x faster.
const triLeaf = 16

// triRec is one matrix's trsm or trmm, column-major, by the recursion that splits op(A) at
// half its order: the two diagonal blocks recurse, the off-diagonal one is a gemm on the
// block of B that it couples. Only the stored triangle of A is read, as in BLAS.
type triRec[T Scalar] struct {
	side    Side
	uplo    Uplo
	trans   Transpose
	diag    Diag
	solve   bool // trsm; trmm otherwise
	leaf    triBLAS[T]
	gemm    gemmFunc[T]
	lowerOp bool // op(A) is lower triangular
}

// newTriRec returns the recursion for c's shape, or nil when a plain gonum call is as fast:
// no assembly gemm on this CPU, op(A) of order triLeaf or less, or alpha = 0 (B = 0, and
// neither A nor B is read).
func newTriRec[T Scalar](c *triCall[T], solve bool, leaf triBLAS[T]) *triRec[T] {
	order := c.b.rows
	if c.side == Right {
		order = c.b.cols
	}
	if !hostgemm.Enabled() || order <= triLeaf || c.alpha == 0 {
		return nil
	}
	return &triRec[T]{side: c.side, uplo: c.uplo, trans: c.trans, diag: c.diag, solve: solve, leaf: leaf,
		gemm: gemmKernel[T](), lowerOp: (c.uplo == Lower) == (c.trans == NoTrans)}
}

// run is B = alpha op(A)^-1 B, B op(A)^-1, op(A) B or B op(A) for the m-by-n B.
func (t *triRec[T]) run(m, n int, alpha T, a []T, lda int, b []T, ldb int) {
	order := m
	if t.side == Right {
		order = n
	}
	if order <= triLeaf {
		t.leafCall(m, n, alpha, a, lda, b, ldb)
		return
	}
	h := half(order)
	a11, a22 := a, a[h+h*lda:]
	// The stored off-diagonal block: A21 (rows h.., columns ..h) of a lower A, A12 of an upper
	// one; gemm applies op to it, which gives op(A)'s off-diagonal block in either case.
	a21 := a[h:]
	if t.uplo == Upper {
		a21 = a[h*lda:]
	}
	var one T = 1
	if t.side == Left {
		// B = [B1; B2] split at row h; op(A)'s off-diagonal block is (m-h)-by-h when it is lower.
		b1, b2 := b, b[h:]
		if t.solve {
			if t.lowerOp { // X1 = L11^-1 alpha B1; X2 = L22^-1 (alpha B2 - L21 X1)
				t.run(h, n, alpha, a11, lda, b1, ldb)
				t.gemm(t.trans, NoTrans, m-h, n, h, -1, a21, lda, b1, ldb, alpha, b2, ldb)
				t.run(m-h, n, one, a22, lda, b2, ldb)
			} else { // X2 = U22^-1 alpha B2; X1 = U11^-1 (alpha B1 - U12 X2)
				t.run(m-h, n, alpha, a22, lda, b2, ldb)
				t.gemm(t.trans, NoTrans, h, n, m-h, -1, a21, lda, b2, ldb, alpha, b1, ldb)
				t.run(h, n, one, a11, lda, b1, ldb)
			}
			return
		}
		if t.lowerOp { // B2 = alpha (L22 B2 + L21 B1), then B1 = alpha L11 B1
			t.run(m-h, n, alpha, a22, lda, b2, ldb)
			t.gemm(t.trans, NoTrans, m-h, n, h, alpha, a21, lda, b1, ldb, one, b2, ldb)
			t.run(h, n, alpha, a11, lda, b1, ldb)
		} else { // B1 = alpha (U11 B1 + U12 B2), then B2 = alpha U22 B2
			t.run(h, n, alpha, a11, lda, b1, ldb)
			t.gemm(t.trans, NoTrans, h, n, m-h, alpha, a21, lda, b2, ldb, one, b1, ldb)
			t.run(m-h, n, alpha, a22, lda, b2, ldb)
		}
		return
	}
	// B = [B1 B2] split at column h.
	b1, b2 := b, b[h*ldb:]
	if t.solve {
		if t.lowerOp { // X2 = alpha B2 L22^-1; X1 = (alpha B1 - X2 L21) L11^-1
			t.run(m, n-h, alpha, a22, lda, b2, ldb)
			t.gemm(NoTrans, t.trans, m, h, n-h, -1, b2, ldb, a21, lda, alpha, b1, ldb)
			t.run(m, h, one, a11, lda, b1, ldb)
		} else { // X1 = alpha B1 U11^-1; X2 = (alpha B2 - X1 U12) U22^-1
			t.run(m, h, alpha, a11, lda, b1, ldb)
			t.gemm(NoTrans, t.trans, m, n-h, h, -1, b1, ldb, a21, lda, alpha, b2, ldb)
			t.run(m, n-h, one, a22, lda, b2, ldb)
		}
		return
	}
	if t.lowerOp { // B1 = alpha (B1 L11 + B2 L21), then B2 = alpha B2 L22
		t.run(m, h, alpha, a11, lda, b1, ldb)
		t.gemm(NoTrans, t.trans, m, h, n-h, alpha, b2, ldb, a21, lda, one, b1, ldb)
		t.run(m, n-h, alpha, a22, lda, b2, ldb)
	} else { // B2 = alpha (B2 U22 + B1 U12), then B1 = alpha B1 U11
		t.run(m, n-h, alpha, a22, lda, b2, ldb)
		t.gemm(NoTrans, t.trans, m, n-h, h, alpha, b1, ldb, a21, lda, one, b2, ldb)
		t.run(m, h, alpha, a11, lda, b1, ldb)
	}
}

// leafCall is gonum's trsm or trmm on the column-major block; see triHost for the mapping.
func (t *triRec[T]) leafCall(m, n int, alpha T, a []T, lda int, b []T, ldb int) {
	side := blas.Right
	if t.side == Right {
		side = blas.Left
	}
	t.leaf(side, rowMajorUplo(t.uplo), blasTrans(t.trans), blasDiag(t.diag == Unit), n, m, alpha, a, lda, b, ldb)
}
